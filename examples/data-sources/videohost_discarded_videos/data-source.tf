# The videos that a destroy discarded (the service's Video Restore feature keeps them 90 days).
data "videohost_discarded_videos" "launch" {
  title = "Launch"
}

output "restorable" {
  value = { for v in data.videohost_discarded_videos.launch.videos : v.id => v.deletes_at }
}
