// Package videochapter holds the `videohost_video_chapter` resource (and its list resource): a
// video's WebVTT chapter file in one language, on the track machinery that it shares with
// captions (internal/provider/track), naming its own requests in writes.go.
package videochapter
