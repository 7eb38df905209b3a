# Every webhook of the workspace (up to 1000), with all of its attributes.
list "videohost_webhook" "all" {
  provider         = videohost
  include_resource = true
  limit            = 1000
}

# Only the webhooks subscribed to one event.
list "videohost_webhook" "recordings" {
  provider = videohost

  config {
    event = "video.source.recorded"
  }
}
