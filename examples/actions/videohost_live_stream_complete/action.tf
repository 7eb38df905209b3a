resource "videohost_live_stream" "studio" {
  name = "Studio A"
}

# End the studio's broadcast and wait until the service says it no longer broadcasts:
#   terraform apply -invoke=action.videohost_live_stream_complete.studio
action "videohost_live_stream_complete" "studio" {
  config {
    live_stream_id = videohost_live_stream.studio.id
  }
}
