package livestream

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ action.ActionWithConfigure = (*liveStreamCompleteAction)(nil)

// liveStreamCompleteAction is videohost_live_stream_complete: it ends a live stream's broadcast,
// as the studio's "end" button does, and waits until the stream no longer broadcasts. A live
// stream's broadcasting is not an attribute of the resource (it changes with the encoder), so
// ending it is an action, not a change of configuration.
type liveStreamCompleteAction struct {
	pd *framework.ProviderData
}

// NewLiveStreamCompleteAction returns the videohost_live_stream_complete action.
func NewLiveStreamCompleteAction() action.Action { return &liveStreamCompleteAction{} }

type liveStreamCompleteModel struct {
	LiveStreamID types.String `tfsdk:"live_stream_id"`
	Wait         types.Bool   `tfsdk:"wait"`
}

// Waiting for the end of a broadcast: the first read comes at once (the service usually ends it
// before it answers), the next ones further apart, up to completeMaxWait in all.
const (
	completeFirstPoll = time.Second
	completeMaxPoll   = 10 * time.Second
	completeMaxWait   = 5 * time.Minute
)

func (a *liveStreamCompleteAction) Metadata(_ context.Context, req action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_live_stream_complete"
}

func (a *liveStreamCompleteAction) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Ends a live stream's broadcast (an action: Terraform 1.14 and later; OpenTofu and older " +
			"Terraform do not run actions): the service stops taking the encoder's stream and, when recording is on, " +
			"submits the recording (`live-stream.broadcast.ended`, then `video.source.recorded`). A live stream that " +
			"is not broadcasting is left as it is. Unless `wait` is false, it waits until the service says the stream " +
			fmt.Sprintf("no longer broadcasts (at most %d minutes), reporting progress. The live stream itself, its key and its ", int(completeMaxWait.Minutes())) +
			"settings do not change: an encoder that is still sending may start a new broadcast. Run it alone with " +
			"`terraform apply -invoke=action.videohost_live_stream_complete.<name>`, or from an `action_trigger`.",
		Attributes: map[string]schema.Attribute{
			"live_stream_id": schema.StringAttribute{
				MarkdownDescription: "Id of the live stream whose broadcast ends (`videohost_live_stream.<name>.id`). Required.",
				Required:            true,
				Validators:          framework.ServiceIDValidators("a live stream (its liveStreamId)", "videohost_live_streams"),
			},
			"wait": schema.BoolAttribute{
				MarkdownDescription: "Whether to wait until the live stream no longer broadcasts. Default `true`; `false` " +
					"returns once the service has taken the request.",
				Optional: true,
			},
		},
	}
}

func (a *liveStreamCompleteAction) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	a.pd = framework.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

// liveStreamIDPaths points the service's errors about the id at live_stream_id.
var liveStreamIDPaths = map[string]path.Path{"liveStreamId": path.Root("live_stream_id")}

func (a *liveStreamCompleteAction) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	cfg, ok := framework.ConfiguredModel[liveStreamCompleteModel](ctx, a.pd, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	progress := func(format string, args ...any) {
		if resp.SendProgress != nil {
			resp.SendProgress(action.InvokeProgressEvent{Message: fmt.Sprintf(format, args...)})
		}
	}
	id := cfg.LiveStreamID.ValueString()
	progress("Asking the service to end the broadcast of live stream %s", id)
	if err := a.pd.Client.CompleteLiveStream(ctx, id); err != nil {
		if errors.Is(err, videohost.ErrNotFound) {
			resp.Diagnostics.AddAttributeError(path.Root("live_stream_id"), "Live Stream Not Found",
				"The service has no live stream "+id+": check live_stream_id (the videohost_live_streams data source lists them).")
			return
		}
		framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to End the Live Stream's Broadcast", err, a.pd, liveStreamIDPaths)
		return
	}
	if !cfg.Wait.IsNull() && !cfg.Wait.ValueBool() {
		progress("The service took the request; not waiting for the broadcast to end (wait = false)")
		return
	}

	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, completeMaxWait)
	defer cancel()
	delay := completeFirstPoll
	for {
		ls, err := a.pd.Client.GetLiveStream(ctx, id)
		switch {
		case errors.Is(err, videohost.ErrNotFound):
			progress("Live stream %s was deleted while its broadcast ended", id)
			return
		case err != nil && ctx.Err() != nil:
			resp.Diagnostics.AddAttributeError(path.Root("live_stream_id"), "Broadcast Still Running",
				fmt.Sprintf("Live stream %s still broadcast %s after the service was asked to end it (%v). The encoder may "+
					"have started a new broadcast: stop it, then run this action again.", id, time.Since(start).Round(time.Second), ctx.Err()))
			return
		case err != nil:
			framework.AddAPIErrorDiagnostics(&resp.Diagnostics, "Unable to Read the Live Stream", err, a.pd, liveStreamIDPaths)
			return
		case !ls.Broadcasting:
			progress("Live stream %s no longer broadcasts (after %s)", id, time.Since(start).Round(time.Second))
			return
		}
		progress("Live stream %s still broadcasts after %s; reading it again in %s", id, time.Since(start).Round(time.Second), delay)
		t := time.NewTimer(delay)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
		}
		delay = min(2*delay, completeMaxPoll)
	}
}
