# Every watermark of the workspace (up to 1000).
list "videohost_watermark" "all" {
  provider = videohost
  limit    = 1000
}
