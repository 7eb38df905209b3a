# Every chapter file of one video, one per language.
list "videohost_video_chapter" "intro" {
  provider = videohost

  config {
    video_id = "vi4blUQJFrYWbaG44NChkH27"
  }
}
