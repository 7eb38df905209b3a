package livestream

// The videohost_live_stream data source: one live stream, read by its id.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// NewLiveStreamDataSource returns the videohost_live_stream data source: one live stream, read
// by id.
func NewLiveStreamDataSource() datasource.DataSource {
	return framework.NewObjectDataSource("_live_stream", framework.ObjectRead[videohost.LiveStream]{
		Description:   "Reads one live stream of the workspace by its id, including its stream keys.",
		Attributes:    liveStreamDataAttributes,
		IdDescription: "Identifier of the live stream to read (the service's `liveStreamId`).",
		IdWhat:        "a live stream (its liveStreamId)", ListedBy: "videohost_live_streams",
		IdParam: "liveStreamId", Title: "Live Stream",
		Get: (*videohost.Client).GetLiveStream,
		State: func(_ context.Context, ls videohost.LiveStream) (any, diag.Diagnostics) {
			return LiveStreamModelFrom(ls), nil
		},
	})
}
