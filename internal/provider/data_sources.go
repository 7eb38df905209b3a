package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// objectDataSource is a data source that reads one object of the service by its id. Each
// New<Thing>DataSource below makes one with an objectRead of what sets it apart; the schema,
// the Read and its diagnostics are the same for all of them.
type objectDataSource[T any] struct {
	dataSourceBase
	objectRead[T]
}

var _ datasource.DataSourceWithConfigure = (*objectDataSource[videohost.Video])(nil)

// objectRead is what sets one object data source apart.
type objectRead[T any] struct {
	// description is the data source's: "Reads one video of the workspace by its id."
	description string
	// attributes are the object's computed attributes (<thing>DataAttributes); the data
	// source makes their id required.
	attributes func() map[string]schema.Attribute
	// idDescription describes the id to read; idWhat and listedBy are serviceIDValidators'.
	idDescription, idWhat, listedBy string
	// idParam is the service's name of the id, as a not-found names it: "videoId".
	idParam string
	// title names the object in the summary of a failed read: "Video".
	title string
	// get reads the object by its id.
	get func(*videohost.Client, context.Context, string) (T, error)
	// state is the data source's state of the object (<thing>ModelFrom).
	state func(context.Context, T) (any, diag.Diagnostics)
}

// newObjectDataSource returns the data source typeName ("_video") that o describes.
func newObjectDataSource[T any](typeName string, o objectRead[T]) datasource.DataSource {
	return &objectDataSource[T]{dataSourceBase: dataSourceBase{typeName: typeName}, objectRead: o}
}

func (d *objectDataSource[T]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := d.attributes()
	attrs["id"] = schema.StringAttribute{
		MarkdownDescription: d.idDescription,
		Required:            true,
		Validators:          serviceIDValidators(d.idWhat, d.listedBy),
	}
	resp.Schema = schema.Schema{MarkdownDescription: d.description, Attributes: attrs}
}

// Read reads the object whose id the configuration gives; a not-found is an error on id.
func (d *objectDataSource[T]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	id, ok := configuredID(ctx, d.pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	obj, err := d.get(d.pd.client, ctx, id)
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read "+d.title, err, d.pd,
			map[string]path.Path{d.idParam: path.Root("id")})
		return
	}
	state, diags := d.state(ctx, obj)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// listDataSource is a data source that lists the objects of one kind, every page, that match
// the service's filters: its configuration is the filters and its one computed attribute the
// list. Each New<Things>DataSource below makes one with a listRead of what sets it apart: T is
// the client's type of the objects, M the data source's model (the filters and the list) and F
// the client's filter.
type listDataSource[T, M, F any] struct {
	dataSourceBase
	listRead[T, M, F]
	// elem is the type of one item, from itemAttributes.
	elem types.ObjectType
}

var _ datasource.DataSourceWithConfigure = (*listDataSource[videohost.Video, videosModel, videohost.VideoFilter])(nil)

// listRead is what sets one list data source apart.
type listRead[T, M, F any] struct {
	// description is the data source's: "Lists the videos of the workspace that match ...".
	description string
	// filters are the optional attributes that become the list call's parameters.
	filters map[string]schema.Attribute
	// items names the list attribute ("videos") and describes it; itemAttributes are the
	// attributes of one item (<thing>DataAttributes).
	items, itemsDescription string
	itemAttributes          func() map[string]schema.Attribute
	// title names the objects in the summary of a failed list: "Videos".
	title string
	// filterPaths maps the list call's parameters, as a 400 names them, to the filters.
	filterPaths map[string]path.Path
	// filter is the client's filter of the configuration's.
	filter func(context.Context, M) (F, diag.Diagnostics)
	// list reads every page of the objects that the filter selects.
	list func(*videohost.Client, context.Context, F) ([]T, error)
	// object is one item of the list (the model's object(); list_values.go says why).
	object func(context.Context, T) (types.Object, diag.Diagnostics)
}

// newListDataSource returns the data source typeName ("_videos") that l describes.
func newListDataSource[T, M, F any](typeName string, l listRead[T, M, F]) datasource.DataSource {
	return &listDataSource[T, M, F]{
		dataSourceBase: dataSourceBase{typeName: typeName}, listRead: l, elem: objectTypeOf(l.itemAttributes()),
	}
}

func (d *listDataSource[T, M, F]) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := make(map[string]schema.Attribute, len(d.filters)+1)
	for name, a := range d.filters {
		attrs[name] = a
	}
	attrs[d.items] = schema.ListNestedAttribute{
		MarkdownDescription: d.itemsDescription,
		Computed:            true,
		NestedObject:        schema.NestedAttributeObject{Attributes: d.itemAttributes()},
	}
	resp.Schema = schema.Schema{MarkdownDescription: d.description, Attributes: attrs}
}

// Read lists the objects that the configuration's filters select; a filter the service
// refuses is an error on that filter.
func (d *listDataSource[T, M, F]) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	cfg, ok := configuredModel[M](ctx, d.pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	f, diags := d.filter(ctx, cfg)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	found, err := d.list(d.pd.client, ctx, f)
	if err != nil {
		addAPIErrorDiagnostics(&resp.Diagnostics, "Unable to List "+d.title, err, d.pd, d.filterPaths)
		return
	}
	items, diags := listValue(d.elem, found, func(obj T) (types.Object, diag.Diagnostics) { return d.object(ctx, obj) })
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The configuration, its list still null, then the list.
	resp.Diagnostics.Append(resp.State.Set(ctx, &cfg)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(d.items), items)...)
}

// NewVideoDataSource returns the videohost_video data source: one video, read by id.
func NewVideoDataSource() datasource.DataSource {
	return newObjectDataSource("_video", objectRead[videoWithStatus]{
		description: "Reads one video of the workspace by its id, with its status: whether it can be played, " +
			"the state of each encoded quality, and the size of its source.",
		attributes:    videoWithStatusDataAttributes,
		idDescription: "Identifier of the video to read (the service's `videoId`).",
		idWhat:        "a video (its videoId)", listedBy: "videohost_videos",
		idParam: "videoId", title: "Video",
		get:   getVideoWithStatus,
		state: videoWithStatusModelFrom,
	})
}

type videosModel struct {
	Title        types.String `tfsdk:"title"`
	Tags         types.List   `tfsdk:"tags"`
	Metadata     types.Map    `tfsdk:"metadata"`
	Description  types.String `tfsdk:"description"`
	LiveStreamID types.String `tfsdk:"live_stream_id"`
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	Videos       types.List   `tfsdk:"videos"`
}

// NewVideosDataSource returns the videohost_videos data source: the videos that match
// server-side filters.
func NewVideosDataSource() datasource.DataSource {
	return newListDataSource("_videos", listRead[videohost.Video, videosModel, videohost.VideoFilter]{
		description: "Lists the videos of the workspace that match the filters (every page); the service filters them.",
		filters: withSortFilters(map[string]schema.Attribute{
			"title": textFilter("Only the videos whose title contains this text. Unset: no filter; must not be empty."),
			"tags": schema.ListAttribute{
				MarkdownDescription: "Only the videos that carry all of these tags. Unset: no filter.",
				Optional:            true,
				ElementType:         types.StringType,
			},
			"metadata": schema.MapAttribute{
				MarkdownDescription: "Only the videos whose metadata hold all of these key/value pairs. Unset: no filter.",
				Optional:            true,
				ElementType:         types.StringType,
			},
			"description":    textFilter("Only the videos whose description contains this text. Unset: no filter; must not be empty."),
			"live_stream_id": textFilter("Only the videos recorded from this live stream. Unset: no filter; must not be empty."),
		}, "title", "createdAt", "publishedAt", "updatedAt"),
		items: "videos", itemsDescription: "The matching videos.",
		itemAttributes: videoDataAttributes,
		title:          "Videos", filterPaths: videoFilterPaths,
		filter: videoFilterFrom,
		list:   (*videohost.Client).ListVideos,
		object: func(_ context.Context, v videohost.Video) (types.Object, diag.Diagnostics) {
			return videoModelFrom(v).object()
		},
	})
}

// videoFilterPaths maps the query parameters of GET /videos to the filter attributes.
var videoFilterPaths = withSortFilterPaths(map[string]path.Path{
	"title":        path.Root("title"),
	"tags":         path.Root("tags"),
	"tags[]":       path.Root("tags"),
	"metadata":     path.Root("metadata"),
	"description":  path.Root("description"),
	"liveStreamId": path.Root("live_stream_id"),
})

// videoFilterFrom is the client's filter of the configuration's.
func videoFilterFrom(ctx context.Context, m videosModel) (videohost.VideoFilter, diag.Diagnostics) {
	f := videohost.VideoFilter{
		Title:        m.Title.ValueString(),
		Description:  m.Description.ValueString(),
		LiveStreamID: m.LiveStreamID.ValueString(),
		SortBy:       m.SortBy.ValueString(),
		SortOrder:    m.SortOrder.ValueString(),
	}
	var diags diag.Diagnostics
	if !m.Tags.IsNull() {
		diags.Append(m.Tags.ElementsAs(ctx, &f.Tags, false)...)
	}
	if !m.Metadata.IsNull() {
		diags.Append(m.Metadata.ElementsAs(ctx, &f.Metadata, false)...)
	}
	return f, diags
}

// NewWebhookDataSource returns the videohost_webhook data source: one webhook, read by id.
func NewWebhookDataSource() datasource.DataSource {
	return newObjectDataSource("_webhook", objectRead[videohost.Webhook]{
		description:   "Reads one webhook of the workspace by its id, including its signature secret.",
		attributes:    webhookDataAttributes,
		idDescription: "Identifier of the webhook to read (the service's `webhookId`).",
		idWhat:        "a webhook (its webhookId)", listedBy: "videohost_webhooks",
		idParam: "webhookId", title: "Webhook",
		get: (*videohost.Client).LookupWebhook,
		state: func(ctx context.Context, w videohost.Webhook) (any, diag.Diagnostics) {
			return webhookModelFrom(ctx, w, types.StringNull())
		},
	})
}

type webhooksModel struct {
	Event    types.String `tfsdk:"event"`
	Webhooks types.List   `tfsdk:"webhooks"`
}

// NewWebhooksDataSource returns the videohost_webhooks data source: every webhook of the
// workspace, optionally those subscribed to one event.
func NewWebhooksDataSource() datasource.DataSource {
	return newListDataSource("_webhooks", listRead[videohost.Webhook, webhooksModel, string]{
		description: "Lists the webhooks of the workspace (every page), optionally only those subscribed to one event.",
		filters: map[string]schema.Attribute{
			"event": schema.StringAttribute{
				MarkdownDescription: eventFilterDescription, Optional: true,
				Validators: []validator.String{eventNameValidator()},
			},
		},
		items: "webhooks", itemsDescription: "The webhooks, in the service's order.",
		itemAttributes: webhookDataAttributes,
		title:          "Webhooks",
		filterPaths:    map[string]path.Path{"events": path.Root("event")},
		filter: func(_ context.Context, m webhooksModel) (string, diag.Diagnostics) {
			return m.Event.ValueString(), nil
		},
		list: (*videohost.Client).ListWebhooks,
		object: func(ctx context.Context, w videohost.Webhook) (types.Object, diag.Diagnostics) {
			m, diags := webhookModelFrom(ctx, w, types.StringNull())
			if diags.HasError() {
				return types.ObjectNull(webhookObjectType.AttrTypes), diags
			}
			return m.object()
		},
	})
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
		itemAttributes: liveStreamDataAttributes,
		title:          "Live Streams",
		filterPaths:    withSortFilterPaths(map[string]path.Path{"name": path.Root("name")}),
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

// NewPlayerThemeDataSource returns the videohost_player_theme data source: one player theme,
// read by id.
func NewPlayerThemeDataSource() datasource.DataSource {
	return newObjectDataSource("_player_theme", objectRead[videohost.PlayerTheme]{
		description: "Reads one player theme by its id: its colours and switches, with the service's " +
			"defaults filled in.",
		attributes:    playerThemeDataAttributes,
		idDescription: "The id (`playerId`) of the player theme to read. An id that does not exist is an error.",
		idWhat:        "a player theme (its playerId)", listedBy: "videohost_player_themes",
		idParam: "playerId", title: "Player Theme",
		get: (*videohost.Client).GetPlayerTheme,
		state: func(_ context.Context, p videohost.PlayerTheme) (any, diag.Diagnostics) {
			return playerThemeModelFrom(p), nil
		},
	})
}

// playerThemesModel is the configuration and result of videohost_player_themes.
type playerThemesModel struct {
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	PlayerThemes types.List   `tfsdk:"player_themes"`
}

// NewPlayerThemesDataSource returns the videohost_player_themes data source: every player
// theme, every page.
func NewPlayerThemesDataSource() datasource.DataSource {
	return newListDataSource("_player_themes", listRead[videohost.PlayerTheme, playerThemesModel, videohost.PlayerThemeFilter]{
		description: "Lists every player theme of the workspace (every page). The service has no filter on themes; " +
			"it sorts them.",
		filters: withSortFilters(map[string]schema.Attribute{}, "name", "createdAt", "updatedAt"),
		items:   "player_themes", itemsDescription: "The player themes, in the service's order; empty when there are none.",
		itemAttributes: playerThemeDataAttributes,
		title:          "Player Themes", filterPaths: withSortFilterPaths(map[string]path.Path{}),
		filter: func(_ context.Context, m playerThemesModel) (videohost.PlayerThemeFilter, diag.Diagnostics) {
			return videohost.PlayerThemeFilter{SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString()}, nil
		},
		list: (*videohost.Client).ListPlayerThemes,
		object: func(_ context.Context, p videohost.PlayerTheme) (types.Object, diag.Diagnostics) {
			return playerThemeModelFrom(p).object()
		},
	})
}

// uploadTokensModel is the configuration and result of videohost_upload_tokens.
type uploadTokensModel struct {
	SortBy       types.String `tfsdk:"sort_by"`
	SortOrder    types.String `tfsdk:"sort_order"`
	UploadTokens types.List   `tfsdk:"upload_tokens"`
}

// NewUploadTokensDataSource returns the videohost_upload_tokens data source: every upload
// token of the workspace, every page, the tokens sensitive.
func NewUploadTokensDataSource() datasource.DataSource {
	return newListDataSource("_upload_tokens", listRead[videohost.UploadToken, uploadTokensModel, videohost.UploadTokenFilter]{
		description: "Lists every delegated upload token of the workspace (every page), with its fingerprint (the id " +
			"that the `videohost_upload_token` resource imports by) and the token itself, which is sensitive.",
		filters: withSortFilters(map[string]schema.Attribute{}, "createdAt", "ttl"),
		items:   "upload_tokens", itemsDescription: "The upload tokens, in the service's order; empty when there are none.",
		itemAttributes: uploadTokenDataAttributes,
		title:          "Upload Tokens", filterPaths: withSortFilterPaths(map[string]path.Path{}),
		filter: func(_ context.Context, m uploadTokensModel) (videohost.UploadTokenFilter, diag.Diagnostics) {
			return videohost.UploadTokenFilter{SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString()}, nil
		},
		list: (*videohost.Client).ListUploadTokens,
		object: func(_ context.Context, t videohost.UploadToken) (types.Object, diag.Diagnostics) {
			return uploadTokenModelFrom(t).object()
		},
	})
}

// watermarksModel is the configuration and result of videohost_watermarks.
type watermarksModel struct {
	SortBy     types.String `tfsdk:"sort_by"`
	SortOrder  types.String `tfsdk:"sort_order"`
	Watermarks types.List   `tfsdk:"watermarks"`
}

// NewWatermarksDataSource returns the videohost_watermarks data source: every watermark of the
// workspace, every page.
func NewWatermarksDataSource() datasource.DataSource {
	return newListDataSource("_watermarks", listRead[videohost.Watermark, watermarksModel, videohost.WatermarkFilter]{
		description: "Lists every watermark of the workspace (every page): its id and creation time, all the service " +
			"keeps of a watermark.",
		filters: withSortFilters(map[string]schema.Attribute{}, "createdAt"),
		items:   "watermarks", itemsDescription: "The watermarks, in the service's order; empty when there are none.",
		itemAttributes: watermarkDataAttributes,
		title:          "Watermarks", filterPaths: withSortFilterPaths(map[string]path.Path{}),
		filter: func(_ context.Context, m watermarksModel) (videohost.WatermarkFilter, diag.Diagnostics) {
			return videohost.WatermarkFilter{SortBy: m.SortBy.ValueString(), SortOrder: m.SortOrder.ValueString()}, nil
		},
		list: (*videohost.Client).ListWatermarks,
		object: func(_ context.Context, w videohost.Watermark) (types.Object, diag.Diagnostics) {
			return watermarkDataModelFrom(w).object()
		},
	})
}
