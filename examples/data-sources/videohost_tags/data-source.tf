# The tags that contain "math" (Maths, mathématiques, ...), the most used first.
data "videohost_tags" "maths" {
  value      = "math"
  sort_by    = "videoCount"
  sort_order = "desc"
}

output "maths_tags" {
  value = { for t in data.videohost_tags.maths.tags : t.value => t.video_count }
}
