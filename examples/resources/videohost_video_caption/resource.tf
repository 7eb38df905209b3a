# Captions of one video in two languages; English is shown by default. Editing a .vtt file
# uploads it again in place at the next apply.
resource "videohost_video_caption" "english" {
  video_id    = "vi4blUQJFrYWbaG44NChkH27"
  language    = "en"
  source_file = "${path.module}/captions/en.vtt"
  default     = true
}

resource "videohost_video_caption" "belgian_french" {
  video_id    = "vi4blUQJFrYWbaG44NChkH27"
  language    = "fr-BE"
  source_file = "${path.module}/captions/fr-BE.vtt"
}
