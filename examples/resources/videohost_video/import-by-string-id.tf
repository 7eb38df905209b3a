import {
  to = videohost_video.launch
  id = "vi4blUQJFrYWbaG44NChkH27"
}
