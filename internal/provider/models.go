package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// webhookModel is a webhook in the state: of the webhook resource, and of the webhook and
// webhooks data sources.
type webhookModel struct {
	ID              types.String `tfsdk:"id"`
	URL             types.String `tfsdk:"url"`
	Events          types.Set    `tfsdk:"events"`
	CreatedAt       types.String `tfsdk:"created_at"`
	SignatureSecret types.String `tfsdk:"signature_secret"`
}

// webhookModelFrom maps a webhook of the service to the state. priorSecret is kept when the
// service's answer carries no secret.
func webhookModelFrom(ctx context.Context, w videohost.Webhook, priorSecret types.String) (webhookModel, diag.Diagnostics) {
	evs, diags := types.SetValueFrom(ctx, types.StringType, w.Events)
	m := webhookModel{
		ID:              types.StringValue(w.ID),
		URL:             types.StringValue(w.URL),
		Events:          evs,
		CreatedAt:       timeString(&w.CreatedAt),
		SignatureSecret: priorSecret,
	}
	if w.SignatureSecret != "" {
		m.SignatureSecret = types.StringValue(w.SignatureSecret)
	}
	return m, diags
}

// webhookDataAttributes are the computed attributes of a webhook, shared by the webhook and
// webhooks data sources.
func webhookDataAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":  computedString("Identifier of the webhook (the service's `webhookId`)."),
		"url": computedString("Address that receives the notifications."),
		"events": schema.SetAttribute{
			MarkdownDescription: "Event names the webhook subscribes to.",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"created_at":       computedString("Creation time of the webhook, RFC 3339."),
		"signature_secret": computedSecret("Secret that signs the notifications (HMAC-SHA256 of the body, lowercase hex). Sensitive."),
	}
}

// webhookObjectType is the type of the elements of webhooks, from the schema (see
// list_values.go).
var webhookObjectType = objectTypeOf(webhookDataAttributes())

// object is the webhook as an element of the webhooks list.
func (m webhookModel) object() (types.Object, diag.Diagnostics) {
	return types.ObjectValue(webhookObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "url": m.URL, "events": m.Events, "created_at": m.CreatedAt, "signature_secret": m.SignatureSecret,
	})
}

// videoModel is a video in the state, shared by the video and videos data sources.
type videoModel struct {
	ID          types.String      `tfsdk:"id"`
	Title       types.String      `tfsdk:"title"`
	Description types.String      `tfsdk:"description"`
	Language    types.String      `tfsdk:"language"`
	PlayerID    types.String      `tfsdk:"player_id"`
	CreatedAt   types.String      `tfsdk:"created_at"`
	PublishedAt types.String      `tfsdk:"published_at"`
	UpdatedAt   types.String      `tfsdk:"updated_at"`
	Discarded   types.Bool        `tfsdk:"discarded"`
	Public      types.Bool        `tfsdk:"public"`
	Panoramic   types.Bool        `tfsdk:"panoramic"`
	MP4Support  types.Bool        `tfsdk:"mp4_support"`
	Tags        []string          `tfsdk:"tags"`
	Metadata    map[string]string `tfsdk:"metadata"`
	Source      *videoSourceModel `tfsdk:"source"`
	Assets      *videoAssetsModel `tfsdk:"assets"`
}

type videoSourceModel struct {
	URI          types.String `tfsdk:"uri"`
	Type         types.String `tfsdk:"type"`
	LiveStreamID types.String `tfsdk:"live_stream_id"`
}

type videoAssetsModel struct {
	HLS       types.String `tfsdk:"hls"`
	IFrame    types.String `tfsdk:"iframe"`
	Player    types.String `tfsdk:"player"`
	Thumbnail types.String `tfsdk:"thumbnail"`
	MP4       types.String `tfsdk:"mp4"`
}

// videoDataAttributes are the computed attributes of a video.
func videoDataAttributes() map[string]schema.Attribute {
	str, boolean := computedString, computedBool
	return map[string]schema.Attribute{
		"id":           str("Identifier of the video (the service's `videoId`)."),
		"title":        str("Title of the video."),
		"description":  str("Description of the video."),
		"language":     str("Language of the video (IETF language tag)."),
		"player_id":    str("Identifier of the player the video uses."),
		"created_at":   str("Creation time, RFC 3339; null when the service gives none."),
		"published_at": str("Publication time, RFC 3339; null when the service gives none."),
		"updated_at":   str("Time of the last change, RFC 3339; null when the service gives none."),
		"discarded":    boolean("Whether the video was discarded."),
		"public":       boolean("Whether the video is public."),
		"panoramic":    boolean("Whether the video is a 360° video."),
		"mp4_support":  boolean("Whether an mp4 of the video can be downloaded."),
		"tags": schema.ListAttribute{
			MarkdownDescription: "Tags of the video; empty when it has none.",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"metadata": schema.MapAttribute{
			MarkdownDescription: "Metadata of the video, key to value; empty when it has none.",
			Computed:            true,
			ElementType:         types.StringType,
		},
		"source": computedObject("Where the video came from; null when the service gives no source.", map[string]schema.Attribute{
			"uri":            str("Address of the source."),
			"type":           str("Kind of source, such as upload or a recorded live stream."),
			"live_stream_id": str("Identifier of the live stream the video was recorded from, when it was."),
		}),
		"assets": computedObject("Addresses of the video's outputs; null when the service gives none.",
			playerAssetsAttributes(map[string]schema.Attribute{"mp4": str("mp4 download.")})),
	}
}

// videoModelFrom maps a video of the service to the state.
func videoModelFrom(v videohost.Video) videoModel {
	m := videoModel{
		ID:          types.StringValue(v.ID),
		Title:       types.StringValue(v.Title),
		Description: types.StringValue(v.Description),
		Language:    types.StringValue(v.Language),
		PlayerID:    types.StringValue(v.PlayerID),
		CreatedAt:   timeString(v.CreatedAt),
		PublishedAt: timeString(v.PublishedAt),
		UpdatedAt:   timeString(v.UpdatedAt),
		Discarded:   types.BoolValue(v.Discarded),
		Public:      types.BoolValue(v.Public),
		Panoramic:   types.BoolValue(v.Panoramic),
		MP4Support:  types.BoolValue(v.MP4Support),
		Tags:        append([]string{}, v.Tags...),
		Metadata:    make(map[string]string, len(v.Metadata)),
	}
	for _, kv := range v.Metadata {
		m.Metadata[kv.Key] = kv.Value
	}
	if s := v.Source; s != nil {
		m.Source = &videoSourceModel{
			URI:          types.StringValue(s.URI),
			Type:         types.StringValue(s.Type),
			LiveStreamID: types.StringNull(),
		}
		if s.LiveStream != nil && s.LiveStream.LiveStreamID != "" {
			m.Source.LiveStreamID = types.StringValue(s.LiveStream.LiveStreamID)
		}
	}
	if a := v.Assets; a != nil {
		m.Assets = &videoAssetsModel{
			HLS:       types.StringValue(a.HLS),
			IFrame:    types.StringValue(a.IFrame),
			Player:    types.StringValue(a.Player),
			Thumbnail: types.StringValue(a.Thumbnail),
			MP4:       types.StringValue(a.MP4),
		}
	}
	return m
}

// The types of the elements of videos, from the schema (see list_values.go).
var (
	videoObjectType      = objectTypeOf(videoDataAttributes())
	videoSourceAttrTypes = attrTypesOf(videoObjectType.AttrTypes["source"])
	videoAssetsAttrTypes = attrTypesOf(videoObjectType.AttrTypes["assets"])
)

// object is the video as an element of the videos list.
func (m videoModel) object() (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	tags, d := stringList(m.Tags)
	diags.Append(d...)
	metadata := make(map[string]attr.Value, len(m.Metadata))
	for k, v := range m.Metadata {
		metadata[k] = types.StringValue(v)
	}
	metadataMap, d := types.MapValue(types.StringType, metadata)
	diags.Append(d...)

	source := types.ObjectNull(videoSourceAttrTypes)
	if s := m.Source; s != nil {
		source, d = types.ObjectValue(videoSourceAttrTypes, map[string]attr.Value{
			"uri": s.URI, "type": s.Type, "live_stream_id": s.LiveStreamID,
		})
		diags.Append(d...)
	}
	assets := types.ObjectNull(videoAssetsAttrTypes)
	if a := m.Assets; a != nil {
		assets, d = types.ObjectValue(videoAssetsAttrTypes, map[string]attr.Value{
			"hls": a.HLS, "iframe": a.IFrame, "player": a.Player, "thumbnail": a.Thumbnail, "mp4": a.MP4,
		})
		diags.Append(d...)
	}
	o, d := types.ObjectValue(videoObjectType.AttrTypes, map[string]attr.Value{
		"id": m.ID, "title": m.Title, "description": m.Description, "language": m.Language,
		"player_id": m.PlayerID, "created_at": m.CreatedAt, "published_at": m.PublishedAt,
		"updated_at": m.UpdatedAt, "discarded": m.Discarded, "public": m.Public,
		"panoramic": m.Panoramic, "mp4_support": m.MP4Support, "tags": tags,
		"metadata": metadataMap, "source": source, "assets": assets,
	})
	diags.Append(d...)
	return o, diags
}

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
