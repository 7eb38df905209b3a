// Package video holds the video kind: the `videohost_video` resource (and its list resource),
// the `videohost_video` and `videohost_videos` data sources, the `videohost_discarded_videos` data
// source and the `videohost_video_restore` action. The resource's source upload and writes are
// writes.go, the discard at destroy discard_writes.go, the wait for wait_for and the read-back
// after a write wait.go, the bounds of its title, tags and metadata limits.go, its thumbnail
// thumbnail.go.
package video
