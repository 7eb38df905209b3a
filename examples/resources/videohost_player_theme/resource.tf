# The player of the brand's embeds: the attributes left out take the service's defaults, and
# removing one later puts its default back.
resource "videohost_player_theme" "brand" {
  name              = "Brand"
  track_played      = "rgba(88, 131, 255, .95)"
  background_top    = "rgba(10, 10, 30, .8)"
  background_bottom = "rgba(10, 10, 30, .8)"
  hide_title        = true
}
