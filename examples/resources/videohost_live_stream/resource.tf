variable "youtube_stream_key" {
  description = "The stream key YouTube Studio gives for the channel's live ingest."
  type        = string
  sensitive   = true
}

variable "twitch_stream_key" {
  description = "The stream key of the Twitch channel, from a secret store."
  type        = string
  sensitive   = true
  ephemeral   = true
}

resource "videohost_player_theme" "brand" {
  name         = "Brand"
  track_played = "rgba(255, 80, 0, 1)"
}

# The studio's encoder broadcasts to rtmp://broadcast.api.video/s with stream_key; while it
# does, the service sends the broadcast on to YouTube and Twitch. Every change is made in place:
# the stream key the encoder holds never changes.
resource "videohost_live_stream" "studio" {
  name      = "Studio A"
  public    = true
  player_id = videohost_player_theme.brand.id
  # The image viewers see before the broadcast starts; removing it deletes it.
  thumbnail_file = "${path.module}/media/studio-poster.jpg"

  restreams = [
    {
      # Kept in the state (sensitive): a change made outside Terraform is seen and put back.
      name       = "YouTube"
      server_url = "rtmp://a.rtmp.youtube.com/live2"
      stream_key = var.youtube_stream_key
    },
    {
      # Write-only (Terraform 1.11 and later): never kept in the plan or the state. Raise the
      # version whenever the key changes, so that it is sent again.
      name                  = "Twitch"
      server_url            = "rtmps://live.twitch.tv/app"
      stream_key_wo         = var.twitch_stream_key
      stream_key_wo_version = 1
    },
  ]
}

output "hls" {
  value = videohost_live_stream.studio.assets.hls
}

# What the encoder needs; read it with terraform output -raw ingest_key.
output "ingest_key" {
  value     = videohost_live_stream.studio.stream_key
  sensitive = true
}
