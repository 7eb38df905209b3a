# The configuration that `make demo` applies against the local emulator; videos.tf joins it in a
# second apply. The provider reads its key and address from VIDEOHOST_API_KEY and
# VIDEOHOST_BASE_URL, which the demo script sets.
terraform {
  required_version = ">= 1.11"
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}

# Chunks of 5 MiB, the service's smallest: the demo's 6 MiB video (videos.tf) goes in two.
provider "videohost" {
  upload_chunk_size_mib = 5
}

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

variable "restream_key" {
  description = "The stream key of the restream destination, as a secret store would give it."
  type        = string
  sensitive   = true
}

# The look of the studio's player.
resource "videohost_player_theme" "brand" {
  name         = "Demo brand"
  track_played = "rgba(255, 80, 0, .95)"
  hide_title   = true
}

# The studio's live stream, wearing the theme, restreamed to one other platform while it
# broadcasts. The stream key (its own, and the restream's) never leaves the state.
resource "videohost_live_stream" "studio" {
  name      = "Demo studio"
  player_id = videohost_player_theme.brand.id
  restreams = [
    {
      name       = "Other platform"
      server_url = "rtmp://ingest.example.test/live"
      stream_key = var.restream_key
    },
  ]
}

# Generated captions and summaries.
resource "videohost_webhook" "ai" {
  url    = "${var.receiver_url}/ai"
  events = ["video.caption.generated", "video.summary.generated"]
}

# The seeded videos, read from every page of GET /videos. The title filter leaves out the videos
# that the demo uploads later (videos.tf, the upload token's), so that the outputs stay put.
data "videohost_videos" "all" {
  title      = "Seed video"
  sort_by    = "title"
  sort_order = "asc"
}

# The first of them, read on its own.
data "videohost_video" "first" {
  id = data.videohost_videos.all.videos[0].id
}

# The live streams, newest first: the seeded ones and the studio, read after it exists.
data "videohost_live_streams" "all" {
  sort_by    = "createdAt"
  sort_order = "desc"
  depends_on = [videohost_live_stream.studio]
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

# Where the studio's encoder broadcasts; the key is a separate, sensitive output that the demo
# never prints.
output "ingest" {
  value = {
    live_stream_id = videohost_live_stream.studio.id
    rtmp_server    = "rtmp://broadcast.api.video/s"
    player_theme   = videohost_live_stream.studio.player_id
    hls            = videohost_live_stream.studio.assets.hls
    restream_to    = [for r in videohost_live_stream.studio.restreams : r.server_url]
  }
}

output "ingest_key" {
  value     = videohost_live_stream.studio.stream_key
  sensitive = true
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
