// Package videocaption holds the `videohost_video_caption` resource (and its list resource): a
// video's WebVTT caption file in one language, on the track machinery that it shares with
// chapters (internal/provider/track), naming its own requests in writes.go.
package videocaption
