# Every live stream of the workspace (up to 1000), with all of its attributes.
list "videohost_live_stream" "all" {
  provider         = videohost
  include_resource = true
  limit            = 1000
}

# Only the live streams whose name contains "Studio".
list "videohost_live_stream" "studios" {
  provider = videohost

  config {
    name = "Studio"
  }
}
