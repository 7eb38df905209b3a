# Every webhook of the workspace that subscribes to finished encodings.
data "videohost_webhooks" "encoding" {
  event = "video.encoding.quality.completed"
}

output "encoding_receivers" {
  value = [for w in data.videohost_webhooks.encoding.webhooks : w.url]
}

# Without a filter, every webhook of the workspace, all pages read.
data "videohost_webhooks" "all" {}

output "webhook_count" {
  value = length(data.videohost_webhooks.all.webhooks)
}
