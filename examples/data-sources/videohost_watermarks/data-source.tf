# Every watermark of the workspace, the oldest first.
data "videohost_watermarks" "all" {
  sort_by    = "createdAt"
  sort_order = "asc"
}

output "watermark_ids" {
  value = [for w in data.videohost_watermarks.all.watermarks : w.id]
}
