# Every summary of the workspace's videos (up to 1000).
list "videohost_video_summary" "all" {
  provider = videohost
  limit    = 1000
}
