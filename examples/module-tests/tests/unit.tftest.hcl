# Unit tests: the provider is mocked, so they need no service, no key and no network. The
# mock_provider "videohost" stands in for videohost/videohost because main.tf names that source
# in required_providers; computed attributes get the defaults below, or generated strings.
mock_provider "videohost" {
  mock_resource "videohost_webhook" {
    defaults = {
      id               = "hook_mocked"
      signature_secret = "mocked-secret"
    }
  }
  mock_resource "videohost_player_theme" {
    defaults = {
      id = "pt_mocked"
    }
  }
}

variables {
  name       = "Team A"
  alerts_url = "https://hooks.example.com/videohost"
}

run "subscribes_the_webhook_to_encoding_events" {
  command = apply

  assert {
    condition     = videohost_webhook.encoding.url == "https://hooks.example.com/videohost"
    error_message = "The webhook does not point at alerts_url."
  }
  assert {
    condition     = contains(videohost_webhook.encoding.events, "video.encoding.quality.completed")
    error_message = "The webhook is not subscribed to video.encoding.quality.completed."
  }
  assert {
    condition     = output.webhook_id == "hook_mocked" && output.player_id == "pt_mocked"
    error_message = "The outputs do not carry the ids of the resources."
  }
}

run "names_the_theme_and_colours_it" {
  command = plan

  variables {
    brand_color = "rgba(0, 120, 255, 1)"
  }

  assert {
    condition     = videohost_player_theme.team.name == "Team A" && videohost_player_theme.team.track_played == "rgba(0, 120, 255, 1)"
    error_message = "The player theme does not carry the team's name and colour."
  }
}

run "refuses_a_plain_http_address" {
  command = plan

  variables {
    alerts_url = "http://hooks.example.com/videohost"
  }

  expect_failures = [var.alerts_url]
}
