package provider

import (
	"context"
	"iter"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// listResource is a list resource: terraform query (Terraform 1.14 and later) finds the objects
// of one kind with it, and -generate-config-out writes the resource and import blocks that
// adopt them. Each New<Thing>ListResource below makes one with a listing of what sets it apart;
// NewWebhookListResource is the model. T is the client's type of the objects, C the model of
// the list block's configuration and F the client's filter. A new one needs: a client method
// that returns the walk as an iter.Seq2 (Paginate, never a collected slice); its registration
// in ListResources; an identity on the managed resource (resource_identity.go); and its page in
// templates/list-resources/ with its example in examples/list-resources/ (static_docs_test.go
// checks them).
type listResource[T, C, F any] struct {
	resourceBase
	listing[T, C, F]
}

var _ list.ListResourceWithConfigure = (*listResource[videohost.Webhook, webhookListModel, string])(nil)

// listing is what sets one list resource apart.
type listing[T, C, F any] struct {
	// description is the list resource's, and filters the attributes of its list block: the
	// service's list filters.
	description string
	filters     map[string]listschema.Attribute
	// filter is the client's filter of the list block's.
	filter func(C) F
	// walk reads the objects page by page.
	walk func(*videohost.Client, context.Context, F) iter.Seq2[T, error]
	// what names the objects in logs, such as "webhooks".
	what string
	// id is the object's id: its identity, and the id attribute of its resource.
	id func(T) string
	// identity, when set, is the object's identity instead of its id, for a resource identified
	// by more than one attribute (a caption: its video and its language).
	identity func(T) any
	// displayName is the line terraform query prints for the object: words a person
	// recognises it by, not only its id.
	displayName func(T) string
	// model is the resource's state of the object, as the listed object gives it; it is called
	// only when the list block sets include_resource, and must not call the service.
	model func(context.Context, T) (any, diag.Diagnostics)
	// errorSummary titles the diagnostic of a walk that fails, such as "Unable to List Webhooks".
	errorSummary string
	// attrs maps the parameters of the list call to the attributes of the list block.
	attrs map[string]path.Path
}

// newListResource returns the list resource typeName ("_webhook") that l describes.
func newListResource[T, C, F any](typeName string, l listing[T, C, F]) list.ListResource {
	return &listResource[T, C, F]{resourceBase: resourceBase{typeName: typeName}, listing: l}
}

func (r *listResource[T, C, F]) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{MarkdownDescription: r.description, Attributes: r.filters}
}

// List streams the objects that the list block's filters select.
func (r *listResource[T, C, F]) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var diags diag.Diagnostics
	cfg, ok := configuredModel[C](ctx, r.pd, req.Config, &diags)
	if !ok {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = r.results(ctx, req, r.pd, r.walk(r.pd.client, ctx, r.filter(cfg)))
}

// results streams the objects of walk as list results while the walk reads them: a page is
// read only when the results of the one before it have been pushed, so memory holds one page
// whatever the number of objects, and once the request's limit is reached no further page is
// read. A walk that fails ends the stream with one error result after the results pushed so
// far.
func (l listing[T, C, F]) results(ctx context.Context, req list.ListRequest, pd *providerData, walk iter.Seq2[T, error]) iter.Seq[list.ListResult] {
	return func(push func(list.ListResult) bool) {
		var pushed int64
		defer func() {
			tflog.Debug(ctx, "listed "+l.what, map[string]any{"results": pushed, "limit": req.Limit, "include_resource": req.IncludeResource})
		}()
		for obj, err := range walk {
			if err != nil {
				var diags diag.Diagnostics
				addAPIErrorDiagnostics(&diags, l.errorSummary, err, pd, l.attrs)
				push(list.ListResult{Diagnostics: diags})
				return
			}
			if !push(l.result(ctx, req, obj)) {
				return
			}
			pushed++
			// Terraform always sends the list block's limit (100 when the block sets none); a
			// zero limit, from a client of the protocol that sets none, does not bound the walk.
			if req.Limit > 0 && pushed >= req.Limit {
				return
			}
		}
	}
}

// result is the list result of one object.
func (l listing[T, C, F]) result(ctx context.Context, req list.ListRequest, obj T) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = l.displayName(obj)
	if l.identity != nil {
		r.Diagnostics.Append(r.Identity.Set(ctx, l.identity(obj))...)
	} else {
		r.Diagnostics.Append(setIDIdentity(ctx, r.Identity, types.StringValue(l.id(obj)))...)
	}
	if req.IncludeResource {
		m, diags := l.model(ctx, obj)
		r.Diagnostics.Append(diags...)
		if !diags.HasError() {
			r.Diagnostics.Append(r.Resource.Set(ctx, m)...)
		}
	}
	return r
}

type webhookListModel struct {
	Event types.String `tfsdk:"event"`
}

// NewWebhookListResource returns the videohost_webhook list resource. The list items carry
// every attribute of the resource, signature_secret included, so include_resource costs no
// request per webhook.
func NewWebhookListResource() list.ListResource {
	return newListResource("_webhook", listing[videohost.Webhook, webhookListModel, string]{
		description: "Lists the webhooks of the workspace for `terraform query`, optionally only those " +
			"subscribed to one event. Each result is a webhook's identity (`id`) and a display name of its url and " +
			"events; with `include_resource = true`, also every attribute of the resource, `signature_secret` " +
			"included. Terraform 1.14 and later.",
		filters: map[string]listschema.Attribute{
			"event": listschema.StringAttribute{
				MarkdownDescription: eventFilterDescription, Optional: true,
				Validators: []validator.String{eventNameValidator()},
			},
		},
		filter:      func(m webhookListModel) string { return m.Event.ValueString() },
		walk:        (*videohost.Client).WalkWebhooks,
		what:        "webhooks",
		id:          func(w videohost.Webhook) string { return w.ID },
		displayName: webhookDisplayName,
		model: func(ctx context.Context, w videohost.Webhook) (any, diag.Diagnostics) {
			return webhookModelFrom(ctx, w, types.StringNull())
		},
		errorSummary: "Unable to List Webhooks",
		attrs:        map[string]path.Path{"events": path.Root("event")},
	})
}

// webhookDisplayName is the url of a webhook and its events, the two things its owner knows
// it by.
func webhookDisplayName(w videohost.Webhook) string {
	return w.URL + " (" + strings.Join(w.Events, ", ") + ")"
}

type liveStreamListModel struct {
	Name types.String `tfsdk:"name"`
}

// NewLiveStreamListResource returns the videohost_live_stream list resource. The list items
// carry every attribute of the resource, so include_resource costs no request per live stream;
// restream keys come as the state keeps them (stream_key), since a list knows nothing of a
// configuration's write-only keys.
func NewLiveStreamListResource() list.ListResource {
	return newListResource("_live_stream", listing[videohost.LiveStream, liveStreamListModel, videohost.LiveStreamFilter]{
		description: "Lists the live streams of the workspace for `terraform query`, optionally only those " +
			"whose name contains a text. Each result is a live stream's identity (`id`) and its name; with " +
			"`include_resource = true`, also every attribute of the resource, the stream keys included. " +
			"Terraform 1.14 and later.",
		filters: map[string]listschema.Attribute{
			"name": listschema.StringAttribute{
				MarkdownDescription: "Only the live streams whose name contains this text (case-sensitive, matched by " +
					"the service). Unset lists every live stream.",
				Optional:   true,
				Validators: []validator.String{notBlank()},
			},
		},
		filter: func(m liveStreamListModel) videohost.LiveStreamFilter {
			return videohost.LiveStreamFilter{Name: m.Name.ValueString()}
		},
		walk:        (*videohost.Client).WalkLiveStreams,
		what:        "live streams",
		id:          func(l videohost.LiveStream) string { return l.ID },
		displayName: func(l videohost.LiveStream) string { return l.Name },
		model: func(ctx context.Context, l videohost.LiveStream) (any, diag.Diagnostics) {
			return liveStreamResourceModelFrom(ctx, l, nil, false)
		},
		errorSummary: "Unable to List Live Streams",
		attrs:        map[string]path.Path{"name": path.Root("name")},
	})
}

// NewPlayerThemeListResource returns the videohost_player_theme list resource. The list items
// carry every attribute of the resource.
func NewPlayerThemeListResource() list.ListResource {
	return newListResource("_player_theme", listing[videohost.PlayerTheme, struct{}, videohost.PlayerThemeFilter]{
		description: "Lists every player theme of the workspace for `terraform query` (the service has no " +
			"filter on themes). Each result is a theme's identity (`id`) and its name; with `include_resource = " +
			"true`, also every attribute of the resource. Terraform 1.14 and later.",
		filters:     map[string]listschema.Attribute{},
		filter:      func(struct{}) videohost.PlayerThemeFilter { return videohost.PlayerThemeFilter{} },
		walk:        (*videohost.Client).WalkPlayerThemes,
		what:        "player themes",
		id:          func(p videohost.PlayerTheme) string { return p.ID },
		displayName: playerThemeDisplayName,
		model: func(_ context.Context, p videohost.PlayerTheme) (any, diag.Diagnostics) {
			return playerThemeResourceModelFrom(p, nil), nil
		},
		errorSummary: "Unable to List Player Themes",
	})
}

// playerThemeDisplayName is a theme's name, or its id for a theme without one.
func playerThemeDisplayName(p videohost.PlayerTheme) string {
	if p.Name == "" {
		return p.ID + " (no name)"
	}
	return p.Name
}

// NewUploadTokenListResource returns the videohost_upload_token list resource. A result's
// identity and display name hold the token's fingerprint, never the token; the token is only in
// the resource that include_resource adds, where it is sensitive.
func NewUploadTokenListResource() list.ListResource {
	return newListResource("_upload_token", listing[videohost.UploadToken, struct{}, videohost.UploadTokenFilter]{
		description: "Lists every delegated upload token of the workspace for `terraform query`. Each result is a " +
			"token's identity (its fingerprint `id`, not the token) and a display name of its fingerprint and " +
			"expiry; with `include_resource = true`, also every attribute of the resource, the token included " +
			"(sensitive). Terraform 1.14 and later.",
		filters:     map[string]listschema.Attribute{},
		filter:      func(struct{}) videohost.UploadTokenFilter { return videohost.UploadTokenFilter{} },
		walk:        (*videohost.Client).WalkUploadTokens,
		what:        "upload tokens",
		id:          func(t videohost.UploadToken) string { return uploadTokenFingerprint(t.Token) },
		displayName: uploadTokenDisplayName,
		model: func(_ context.Context, t videohost.UploadToken) (any, diag.Diagnostics) {
			return uploadTokenModelFrom(t), nil
		},
		errorSummary: "Unable to List Upload Tokens",
	})
}

// uploadTokenDisplayName is a token's fingerprint and when it expires: never its secret.
func uploadTokenDisplayName(t videohost.UploadToken) string {
	if t.ExpiresAt == nil {
		return uploadTokenFingerprint(t.Token) + " (never expires)"
	}
	return uploadTokenFingerprint(t.Token) + " (expires " + timeString(t.ExpiresAt).ValueString() + ")"
}

// NewWatermarkListResource returns the videohost_watermark list resource. The service keeps
// nothing of a watermark's image, so a result's resource has a null source_file: a
// configuration generated from it must set the file.
func NewWatermarkListResource() list.ListResource {
	return newListResource("_watermark", listing[videohost.Watermark, struct{}, videohost.WatermarkFilter]{
		description: "Lists every watermark of the workspace for `terraform query` (the service has no filter on " +
			"watermarks). Each result is a watermark's identity (`id`) and a display name of its id and creation " +
			"time; with `include_resource = true`, also the resource's attributes that the service keeps (`id`, " +
			"`created_at`): `source_file` is not known to the service. Terraform 1.14 and later.",
		filters: map[string]listschema.Attribute{},
		filter:  func(struct{}) videohost.WatermarkFilter { return videohost.WatermarkFilter{} },
		walk:    (*videohost.Client).WalkWatermarks,
		what:    "watermarks",
		id:      func(w videohost.Watermark) string { return w.ID },
		displayName: func(w videohost.Watermark) string {
			return w.ID + " (uploaded " + timeString(w.CreatedAt).ValueString() + ")"
		},
		model: func(_ context.Context, w videohost.Watermark) (any, diag.Diagnostics) {
			return watermarkModelFrom(w, nil), nil
		},
		errorSummary: "Unable to List Watermarks",
	})
}

type videoListModel struct {
	Title types.String `tfsdk:"title"`
	Tags  types.List   `tfsdk:"tags"`
}

// NewVideoListResource returns the videohost_video list resource. The list items carry what the
// service shows of a video; what only a configuration gives (the source, clip, watermark) is
// null, as after an import.
func NewVideoListResource() list.ListResource {
	return newListResource("_video", listing[videohost.Video, videoListModel, videohost.VideoFilter]{
		description: "Lists the videos of the workspace for `terraform query`, optionally only those whose title " +
			"contains a text or that carry every tag given. Each result is a video's identity (`id`) and its title; " +
			"with `include_resource = true`, also what the service shows of it (the source, clip and watermark " +
			"are null: add the source to the generated configuration). Terraform 1.14 and later.",
		filters: map[string]listschema.Attribute{
			"title": listschema.StringAttribute{
				MarkdownDescription: "Only the videos whose title contains this text (case-insensitive, matched by the " +
					"service). Unset lists every video.",
				Optional:   true,
				Validators: []validator.String{notBlank()},
			},
			"tags": listschema.ListAttribute{
				MarkdownDescription: "Only the videos that carry every one of these tags. Unset: no tag filter.",
				ElementType:         types.StringType,
				Optional:            true,
			},
		},
		filter: func(m videoListModel) videohost.VideoFilter {
			f := videohost.VideoFilter{Title: m.Title.ValueString()}
			for _, t := range m.Tags.Elements() {
				if s, ok := t.(types.String); ok {
					f.Tags = append(f.Tags, s.ValueString())
				}
			}
			return f
		},
		walk:         (*videohost.Client).WalkVideos,
		what:         "videos",
		id:           func(v videohost.Video) string { return v.ID },
		displayName:  func(v videohost.Video) string { return v.Title },
		model:        videoModelForList,
		errorSummary: "Unable to List Videos",
		attrs:        map[string]path.Path{"title": path.Root("title"), "tags": path.Root("tags"), "tags[]": path.Root("tags")},
	})
}
