# Read one live stream by its id. Its stream key is sensitive and stays out of the plan output.
data "videohost_live_stream" "studio" {
  id = "li400mYKSgQ6xs7taUeSaEKr"
}

output "studio_is_live" {
  value = data.videohost_live_stream.studio.broadcasting
}
