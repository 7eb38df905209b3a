// Package events lists the webhook event names of the service. It is the one piece of the
// client's vocabulary that the emulator may share: the names are the product's contract, not a
// wire format that the emulator must check independently.
package events

import "slices"

// The six event names a webhook can subscribe to.
const (
	VideoEncodingQualityCompleted = "video.encoding.quality.completed"
	LiveStreamBroadcastStarted    = "live-stream.broadcast.started"
	LiveStreamBroadcastEnded      = "live-stream.broadcast.ended"
	VideoSourceRecorded           = "video.source.recorded"
	VideoCaptionGenerated         = "video.caption.generated"
	VideoSummaryGenerated         = "video.summary.generated"
)

var names = []string{
	VideoEncodingQualityCompleted,
	LiveStreamBroadcastStarted,
	LiveStreamBroadcastEnded,
	VideoSourceRecorded,
	VideoCaptionGenerated,
	VideoSummaryGenerated,
}

// Names returns the event names in the order the specification lists them. The slice is a
// copy, so callers may sort or change it.
func Names() []string { return slices.Clone(names) }

// Valid reports whether name is one of the six event names.
func Valid(name string) bool { return slices.Contains(names, name) }
