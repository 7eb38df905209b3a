# Check the receiver as soon as the webhook exists: a signed sample event must be accepted
# (2xx), the same event with a wrong signature refused. The apply fails otherwise.
resource "videohost_webhook" "encoded" {
  url    = "https://hooks.example.com/videos"
  events = ["video.encoding.quality.completed"]

  lifecycle {
    action_trigger {
      events  = [after_create, after_update]
      actions = [action.videohost_webhook_check.encoded]
    }
  }
}

action "videohost_webhook_check" "encoded" {
  config {
    webhook_id = videohost_webhook.encoded.id
  }
}

# Run it again at any time, alone:
#   terraform apply -invoke=action.videohost_webhook_check.encoded
