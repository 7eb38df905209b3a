# Plays counted: a video, and its plays over the last day, in all and per country. Against the
# local emulator, which counts the plays recorded through its control API:
#
#   videohost-emulator -api-key test-key &
#   export VIDEOHOST_BASE_URL=http://127.0.0.1:8080 VIDEOHOST_API_KEY=test-key
#   terraform apply                  # plays = 0
#   curl -X POST http://127.0.0.1:8080/_emulator/plays -H 'Content-Type: application/json' \
#     -d "{\"mediaId\": \"$(terraform output -raw video_id)\", \"country\": \"FR\", \"count\": 3}"
#   terraform apply                  # plays = 3, plays_by_country = { FR = 3 }
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

resource "videohost_video" "trailer" {
  title      = "Trailer"
  source_url = "https://media.example.com/trailer.mp4"
}

data "videohost_analytics_metric" "plays" {
  metric      = "play"
  aggregation = "count"
  filter_by = {
    media_id = [videohost_video.trailer.id]
  }
}

data "videohost_analytics_breakdown" "countries" {
  metric    = "play"
  breakdown = "country"
  filter_by = {
    media_id = [videohost_video.trailer.id]
  }
}

output "video_id" {
  value = videohost_video.trailer.id
}

output "plays" {
  value = data.videohost_analytics_metric.plays.value
}

output "plays_by_country" {
  value = { for b in data.videohost_analytics_breakdown.countries.buckets : b.dimension_value => b.metric_value }
}
