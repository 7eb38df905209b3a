package livestream

// A live stream in the state: the model that its data sources and list resource show, and the
// resource's model, which keeps the write-only restream keys beside it.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// LiveStreamModel is a live stream in the state, shared by the live stream and live streams
// data sources.
type LiveStreamModel struct {
	ID           types.String           `tfsdk:"id"`
	Name         types.String           `tfsdk:"name"`
	StreamKey    types.String           `tfsdk:"stream_key"`
	Public       types.Bool             `tfsdk:"public"`
	PlayerID     types.String           `tfsdk:"player_id"`
	Broadcasting types.Bool             `tfsdk:"broadcasting"`
	CreatedAt    types.String           `tfsdk:"created_at"`
	UpdatedAt    types.String           `tfsdk:"updated_at"`
	Assets       *LiveStreamAssetsModel `tfsdk:"assets"`
	Restreams    []RestreamModel        `tfsdk:"restreams"`
}

type LiveStreamAssetsModel struct {
	HLS       types.String `tfsdk:"hls"`
	IFrame    types.String `tfsdk:"iframe"`
	Player    types.String `tfsdk:"player"`
	Thumbnail types.String `tfsdk:"thumbnail"`
}

type RestreamModel struct {
	Name      types.String `tfsdk:"name"`
	ServerURL types.String `tfsdk:"server_url"`
	StreamKey types.String `tfsdk:"stream_key"`
}

// liveStreamDataAttributes are the computed attributes of a live stream.
func liveStreamDataAttributes() map[string]schema.Attribute {
	str, boolean, secret := framework.ComputedString, framework.ComputedBool, framework.ComputedSecret
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
		"assets": framework.ComputedObject("Addresses of the live stream's outputs; null when the service gives none.",
			framework.PlayerAssetsAttributes(false)),
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

// LiveStreamModelFrom maps a live stream of the service to the state. Restreams is never null,
// so that an absent list and an empty one read the same in configurations.
func LiveStreamModelFrom(ls videohost.LiveStream) LiveStreamModel {
	m := LiveStreamModel{
		ID:           types.StringValue(ls.ID),
		Name:         types.StringValue(ls.Name),
		StreamKey:    types.StringValue(ls.StreamKey),
		Public:       types.BoolValue(ls.Public),
		PlayerID:     types.StringValue(ls.PlayerID),
		Broadcasting: types.BoolValue(ls.Broadcasting),
		CreatedAt:    framework.TimeString(ls.CreatedAt),
		UpdatedAt:    framework.TimeString(ls.UpdatedAt),
		Restreams:    make([]RestreamModel, 0, len(ls.Restreams)),
	}
	if a := ls.Assets; a != nil {
		m.Assets = &LiveStreamAssetsModel{
			HLS:       types.StringValue(a.HLS),
			IFrame:    types.StringValue(a.IFrame),
			Player:    types.StringValue(a.Player),
			Thumbnail: types.StringValue(a.Thumbnail),
		}
	}
	for _, rs := range ls.Restreams {
		m.Restreams = append(m.Restreams, RestreamModel{
			Name:      types.StringValue(rs.Name),
			ServerURL: types.StringValue(rs.ServerURL),
			StreamKey: types.StringValue(rs.StreamKey),
		})
	}
	return m
}

// The types of the elements of live_streams, from the schema (see list_values.go).
var (
	LiveStreamObjectType      = framework.ObjectTypeOf(liveStreamDataAttributes())
	liveStreamAssetsAttrTypes = framework.AttrTypesOf(LiveStreamObjectType.AttrTypes["assets"])
	restreamObjectType        = types.ObjectType{AttrTypes: framework.AttrTypesOf(LiveStreamObjectType.AttrTypes["restreams"])}
)

// Object is the live stream as an element of the live_streams list.
func (m LiveStreamModel) Object() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	assets := types.ObjectNull(liveStreamAssetsAttrTypes)
	if a := m.Assets; a != nil {
		var d diag.Diagnostics
		assets, d = types.ObjectValue(liveStreamAssetsAttrTypes, map[string]attr.Value{
			"hls": a.HLS, "iframe": a.IFrame, "player": a.Player, "thumbnail": a.Thumbnail,
		})
		diags.Append(d...)
	}
	restreams, d := framework.ListValue(restreamObjectType, m.Restreams, func(r RestreamModel) (types.Object, diag.Diagnostics) {
		return types.ObjectValue(restreamObjectType.AttrTypes, map[string]attr.Value{
			"name": r.Name, "server_url": r.ServerURL, "stream_key": r.StreamKey,
		})
	})
	diags.Append(d...)
	o, d := types.ObjectValue(LiveStreamObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "name": m.Name, "stream_key": m.StreamKey, "public": m.Public, "player_id": m.PlayerID,
		"broadcasting": m.Broadcasting, "created_at": m.CreatedAt, "updated_at": m.UpdatedAt,
		"assets": assets, "restreams": restreams,
	})
	diags.Append(d...)
	return o, diags
}

// liveStreamResourceModel is the state of videohost_live_stream. It has no broadcasting: that
// changes with the encoder, without any call of the API, and would make refreshes noisy.
type liveStreamResourceModel struct {
	ID        types.String `tfsdk:"id"`
	Name      types.String `tfsdk:"name"`
	Public    types.Bool   `tfsdk:"public"`
	PlayerID  types.String `tfsdk:"player_id"`
	Restreams types.List   `tfsdk:"restreams"`
	StreamKey types.String `tfsdk:"stream_key"`
	Assets    types.Object `tfsdk:"assets"`
	CreatedAt types.String `tfsdk:"created_at"`
	UpdatedAt types.String `tfsdk:"updated_at"`
	// The thumbnail's file and hash are the configuration's and the plan's (live_stream_thumbnail.go).
	ThumbnailFile   types.String `tfsdk:"thumbnail_file"`
	ThumbnailSHA256 types.String `tfsdk:"thumbnail_sha256"`
}

// RestreamResourceModel is one restream of the resource. Its key is either stream_key (kept in
// the state, sensitive) or stream_key_wo (write-only: never stored, sent when the restreams
// change, which stream_key_wo_version signals).
type RestreamResourceModel struct {
	Name               types.String `tfsdk:"name"`
	ServerURL          types.String `tfsdk:"server_url"`
	StreamKey          types.String `tfsdk:"stream_key"`
	StreamKeyWO        types.String `tfsdk:"stream_key_wo"`
	StreamKeyWOVersion types.Int64  `tfsdk:"stream_key_wo_version"`
}

var (
	restreamAttrTypes = map[string]attr.Type{
		"name": types.StringType, "server_url": types.StringType, "stream_key": types.StringType,
		"stream_key_wo": types.StringType, "stream_key_wo_version": types.Int64Type,
	}
	restreamResourceObjectType = types.ObjectType{AttrTypes: restreamAttrTypes}
	liveStreamAssetsTypes      = framework.AttrTypesOf(liveStreamAssetsAttribute().GetType())
)

// RestreamsOf reads a list of restreams; a null or unknown list is none.
func RestreamsOf(ctx context.Context, l types.List) ([]RestreamResourceModel, diag.Diagnostics) {
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	var out []RestreamResourceModel
	diags := l.ElementsAs(ctx, &out, false)
	return out, diags
}

// restreamsEqual reports whether two lists of restreams hold the same values, an empty list
// and no list being the same to the service.
func restreamsEqual(a, b types.List) bool {
	if len(a.Elements()) == 0 && len(b.Elements()) == 0 {
		return true
	}
	return a.Equal(b)
}

// LiveStreamResourceModelFrom maps a live stream of the service to the state. prior are the
// restreams the state had (or the plan has): a restream whose key is write-only there keeps
// no key here, and its version is kept. listed says whether the configuration has a list of
// restreams: an empty list of the service is then an empty list, else null.
func LiveStreamResourceModelFrom(ctx context.Context, ls videohost.LiveStream, prior []RestreamResourceModel, listed bool) (liveStreamResourceModel, diag.Diagnostics) {
	m := liveStreamResourceModel{
		ID:        types.StringValue(ls.ID),
		Name:      types.StringValue(ls.Name),
		Public:    types.BoolValue(ls.Public),
		PlayerID:  types.StringNull(),
		StreamKey: types.StringValue(ls.StreamKey),
		Assets:    types.ObjectNull(liveStreamAssetsTypes),
		CreatedAt: framework.TimeString(ls.CreatedAt),
		UpdatedAt: framework.TimeString(ls.UpdatedAt),
		Restreams: types.ListNull(restreamResourceObjectType),
	}
	if ls.PlayerID != "" {
		m.PlayerID = types.StringValue(ls.PlayerID)
	}
	var diags diag.Diagnostics
	if ls.Assets != nil {
		var d diag.Diagnostics
		m.Assets, d = types.ObjectValue(liveStreamAssetsTypes, map[string]attr.Value{
			"hls": types.StringValue(ls.Assets.HLS), "iframe": types.StringValue(ls.Assets.IFrame),
			"player": types.StringValue(ls.Assets.Player), "thumbnail": types.StringValue(ls.Assets.Thumbnail),
		})
		diags.Append(d...)
	}
	if len(ls.Restreams) == 0 && !listed {
		return m, diags
	}
	items := make([]RestreamResourceModel, 0, len(ls.Restreams))
	for i, rs := range ls.Restreams {
		item := RestreamResourceModel{
			Name:               types.StringValue(rs.Name),
			ServerURL:          types.StringValue(rs.ServerURL),
			StreamKey:          types.StringValue(rs.StreamKey),
			StreamKeyWO:        types.StringNull(),
			StreamKeyWOVersion: types.Int64Null(),
		}
		if i < len(prior) && prior[i].StreamKey.IsNull() {
			// A write-only key: Terraform never learns it, so its changes on the service are not
			// seen; the version says when the configuration's key changed.
			item.StreamKey = types.StringNull()
			item.StreamKeyWOVersion = prior[i].StreamKeyWOVersion
		}
		items = append(items, item)
	}
	var d diag.Diagnostics
	m.Restreams, d = types.ListValueFrom(ctx, restreamResourceObjectType, items)
	diags.Append(d...)
	return m, diags
}
