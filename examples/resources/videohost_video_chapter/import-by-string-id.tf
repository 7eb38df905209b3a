import {
  to = videohost_video_chapter.english
  id = "vi4blUQJFrYWbaG44NChkH27/en"
}
