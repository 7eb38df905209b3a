// Package track is what captions and chapters share: a WebVTT file of a video in one language,
// its resource, model, plan checks, writes and list resource, each kind naming its own requests
// (track.TrackOps) in its own writes.go. It registers nothing itself.
package track
