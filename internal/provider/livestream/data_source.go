package provider

// The videohost_live_stream data source: one live stream, read by its id.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

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
