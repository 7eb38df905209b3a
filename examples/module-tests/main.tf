# A module a team shares: a webhook for a service's encoding events and a player theme in the
# team's colour. Its tests (tests/) run with `terraform test` or `tofu test`: the unit tests with
# a mocked provider, no service and no key; the integration test against the emulator.
#
# The required_providers block is what lets a test's mock_provider "videohost" stand in for this
# provider: without it, the name videohost means hashicorp/videohost, the mock binds to that
# address, and the real provider runs unconfigured ("Missing API Key").
terraform {
  required_version = ">= 1.11"
  required_providers {
    videohost = {
      source  = "videohost/videohost"
      version = "~> 0.1.0"
    }
  }
}

variable "name" {
  description = "The team's name, given to the player theme."
  type        = string
}

variable "alerts_url" {
  description = "The HTTPS address that receives the encoding events."
  type        = string

  validation {
    condition     = startswith(var.alerts_url, "https://")
    error_message = "alerts_url must be an https:// address: the service delivers signed events to HTTPS only in production."
  }
}

variable "brand_color" {
  description = "The colour of the player's controls, as rgba(R, G, B, A)."
  type        = string
  default     = "rgba(255, 80, 0, 1)"
}

resource "videohost_webhook" "encoding" {
  url    = var.alerts_url
  events = ["video.encoding.quality.completed", "video.source.recorded"]
}

resource "videohost_player_theme" "team" {
  name         = var.name
  track_played = var.brand_color
}

output "webhook_id" {
  description = "The webhook's id."
  value       = videohost_webhook.encoding.id
}

output "signature_secret" {
  description = "The secret that signs the webhook's deliveries, for the receiver."
  value       = videohost_webhook.encoding.signature_secret
  sensitive   = true
}

output "player_id" {
  description = "The player theme's id, for a live stream's or a video's player_id."
  value       = videohost_player_theme.team.id
}
