# Every caption of one video, with the attributes the service knows.
list "videohost_video_caption" "intro" {
  provider         = videohost
  include_resource = true

  config {
    video_id = "vi4blUQJFrYWbaG44NChkH27"
  }
}
