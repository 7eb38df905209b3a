# A first configuration: a webhook for encoded videos, a branded player and a live stream that
# wears it and is restreamed to YouTube, with a data source and a function. The API key comes
# from VIDEOHOST_API_KEY; the sandbox is the default environment.
terraform {
  required_version = ">= 1.11"
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}

provider "videohost" {}

variable "youtube_stream_key" {
  description = "The stream key YouTube Studio gives for the channel's live ingest."
  type        = string
  sensitive   = true
}

# The service signs each delivery with the webhook's signature_secret.
resource "videohost_webhook" "encoded" {
  url    = "https://hooks.example.com/videohost"
  events = ["video.encoding.quality.completed", "video.source.recorded"]
}

resource "videohost_player_theme" "brand" {
  name         = "Brand"
  track_played = "rgba(255, 80, 0, 1)"
}

resource "videohost_live_stream" "studio" {
  name      = "Studio A"
  player_id = videohost_player_theme.brand.id

  restreams = [
    {
      name       = "YouTube"
      server_url = "rtmp://a.rtmp.youtube.com/live2"
      stream_key = var.youtube_stream_key
    },
  ]
}

# The workspace's tutorials, filtered by the service.
data "videohost_videos" "tutorials" {
  tags = ["tutorial"]
}

output "tutorial_players" {
  value = [for v in data.videohost_videos.tutorials.videos : v.assets.player]
}

# What the studio's encoder needs: the address is fixed, the key is read with
# terraform output -raw ingest_key.
output "ingest_key" {
  value     = videohost_live_stream.studio.stream_key
  sensitive = true
}

# The receiver behind the webhook verifies X-Service-Signature with this secret.
output "webhook_secret" {
  value     = videohost_webhook.encoded.signature_secret
  sensitive = true
}

# A signature a receiver's test can compare with its own computation.
output "sample_signature" {
  value     = provider::videohost::webhook_signature(videohost_webhook.encoded.signature_secret, "{}")
  sensitive = true
}
