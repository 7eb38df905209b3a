# Restore a video that a destroy discarded (the destroy's warning gives its id), then import it
# back into its resource:
#   terraform apply -invoke=action.videohost_video_restore.launch
action "videohost_video_restore" "launch" {
  config {
    video_id = "vi4blUQJFrYWbaG44NChkH27"
  }
}

# After the restore, on the next apply:
import {
  to = videohost_video.launch
  id = "vi4blUQJFrYWbaG44NChkH27"
}

resource "videohost_video" "launch" {
  title      = "Launch"
  source_url = "https://media.example.com/launch.mp4"
}
