package track

// This file holds what videohost_video_caption and videohost_video_chapter share. Both are a
// WebVTT file of a video for one language, which the service addresses by the video's id and
// the language, not by an id of its own: that pair is their identity and their import id
// (videoId/language). A second upload for the same language replaces the file, so a changed
// file is uploaded again in place; the service keeps no hash of the file, so the provider takes
// one from the file when the plan is made (source_sha256) and compares it with the state's.

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TrackBase is embedded by the caption and chapter resources: their identity, import, plan
// (the file's hash) and delete.
type TrackBase struct {
	framework.ResourceBase
	framework.WriteTarget
	// noun is "caption" or "chapter", for descriptions and messages.
	noun string
	del  func(c *videohost.Client, ctx context.Context, videoID, language string) error
}

// newTrackBase is the base of the resource typeName ("_video_caption") of kind ("Video Caption").
func newTrackBase(typeName, kind, noun string, del func(*videohost.Client, context.Context, string, string) error) TrackBase {
	return TrackBase{
		ResourceBase: framework.ResourceBase{TypeName: typeName},
		WriteTarget: framework.WriteTarget{Kind: kind, Attrs: map[string]path.Path{
			"videoId": path.Root("video_id"), "language": path.Root("language"), "file": path.Root("source_file"),
		}},
		noun: noun, del: del,
	}
}

// TrackKind is what sets one kind of track apart: its requests, its state, and what it makes
// true after the file is uploaded (a caption's default). The rest of its Create, Read and
// Update is trackResource's, written once for both kinds.
type TrackKind[T any, M any] struct {
	Ops TrackOps[T]
	// ModelFrom is the state of obj, uploaded from the file of plan, whose hash is sum.
	ModelFrom func(plan VideoTrackModel, sum types.String, obj T) M
	// Track is the part of a state that every kind holds.
	Track func(*M) *VideoTrackModel
	// Settle, when set, makes true of state what plan says and the upload does not set, after a
	// create (creating) or an update, and records in private what its plan compares.
	Settle func(ctx context.Context, pd *framework.ProviderData, plan, state M, creating bool, private framework.PrivateWriter, diags *diag.Diagnostics) M
}

// TrackResource is the caption or chapter resource of kind: the shared base, and its Create,
// Read and Update.
type TrackResource[T any, M any] struct {
	TrackBase
	kind TrackKind[T, M]
}

// NewTrackResource is the resource typeName ("_video_caption") of kindName ("Video Caption").
func NewTrackResource[T, M any](typeName, kindName, noun string, kind TrackKind[T, M]) TrackResource[T, M] {
	return TrackResource[T, M]{TrackBase: newTrackBase(typeName, kindName, noun, kind.Ops.Del), kind: kind}
}

func (r *TrackResource[T, M]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	// The whole create is one write for the rate-limit warning, the requests around the create's own included.
	defer framework.NoteRateLimitWaits(&resp.Diagnostics, framework.RateWaitsNow(r.Pd))
	plan, ok := framework.ConfiguredModel[M](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	track := *r.kind.Track(&plan)
	obj, sum, ok := createTrack(ctx, &r.TrackBase, &resp.Diagnostics, track, r.kind.Ops)
	if !ok {
		return
	}
	tflog.Debug(ctx, "uploaded "+r.noun, map[string]any{"video_id": track.VideoID.ValueString(), "language": track.Language.ValueString()})
	state := r.kind.ModelFrom(track, types.StringValue(sum), obj)
	if r.kind.Settle != nil {
		// The track exists from here on, so it is recorded even if this fails; the next plan
		// shows what is left to change.
		state = r.kind.Settle(ctx, r.Pd, plan, state, true, resp.Private, &resp.Diagnostics)
	}
	r.setState(ctx, &resp.State, resp.Identity, &state, &resp.Diagnostics)
}

func (r *TrackResource[T, M]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := framework.ModelOf[M](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	track := *r.kind.Track(&state)
	obj, ok := readTrack(ctx, &r.TrackBase, resp, track, r.kind.Ops.Lookup)
	if !ok {
		return
	}
	newState := r.kind.ModelFrom(track, types.StringNull(), obj)
	r.kind.Track(&newState).SourceSHA256 = r.readSum(&resp.Diagnostics, track, r.kind.Track(&newState).Src.ValueString())
	resp.Diagnostics.Append(resp.State.Set(ctx, &newState)...)
}

// Update uploads the file again when its hash differs from the state's (or the state has none,
// after an import); a change of the path alone to a file of the same content sends nothing.
// Then settle makes the rest true (a caption's default).
func (r *TrackResource[T, M]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	defer framework.NoteRateLimitWaits(&resp.Diagnostics, framework.RateWaitsNow(r.Pd))
	plan, ok := framework.ConfiguredModel[M](ctx, r.Pd, req.Plan, &resp.Diagnostics)
	state, ok2 := framework.ModelOf[M](ctx, req.State, &resp.Diagnostics)
	if !ok || !ok2 {
		return
	}
	planned, was := *r.kind.Track(&plan), *r.kind.Track(&state)
	newState := state
	r.kind.Track(&newState).SourceFile = planned.SourceFile
	if planned.SourceSHA256.IsUnknown() || !planned.SourceSHA256.Equal(was.SourceSHA256) {
		obj, sum, ok := uploadTrack(ctx, &r.TrackBase, &resp.Diagnostics, planned, r.kind.Ops.Upload)
		if !ok {
			return
		}
		tflog.Debug(ctx, "uploaded "+r.noun+" again", map[string]any{"video_id": was.VideoID.ValueString(), "language": was.Language.ValueString()})
		newState = r.kind.ModelFrom(planned, types.StringValue(sum), obj)
	}
	if r.kind.Settle != nil {
		newState = r.kind.Settle(ctx, r.Pd, plan, newState, false, resp.Private, &resp.Diagnostics)
	}
	r.setState(ctx, &resp.State, resp.Identity, &newState, &resp.Diagnostics)
}

// setState sets state and the identity it gives.
func (r *TrackResource[T, M]) setState(ctx context.Context, st *tfsdk.State, identity *tfsdk.ResourceIdentity, state *M,
	diags *diag.Diagnostics,
) {
	diags.Append(st.Set(ctx, state)...)
	track := r.kind.Track(state)
	diags.Append(setTrackIdentity(ctx, identity, track.VideoID, track.Language)...)
}

// TrackAttributes are the schema attributes that a caption and a chapter share.
func (b *TrackBase) TrackAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": framework.KeptString("`video_id` and `language` joined by a slash, such as `viXXXX/fr`: the import id."),
		"video_id": schema.StringAttribute{
			MarkdownDescription: "Identifier of the video (its `videoId`). Changing it replaces the " + b.noun + ".",
			Required:            true,
			Validators:          framework.ServiceIDValidators("a video (its videoId)", "videohost_videos"),
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"language": schema.StringAttribute{
			MarkdownDescription: "Language of the " + b.noun + ": an IETF language tag of letters and dashes, such as " +
				"`en`, `fr` or `fr-BE`. A tag that is not of a known language (`english` for `en`, `en_US` for `en-US`) " +
				"is refused when the plan is made. A video has one " + b.noun + " per language. Changing it replaces the " +
				b.noun + ".",
			Required:      true,
			Validators:    []validator.String{framework.LanguageTagValidator()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"source_file": schema.StringAttribute{
			MarkdownDescription: "Path of the WebVTT file to upload (it must start with the line `WEBVTT`); a relative " +
				"path is taken from the directory Terraform runs in. The file is read when the plan is made: a missing, " +
				"empty or unreadable file, one that is not WebVTT, or a cue whose timing is not `00:00:01.000 --> " +
				"00:00:04.000` (`mm:ss.ttt` or `hh:mm:ss.ttt`, an arrow of two dashes, the start at or before the " +
				"end) is an error, naming the line, before anything is sent. A change of " +
				"its content uploads it again in place: the service replaces the file it holds.",
			Required:   true,
			Validators: []validator.String{framework.NotBlank()},
		},
		"source_sha256": schema.StringAttribute{
			MarkdownDescription: "SHA-256 (lowercase hex) of `source_file`, taken when the plan is made; a change " +
				"of it is what uploads the file again. Null after an import, since the service keeps no hash of the " +
				"file: the first apply after an import uploads the file once, in place. Null too once the service's " +
				"file was uploaded again outside Terraform (its `src` is no longer the one Terraform's upload got): " +
				"the plan then uploads `source_file` again, in place.",
			Computed: true,
		},
		"src": schema.StringAttribute{
			MarkdownDescription: "Address of the uploaded WebVTT file on the service; it changes with every upload.",
			Computed:            true,
		},
	}
}

func (b *TrackBase) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"video_id": identityschema.StringAttribute{
				Description:       "Identifier of the video (`videoId`), as the service gives it.",
				RequiredForImport: true,
			},
			"language": identityschema.StringAttribute{
				Description:       "Language tag of the " + b.noun + ", such as `fr`.",
				RequiredForImport: true,
			},
		},
	}
}

// setTrackIdentity sets identity to the video and the language; unknown or null values are
// left out (they are known in every state that the provider writes).
func setTrackIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, videoID, language types.String) diag.Diagnostics {
	if identity == nil || videoID.IsNull() || videoID.IsUnknown() || language.IsNull() || language.IsUnknown() {
		return nil
	}
	return identity.Set(ctx, trackIdentityModel{VideoID: videoID, Language: language})
}

// ImportState imports by "videoId/language" (terraform import, or an import block's id) or by
// an import block's identity. Both parts are checked before any request. The state has no
// source_file and no source_sha256, which the first plan then fills: an upload in place.
func (b *TrackBase) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	videoID, language, found := strings.Cut(req.ID, "/")
	ident, ok := framework.ImportedIdentity[trackIdentityModel](ctx, req, &resp.Diagnostics)
	if !ok {
		return
	}
	if ident != nil {
		videoID, language, found = ident.VideoID.ValueString(), ident.Language.ValueString(), true
	}
	howTo := fmt.Sprintf("Import a video's %s by the video's id and the %s's language joined by a slash, such as "+
		"viXXXXXXXXXXXXXXXXXXXXXX/fr (terraform query with list \"videohost%s\" lists them)", b.noun, b.noun, b.TypeName)
	var why string
	switch {
	case !found:
		why = fmt.Sprintf("%q has no slash", req.ID)
	case videoID == "":
		why = fmt.Sprintf("%q has no video id before the slash", req.ID)
	case language == "":
		why = fmt.Sprintf("%q has no language after the slash", req.ID)
	case framework.IdProblem(videoID) != "":
		why = "the video id is not one the service gives: " + framework.IdProblem(videoID)
	case framework.LanguageTagProblem(language) != "":
		why = "the language " + framework.LanguageTagProblem(language)
	}
	if why != "" {
		resp.Diagnostics.AddError("Invalid Import ID", howTo+": "+framework.SentenceEnd(why))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), TrackID(videoID, language))...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("video_id"), videoID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("language"), language)...)
	resp.Diagnostics.Append(setTrackIdentity(ctx, resp.Identity, types.StringValue(videoID), types.StringValue(language))...)
}

// Delete deletes the file; one already gone (or whose video is gone) counts as deleted.
func (b *TrackBase) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if !framework.RequireConfigured(b.Pd, &resp.Diagnostics) {
		return
	}
	var videoID, language types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("video_id"), &videoID)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("language"), &language)...)
	if resp.Diagnostics.HasError() {
		return
	}
	v, l := videoID.ValueString(), language.ValueString()
	framework.DeleteObject(ctx, b.Pd, b.WriteTarget, &resp.Diagnostics, TrackID(v, l), func(ctx context.Context) error {
		return b.del(b.Pd.Client, ctx, v, l)
	})
}

// readTrack is the part of a caption's or chapter's Read that both share: it sets the
// identity, then reads the file with get. It reports false when Read has nothing more to do:
// no client yet, the file (or its video) is gone (it leaves the state with a warning), or the
// read failed.
func readTrack[T any](ctx context.Context, b *TrackBase, resp *resource.ReadResponse, state VideoTrackModel,
	get func(*videohost.Client, context.Context, string, string) (T, error),
) (T, bool) {
	var zero T
	resp.Diagnostics.Append(setTrackIdentity(ctx, resp.Identity, state.VideoID, state.Language)...)
	if b.Pd == nil {
		return zero, false
	}
	obj, err := get(b.Pd.Client, ctx, state.VideoID.ValueString(), state.Language.ValueString())
	if errors.Is(err, videohost.ErrNotFound) {
		resp.Diagnostics.AddWarning(b.Kind+" Deleted Outside Terraform", fmt.Sprintf(
			"The %s %s of video %s no longer existed on the service when Terraform read it (it, or its video, was "+
				"deleted outside Terraform). Terraform removed it from the state and, where it is still configured, "+
				"planned to upload it again.",
			b.noun, state.Language.ValueString(), state.VideoID.ValueString()))
		resp.State.RemoveResource(ctx)
		return zero, false
	}
	if err != nil {
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read "+b.Kind, err, b.Pd, b.Attrs)
		return zero, false
	}
	return obj, true
}

// readSum is the source_sha256 to keep after a read that found the file at src. Every upload
// gives the file a new address, so an address other than the one the state recorded from the
// provider's own upload means that the file was uploaded again outside Terraform: the hash is
// then null (with a warning), as after an import, and the plan uploads the configured file
// again in place. A state without an address (an import) has nothing to compare.
func (b *TrackBase) readSum(diags *diag.Diagnostics, state VideoTrackModel, src string) types.String {
	if state.Src.IsNull() || state.Src.IsUnknown() || state.Src.ValueString() == src {
		return state.SourceSHA256
	}
	diags.AddWarning(b.Kind+" Replaced Outside Terraform", fmt.Sprintf(
		"The %s %s of video %s is no longer the file Terraform uploaded: its address changed from %s to %s, so it was "+
			"uploaded again outside Terraform. The next apply uploads source_file again, in place.",
		b.noun, state.Language.ValueString(), state.VideoID.ValueString(), state.Src.ValueString(), src))
	return types.StringNull()
}
