// Package videosummary holds the video summary kind: the `videohost_video_summary` resource (and
// its list resource) and the `videohost_summaries` data source.
package videosummary
