# The chapters of a video in English: a WebVTT file whose cues are the chapters' titles.
# Editing the file uploads it again in place at the next apply.
resource "videohost_video_chapter" "english" {
  video_id    = "vi4blUQJFrYWbaG44NChkH27"
  language    = "en"
  source_file = "${path.module}/chapters/en.vtt"
}
