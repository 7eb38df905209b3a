# Notify a receiver each time a quality version of a video is encoded, and when captions and
# summaries are generated.
resource "videohost_webhook" "encoding" {
  url = "https://hooks.example.com/videohost"
  events = [
    "video.encoding.quality.completed",
    "video.caption.generated",
    "video.summary.generated",
  ]
}

# A second webhook for live streams. Changing url or events replaces the webhook, because the
# service has no update call; the replacement comes with a new signature secret.
resource "videohost_webhook" "live" {
  url = "https://hooks.example.com/videohost/live"
  events = [
    "live-stream.broadcast.started",
    "live-stream.broadcast.ended",
    "video.source.recorded",
  ]
}

# The receiver needs the signature secret to check that a delivery comes from the service.
output "encoding_webhook_secret" {
  value     = videohost_webhook.encoding.signature_secret
  sensitive = true
}
