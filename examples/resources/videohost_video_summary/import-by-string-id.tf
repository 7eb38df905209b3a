import {
  to = videohost_video_summary.lecture
  id = "summary_1CGHWuXjhxmeH4WiZ51234"
}
