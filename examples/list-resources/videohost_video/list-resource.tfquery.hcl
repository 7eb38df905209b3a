# The videos whose title contains "launch" and that carry the tag "2026", with what the service
# shows of them; add each one's source to the generated configuration.
list "videohost_video" "launch" {
  provider         = videohost
  include_resource = true
  config {
    title = "launch"
    tags  = ["2026"]
  }
}
