# The configuration that `make demo` applies against the local emulator. The provider reads its
# key and address from VIDEOHOST_API_KEY and VIDEOHOST_BASE_URL, which the demo script sets.
terraform {
  required_version = ">= 1.11"
  required_providers {
    videohost = {
      source = "videohost/videohost"
    }
  }
}

provider "videohost" {}

variable "receiver_url" {
  description = "Address of the webhook receiver that the demo starts."
  type        = string
}

# Each quality version of an uploaded video that finishes encoding.
resource "videohost_webhook" "encoding" {
  url    = "${var.receiver_url}/encoding"
  events = ["video.encoding.quality.completed"]
}

# The life of a live stream: broadcast start and end, and its recording.
resource "videohost_webhook" "live" {
  url = "${var.receiver_url}/live"
  events = [
    "live-stream.broadcast.started",
    "live-stream.broadcast.ended",
    "video.source.recorded",
  ]
}

# Generated captions and summaries.
resource "videohost_webhook" "ai" {
  url    = "${var.receiver_url}/ai"
  events = ["video.caption.generated", "video.summary.generated"]
}

# The seeded videos, read from every page of GET /videos.
data "videohost_videos" "all" {
  sort_by    = "title"
  sort_order = "asc"
}

# The first of them, read on its own.
data "videohost_video" "first" {
  id = data.videohost_videos.all.videos[0].id
}

# The seeded live streams, newest first.
data "videohost_live_streams" "all" {
  sort_by    = "createdAt"
  sort_order = "desc"
}

# The webhooks as the service lists them, filtered on one event; read after the webhooks exist.
data "videohost_webhooks" "live" {
  event      = "live-stream.broadcast.started"
  depends_on = [videohost_webhook.live]
}

# A signature computed by the provider, for a body the receiver can check on its own.
locals {
  sample_body = jsonencode({ type = "video.summary.generated", videoId = data.videohost_video.first.id, summaryId = "summary-demo" })
}

output "webhook_ids" {
  value = {
    encoding = videohost_webhook.encoding.id
    live     = videohost_webhook.live.id
    ai       = videohost_webhook.ai.id
  }
}

# The receiver's key ring: webhook id to signature secret. It is sensitive, so `terraform output`
# hides it unless asked for it by name.
output "webhook_secrets" {
  value = {
    (videohost_webhook.encoding.id) = videohost_webhook.encoding.signature_secret
    (videohost_webhook.live.id)     = videohost_webhook.live.signature_secret
    (videohost_webhook.ai.id)       = videohost_webhook.ai.signature_secret
  }
  sensitive = true
}

output "video_count" {
  value = length(data.videohost_videos.all.videos)
}

output "video_titles" {
  value = [for v in data.videohost_videos.all.videos : v.title]
}

output "first_video" {
  value = {
    id    = data.videohost_video.first.id
    title = data.videohost_video.first.title
  }
}

output "live_streams" {
  value = { for s in data.videohost_live_streams.all.live_streams : s.id => s.name }
}

output "live_webhook_urls" {
  value = [for w in data.videohost_webhooks.live.webhooks : w.url]
}

# The result is derived from the secret, so Terraform marks it sensitive; a yes or no reveals
# nothing of the secret, so it is shown.
output "sample_signature_verifies" {
  value = nonsensitive(provider::videohost::verify_webhook_signature(
    videohost_webhook.ai.signature_secret,
    local.sample_body,
    provider::videohost::webhook_signature(videohost_webhook.ai.signature_secret, local.sample_body),
  ))
}
