# Read one video by its id.
data "videohost_video" "intro" {
  id = "vi4blUQJFrYWbaG44NChkH27"
}

output "intro_player" {
  value = data.videohost_video.intro.assets.player
}
