# Read one webhook by its id, for example one created outside this configuration.
data "videohost_webhook" "existing" {
  id = "webhook_3kFOCM2GbqwV8mX7zR1aNn"
}

output "existing_webhook_events" {
  value = data.videohost_webhook.existing.events
}
