# Every player theme of the workspace (up to 1000), with all of its attributes.
list "videohost_player_theme" "all" {
  provider         = videohost
  include_resource = true
  limit            = 1000
}
