# The filters run on the server: every tag given must match, and so must every metadata pair.
data "videohost_videos" "tutorials" {
  tags     = ["tutorial"]
  metadata = { audience = "beginners" }

  sort_by    = "publishedAt"
  sort_order = "desc"
}

output "tutorial_titles" {
  value = [for v in data.videohost_videos.tutorials.videos : v.title]
}

# Every recording of one live stream.
data "videohost_videos" "recordings" {
  live_stream_id = "li400mYKSgQ6xs7taUeSaEKr"
}
