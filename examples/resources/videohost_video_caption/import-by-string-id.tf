import {
  to = videohost_video_caption.english
  id = "vi4blUQJFrYWbaG44NChkH27/en"
}
