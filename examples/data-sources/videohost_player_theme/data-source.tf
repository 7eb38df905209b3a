# The theme a live stream wears, read by its id.
data "videohost_live_stream" "studio" {
  id = "li4pqNqGUkhKfWcBGpZVLRY5"
}

data "videohost_player_theme" "current" {
  id = data.videohost_live_stream.studio.player_id
}

output "played_colour" {
  value = data.videohost_player_theme.current.track_played
}
