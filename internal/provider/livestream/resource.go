package livestream

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ framework.ManagedResource = (*liveStreamResource)(nil)

// liveStreamResource is videohost_live_stream. The service changes a live stream in place, so
// no change forces a replacement (a new live stream would have a new ingest key, which the
// studio's encoder would have to be given again), but one: removing player_id, which the
// service's API gives no way to clear.
type liveStreamResource struct {
	framework.DeletedByID
	framework.WithIDImport
}

// NewLiveStreamResource returns the videohost_live_stream resource.
func NewLiveStreamResource() resource.Resource {
	return &liveStreamResource{
		DeletedByID:  framework.NewDeletedByID(liveStreamWrites),
		WithIDImport: framework.NewIDImport(liveStreamWrites, "liveStreamId"),
	}
}

// maxRestreams is the most restreams the service takes on one live stream.
const maxRestreams = 5

// LiveStreamAttributePaths maps the members of the /live-streams endpoints, as a 400 names
// them (restreams[2][serverUrl] for a restream's field), to the attributes of the resource.
var LiveStreamAttributePaths = func() map[string]path.Path {
	m := map[string]path.Path{
		"name": path.Root("name"), "public": path.Root("public"), "playerId": path.Root("player_id"),
		"restreams": path.Root("restreams"), "liveStreamId": path.Root("id"),
	}
	// The service names restreams past the fifth too when it counts them: a longer list is
	// refused at plan time, but the names are mapped all the same.
	for i := range 2 * maxRestreams {
		for wire, attr := range map[string]string{"name": "name", "serverUrl": "server_url", "streamKey": "stream_key"} {
			m[fmt.Sprintf("restreams[%d][%s]", i, wire)] = path.Root("restreams").AtListIndex(i).AtName(attr)
		}
		m[fmt.Sprintf("restreams[%d]", i)] = path.Root("restreams").AtListIndex(i)
	}
	return m
}()

func (r *liveStreamResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A live stream: the ingest point a studio's encoder broadcasts to (address " +
			"`rtmp://broadcast.api.video/s` with `stream_key`), its player and the destinations it is restreamed to. " +
			"Every attribute is changed in place, so the stream key never changes. Whether it is broadcasting is " +
			"not an attribute (it changes with the encoder); the `videohost_live_stream` data source has it. " +
			"Import with the live stream's id.",
		Attributes: map[string]schema.Attribute{
			"id": framework.KeptString("Identifier of the live stream (the service's `liveStreamId`)."),
			"name": schema.StringAttribute{
				MarkdownDescription: "Name of the live stream. Required; must not be blank.",
				Required:            true,
				Validators:          []validator.String{framework.NotBlank()},
			},
			"public": schema.BoolAttribute{
				MarkdownDescription: "Whether anyone may watch; `false` makes every view need a private token. Default `true`.",
				Optional:            true,
				Computed:            true,
				Default:             booldefault.StaticBool(true),
			},
			"player_id": schema.StringAttribute{
				MarkdownDescription: "Id of the player theme the live stream's player wears (`videohost_player_theme.<name>.id`). " +
					"No default: the service's own player. Changing it changes the live stream in place, but the service " +
					"offers no way to detach a live stream's theme: removing it replaces the live stream (a new id, " +
					"stream key and addresses), with a warning in the plan.",
				Optional:   true,
				Validators: framework.ServiceIDValidators("a player theme (its playerId)", "videohost_player_themes"),
				PlanModifiers: []planmodifier.String{ReplaceWhenCleared("live stream",
					"the new live stream has a new id, stream key and addresses, so every encoder and embed must be given them")},
			},
			"restreams": restreamsAttribute(),
			"stream_key": framework.KeptSecret("The live stream's own ingest key, which the studio's encoder sends to. Sensitive: " +
				"anyone holding it can broadcast. It never changes."),
			"assets":     liveStreamAssetsAttribute(),
			"created_at": framework.KeptString("Creation time of the live stream, RFC 3339."),
			"updated_at": schema.StringAttribute{
				MarkdownDescription: "Time of the live stream's last change, RFC 3339; it moves on every update.",
				Computed:            true,
			},
		},
	}
	addLiveStreamThumbnailAttributes(resp.Schema.Attributes)
}

// restreamsAttribute is the list of restreams of the resource; each key is either kept in the
// state (stream_key) or write-only (stream_key_wo, with its version).
func restreamsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		MarkdownDescription: fmt.Sprintf("Destinations on other platforms the live stream is sent on to while it "+
			"broadcasts, at most %d, in order. Removing them all stops restreaming. Each restream's key is "+
			"either `stream_key` (kept in the state) or `stream_key_wo` (write-only, Terraform 1.11 and later: "+
			"never kept).", maxRestreams),
		// The count and the choice of key are checked by ValidateConfig (live_stream_plan.go),
		// so that one refusal does not hide the others.
		Optional: true,
		NestedObject: schema.NestedAttributeObject{
			Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{
					MarkdownDescription: "Name of the destination, such as `YouTube`. Required; must not be blank.",
					Required:            true,
					Validators:          []validator.String{framework.NotBlankOnItem()},
				},
				"server_url": schema.StringAttribute{
					MarkdownDescription: "RTMP address of the destination's ingest, `rtmp://host/app` or `rtmps://host/app`, without the key.",
					Required:            true,
					Validators:          []validator.String{framework.RtmpURLValidator()},
				},
				"stream_key": schema.StringAttribute{
					MarkdownDescription: "The destination's stream key. Sensitive: it is kept in the state, which must " +
						"be protected, and a change made outside Terraform shows as a change to put back. Set exactly " +
						"one of `stream_key` and `stream_key_wo`.",
					Optional:   true,
					Sensitive:  true,
					Validators: []validator.String{framework.NotBlank()},
				},
				"stream_key_wo": schema.StringAttribute{
					MarkdownDescription: "The destination's stream key, write-only (Terraform 1.11 and later): sent to the " +
						"service but never kept in the plan or the state, for a key that comes from a secret store or an " +
						"ephemeral resource. Terraform cannot see it change: raise `stream_key_wo_version` to send a new one.",
					Optional:   true,
					Sensitive:  true,
					WriteOnly:  true,
					Validators: []validator.String{framework.NotBlank()},
				},
				"stream_key_wo_version": schema.Int64Attribute{
					CustomType: framework.WholeNumberType{Unit: "versions"},
					MarkdownDescription: "Any number, changed whenever `stream_key_wo` changes, so that the restreams are " +
						"sent again with the new key. Only with `stream_key_wo`.",
					Optional: true,
				},
			},
		},
	}
}

func (r *liveStreamResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	w, ok := liveStreamWriteOf(ctx, r.Pd, req.Plan, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	plan := w.plan
	in := videohost.CreateLiveStreamInput{
		Name:      plan.Name.ValueString(),
		Public:    plan.Public.ValueBoolPointer(),
		PlayerID:  plan.PlayerID.ValueString(),
		Restreams: w.send,
	}
	ls, ok := createLiveStream(ctx, r.Pd, &resp.Diagnostics, in)
	if !ok {
		return
	}
	tflog.Debug(ctx, "created live stream", map[string]any{"live_stream_id": ls.ID})
	ls, thumbFile, thumbSum := writeLiveStreamThumbnail(ctx, r.Pd, ls, plan, nil, resp.Private, &resp.Diagnostics)
	state, diags := LiveStreamResourceModelFrom(ctx, ls, w.planned, !plan.Restreams.IsNull())
	resp.Diagnostics.Append(diags...)
	state.ThumbnailFile, state.ThumbnailSHA256 = thumbFile, thumbSum
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &state, state.ID)...)
}

func (r *liveStreamResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := framework.ModelOf[liveStreamResourceModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	ls, ok := framework.ReadRemote(ctx, &r.ManagedBase, resp, state.ID,
		", with a new stream key that the encoder must be given",
		(*videohost.Client).LookupLiveStream)
	if !ok {
		return
	}
	prior, diags := RestreamsOf(ctx, state.Restreams)
	resp.Diagnostics.Append(diags...)
	newState, diags := LiveStreamResourceModelFrom(ctx, ls, prior, !state.Restreams.IsNull())
	resp.Diagnostics.Append(diags...)
	keepLiveStreamThumbnail(ctx, &newState, state, ls, req.Private, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
}

func (r *liveStreamResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer framework.NoteRateLimitWaits(&resp.Diagnostics, framework.RateWaitsNow(r.Pd))
	w, ok := liveStreamWriteOf(ctx, r.Pd, req.Plan, req.Config, &resp.Diagnostics)
	state, ok2 := framework.ModelOf[liveStreamResourceModel](ctx, req.State, &resp.Diagnostics)
	if !ok || !ok2 {
		return
	}
	plan := w.plan

	var in videohost.UpdateLiveStreamInput
	if !plan.Name.Equal(state.Name) {
		in.Name = videohost.Value(plan.Name.ValueString())
	}
	if !plan.Public.Equal(state.Public) {
		in.Public = videohost.Value(plan.Public.ValueBool())
	}
	// A player_id removed is a replacement (replaceWhenCleared): the service has no null for it.
	if !plan.PlayerID.IsNull() && !plan.PlayerID.Equal(state.PlayerID) {
		in.PlayerID = videohost.Value(plan.PlayerID.ValueString())
	}
	if !restreamsEqual(plan.Restreams, state.Restreams) {
		// The service replaces the whole list, so every restream is sent, keys included.
		in.Restreams = videohost.Value(w.send)
	}

	ls, err := updateLiveStream(ctx, r.Pd, state.ID.ValueString(), in)
	if err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Update Live Stream", err, r.Pd, LiveStreamAttributePaths)
		return
	}
	ls, thumbFile, thumbSum := writeLiveStreamThumbnail(ctx, r.Pd, ls, plan, &state, resp.Private, &resp.Diagnostics)
	newState, diags := LiveStreamResourceModelFrom(ctx, ls, w.planned, !plan.Restreams.IsNull())
	resp.Diagnostics.Append(diags...)
	newState.ThumbnailFile, newState.ThumbnailSHA256 = thumbFile, thumbSum
	resp.Diagnostics.Append(framework.SetStateAndIdentity(ctx, &resp.State, resp.Identity, &newState, newState.ID)...)
}

// liveStreamAssetsAttribute is the live stream's assets attribute; its type is
// liveStreamAssetsTypes.
func liveStreamAssetsAttribute() schema.SingleNestedAttribute {
	return framework.ResourceAssetsAttribute("Addresses of the live stream's outputs.", false)
}
