package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// liveStreamModel is a live stream in the state, shared by the live stream and live streams
// data sources.
type liveStreamModel struct {
	ID           types.String           `tfsdk:"id"`
	Name         types.String           `tfsdk:"name"`
	StreamKey    types.String           `tfsdk:"stream_key"`
	Public       types.Bool             `tfsdk:"public"`
	PlayerID     types.String           `tfsdk:"player_id"`
	Broadcasting types.Bool             `tfsdk:"broadcasting"`
	CreatedAt    types.String           `tfsdk:"created_at"`
	UpdatedAt    types.String           `tfsdk:"updated_at"`
	Assets       *liveStreamAssetsModel `tfsdk:"assets"`
	Restreams    []restreamModel        `tfsdk:"restreams"`
}

type liveStreamAssetsModel struct {
	HLS       types.String `tfsdk:"hls"`
	IFrame    types.String `tfsdk:"iframe"`
	Player    types.String `tfsdk:"player"`
	Thumbnail types.String `tfsdk:"thumbnail"`
}

type restreamModel struct {
	Name      types.String `tfsdk:"name"`
	ServerURL types.String `tfsdk:"server_url"`
	StreamKey types.String `tfsdk:"stream_key"`
}

// NewLiveStreamDataSource returns the videohost_live_stream data source: one live stream, read
// by id.
func NewLiveStreamDataSource() datasource.DataSource {
	return newObjectDataSource("_live_stream", objectRead[videohost.LiveStream]{
		description:   "Reads one live stream of the workspace by its id, including its stream keys.",
		attributes:    liveStreamDataAttributes,
		idDescription: "Identifier of the live stream to read (the service's `liveStreamId`).",
		idWhat:        "a live stream (its liveStreamId)", listedBy: "videohost_live_streams",
		idParam: "liveStreamId", title: "Live Stream",
		get: (*videohost.Client).GetLiveStream,
		state: func(_ context.Context, ls videohost.LiveStream) (any, diag.Diagnostics) {
			return liveStreamModelFrom(ls), nil
		},
	})
}

// liveStreamDataAttributes are the computed attributes of a live stream.
func liveStreamDataAttributes() map[string]schema.Attribute {
	str, boolean, secret := computedString, computedBool, computedSecret
	return map[string]schema.Attribute{
		"id":   str("Identifier of the live stream (the service's `liveStreamId`)."),
		"name": str("Name of the live stream."),
		"stream_key": secret("Key a broadcaster uses to push to the live stream. Sensitive: anyone holding it " +
			"can broadcast."),
		"public":       boolean("Whether the live stream is public (`false`: a private, tokenised stream)."),
		"player_id":    str("Identifier of the player the live stream uses; empty when none."),
		"broadcasting": boolean("Whether the live stream was broadcasting when it was read."),
		"created_at":   str("Creation time, RFC 3339; null when the service gives none."),
		"updated_at":   str("Time of the last change, RFC 3339; null when the service gives none."),
		"assets": computedObject("Addresses of the live stream's outputs; null when the service gives none.",
			playerAssetsAttributes(nil)),
		"restreams": schema.ListNestedAttribute{
			MarkdownDescription: "Destinations the live stream is restreamed to, in the service's order; empty when none.",
			Computed:            true,
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name":       str("Name of the destination."),
				"server_url": str("RTMP address of the destination."),
				"stream_key": secret("Stream key at the destination. Sensitive."),
			}},
		},
	}
}

// liveStreamModelFrom maps a live stream of the service to the state. Restreams is never null,
// so that an absent list and an empty one read the same in configurations.
func liveStreamModelFrom(ls videohost.LiveStream) liveStreamModel {
	m := liveStreamModel{
		ID:           types.StringValue(ls.ID),
		Name:         types.StringValue(ls.Name),
		StreamKey:    types.StringValue(ls.StreamKey),
		Public:       types.BoolValue(ls.Public),
		PlayerID:     types.StringValue(ls.PlayerID),
		Broadcasting: types.BoolValue(ls.Broadcasting),
		CreatedAt:    timeString(ls.CreatedAt),
		UpdatedAt:    timeString(ls.UpdatedAt),
		Restreams:    make([]restreamModel, 0, len(ls.Restreams)),
	}
	if a := ls.Assets; a != nil {
		m.Assets = &liveStreamAssetsModel{
			HLS:       types.StringValue(a.HLS),
			IFrame:    types.StringValue(a.IFrame),
			Player:    types.StringValue(a.Player),
			Thumbnail: types.StringValue(a.Thumbnail),
		}
	}
	for _, rs := range ls.Restreams {
		m.Restreams = append(m.Restreams, restreamModel{
			Name:      types.StringValue(rs.Name),
			ServerURL: types.StringValue(rs.ServerURL),
			StreamKey: types.StringValue(rs.StreamKey),
		})
	}
	return m
}

type liveStreamsModel struct {
	Name        types.String `tfsdk:"name"`
	SortBy      types.String `tfsdk:"sort_by"`
	SortOrder   types.String `tfsdk:"sort_order"`
	LiveStreams types.List   `tfsdk:"live_streams"`
}

// NewLiveStreamsDataSource returns the videohost_live_streams data source: the live streams
// that match server-side filters.
func NewLiveStreamsDataSource() datasource.DataSource {
	return newListDataSource("_live_streams", listRead[videohost.LiveStream, liveStreamsModel, videohost.LiveStreamFilter]{
		description: "Lists the live streams of the workspace that match the filters (every page); the service filters and sorts them.",
		filters: withSortFilters(map[string]schema.Attribute{
			"name": textFilter("Only the live streams whose name matches this text (the service matches it, " +
				"possibly a part of the name, ignoring case). Unset: no filter; must not be empty."),
		}, "name", "createdAt", "updatedAt"),
		items: "live_streams", itemsDescription: "The matching live streams, in the service's order; empty when none match.",
		itemAttributes: liveStreamDataAttributes, elem: liveStreamObjectType,
		title:       "Live Streams",
		filterPaths: withSortFilterPaths(map[string]path.Path{"name": path.Root("name")}),
		filter: func(_ context.Context, m liveStreamsModel) (videohost.LiveStreamFilter, diag.Diagnostics) {
			return videohost.LiveStreamFilter{
				Name:      m.Name.ValueString(),
				SortBy:    m.SortBy.ValueString(),
				SortOrder: m.SortOrder.ValueString(),
			}, nil
		},
		list: (*videohost.Client).ListLiveStreams,
		object: func(_ context.Context, ls videohost.LiveStream) (types.Object, diag.Diagnostics) {
			return liveStreamModelFrom(ls).object()
		},
	})
}

// The types of the elements of live_streams, from the schema (see list_values.go).
var (
	liveStreamObjectType      = objectTypeOf(liveStreamDataAttributes())
	liveStreamAssetsAttrTypes = attrTypesOf(liveStreamObjectType.AttrTypes["assets"])
	restreamObjectType        = types.ObjectType{AttrTypes: attrTypesOf(liveStreamObjectType.AttrTypes["restreams"])}
)

// object is the live stream as an element of the live_streams list.
func (m liveStreamModel) object() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	assets := types.ObjectNull(liveStreamAssetsAttrTypes)
	if a := m.Assets; a != nil {
		var d diag.Diagnostics
		assets, d = types.ObjectValue(liveStreamAssetsAttrTypes, map[string]attr.Value{
			"hls": a.HLS, "iframe": a.IFrame, "player": a.Player, "thumbnail": a.Thumbnail,
		})
		diags.Append(d...)
	}
	restreams, d := listValue(restreamObjectType, m.Restreams, func(r restreamModel) (types.Object, diag.Diagnostics) {
		return types.ObjectValue(restreamObjectType.AttrTypes, map[string]attr.Value{
			"name": r.Name, "server_url": r.ServerURL, "stream_key": r.StreamKey,
		})
	})
	diags.Append(d...)
	o, d := types.ObjectValue(liveStreamObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "name": m.Name, "stream_key": m.StreamKey, "public": m.Public, "player_id": m.PlayerID,
		"broadcasting": m.Broadcasting, "created_at": m.CreatedAt, "updated_at": m.UpdatedAt,
		"assets": assets, "restreams": restreams,
	})
	diags.Append(d...)
	return o, diags
}
