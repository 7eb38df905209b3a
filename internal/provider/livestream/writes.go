package livestream

// The create and update of videohost_live_stream, in one place so that the resource's methods hold
// no request of their own.

import (
	"context"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// createLiveStream creates a live stream; a create whose outcome is unknown adopts the live
// stream it stored: the live streams are listed with the service's name filter, and the one
// with the same name, visibility, player and restreams, created since the attempt, is taken.
// It goes through the shared create machinery, which adds the diagnostics; false when there is
// nothing to record.
func createLiveStream(ctx context.Context, pd *framework.ProviderData, diags *diag.Diagnostics, in videohost.CreateLiveStreamInput) (videohost.LiveStream, bool) {
	return framework.CreateObject(ctx, pd, liveStreamWrites, diags, framework.AdoptionCreateOps(pd, framework.AdoptableCreate[videohost.LiveStream]{
		Kind: "live stream", Path: "/live-streams",
		Create: func(ctx context.Context) (videohost.LiveStream, error) { return pd.Client.CreateLiveStream(ctx, in) },
		List: func(ctx context.Context) ([]videohost.LiveStream, error) {
			return pd.Client.ListLiveStreams(ctx, videohost.LiveStreamFilter{Name: in.Name})
		},
		Matches: func(l videohost.LiveStream) bool { return LiveStreamHolds(l, in) },
		Id:      func(l videohost.LiveStream) string { return l.ID },
		Created: func(l videohost.LiveStream) *time.Time { return l.CreatedAt },
	}))
}

// liveStreamWrites names the live stream for the shared create and delete machinery.
var liveStreamWrites = framework.WriteTarget{Kind: "Live Stream", DeleteByID: (*videohost.Client).DeleteLiveStream, Attrs: LiveStreamAttributePaths}

// LiveStreamHolds reports whether l has every value that in sends.
func LiveStreamHolds(l videohost.LiveStream, in videohost.CreateLiveStreamInput) bool {
	public := in.Public == nil || *in.Public
	sameRestreams := slices.Equal(l.Restreams, in.Restreams) || len(l.Restreams) == 0 && len(in.Restreams) == 0
	return l.Name == in.Name && l.Public == public && l.PlayerID == in.PlayerID && sameRestreams
}

// updateLiveStream sends what changed. A PATCH of nothing is not sent: the live stream is read,
// so that the state still gets the service's current values.
func updateLiveStream(ctx context.Context, pd *framework.ProviderData, id string, in videohost.UpdateLiveStreamInput) (videohost.LiveStream, error) {
	if in.IsEmpty() {
		return pd.Client.GetLiveStream(ctx, id)
	}
	return pd.Client.UpdateLiveStream(ctx, id, in)
}

// liveStreamWrite is what a create or an update of a live stream takes from its request.
type liveStreamWrite struct {
	// plan is the planned live stream, and planned its restreams.
	plan    liveStreamResourceModel
	planned []RestreamResourceModel
	// send are the restreams as the service takes them, write-only keys included.
	send []videohost.Restream
}

// liveStreamWriteOf reads the plan and the configuration of a create or an update, once the
// provider is configured; false when it could not.
func liveStreamWriteOf(ctx context.Context, pd *framework.ProviderData, plan, config framework.ModelSource, diags *diag.Diagnostics) (liveStreamWrite, bool) {
	var w liveStreamWrite
	var ok bool
	if w.plan, ok = framework.ConfiguredModel[liveStreamResourceModel](ctx, pd, plan, diags); !ok {
		return w, false
	}
	cfg, ok := framework.ModelOf[liveStreamResourceModel](ctx, config, diags)
	if !ok {
		return w, false
	}
	var d diag.Diagnostics
	w.planned, d = RestreamsOf(ctx, w.plan.Restreams)
	diags.Append(d...)
	configured, d := RestreamsOf(ctx, cfg.Restreams)
	diags.Append(d...)
	w.send = RestreamsToSend(w.planned, configured)
	return w, !diags.HasError()
}

// RestreamsToSend are the restreams as the service takes them; a write-only key is taken from
// the configuration, the only place it exists.
func RestreamsToSend(planned, configured []RestreamResourceModel) []videohost.Restream {
	out := make([]videohost.Restream, 0, len(planned))
	for i, p := range planned {
		key := p.StreamKey.ValueString()
		if p.StreamKey.IsNull() && i < len(configured) {
			key = configured[i].StreamKeyWO.ValueString()
		}
		out = append(out, videohost.Restream{Name: p.Name.ValueString(), ServerURL: p.ServerURL.ValueString(), StreamKey: key})
	}
	return out
}

// writeLiveStreamThumbnail uploads plan's thumbnail file when it is new or changed over state
// (nil on a create), or deletes the thumbnail when plan no longer has one, and returns the live
// stream as the service then shows it. m, the state to record, keeps the file and its hash; a
// write that failed leaves the state's (a null hash on a create, so the next plan uploads).
func writeLiveStreamThumbnail(ctx context.Context, pd *framework.ProviderData, ls videohost.LiveStream, plan liveStreamResourceModel,
	state *liveStreamResourceModel, private framework.PrivateWriter, diags *diag.Diagnostics,
) (videohost.LiveStream, types.String, types.String) {
	switch {
	case plan.ThumbnailFile.IsNull():
		if state == nil || state.ThumbnailFile.IsNull() {
			return ls, plan.ThumbnailFile, plan.ThumbnailSHA256
		}
		got, err := pd.Client.DeleteLiveStreamThumbnail(ctx, ls.ID)
		if err != nil {
			framework.AddAPIErrorDiagnostics(diags, "Unable to Delete Live Stream Thumbnail", err, pd, LiveStreamAttributePaths)
			return ls, state.ThumbnailFile, state.ThumbnailSHA256
		}
		framework.RecordThumbnailAddress(ctx, private, "", diags)
		return got, plan.ThumbnailFile, plan.ThumbnailSHA256
	case state != nil && !state.ThumbnailSHA256.IsNull() && plan.ThumbnailSHA256.Equal(state.ThumbnailSHA256):
		return ls, plan.ThumbnailFile, plan.ThumbnailSHA256
	}
	got, ok := framework.UploadThumbnail(ctx, pd, plan.ThumbnailFile, plan.ThumbnailSHA256, private,
		func(ctx context.Context, src videohost.UploadSource) (videohost.LiveStream, error) {
			return pd.Client.UploadLiveStreamThumbnail(ctx, ls.ID, src)
		},
		func(l videohost.LiveStream) string { return liveStreamThumbnailAddress(l) }, diags)
	if !ok {
		if state == nil {
			return ls, plan.ThumbnailFile, types.StringNull()
		}
		return ls, state.ThumbnailFile, state.ThumbnailSHA256
	}
	return got, plan.ThumbnailFile, plan.ThumbnailSHA256
}
