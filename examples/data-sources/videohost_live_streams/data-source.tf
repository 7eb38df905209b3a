# Live streams named "studio", most recently created first.
data "videohost_live_streams" "studio" {
  name       = "studio"
  sort_by    = "createdAt"
  sort_order = "desc"
}

output "studio_stream_ids" {
  value = [for s in data.videohost_live_streams.studio.live_streams : s.id]
}
