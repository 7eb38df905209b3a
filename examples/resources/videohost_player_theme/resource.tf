# The player of the brand's embeds: the attributes left out take the service's defaults, and
# removing one later puts its default back.
resource "videohost_player_theme" "brand" {
  name              = "Brand"
  track_played      = "rgba(88, 131, 255, .95)"
  background_top    = "rgba(10, 10, 30, .8)"
  background_bottom = "rgba(10, 10, 30, .8)"
  hide_title        = true

  # A PNG or JPEG of at most 200 × 100 pixels and 100 KiB, checked when the plan is made; a new
  # image in the file is uploaded again in place.
  logo_file = "${path.module}/brand-logo.png"
  logo_link = "https://example.com"
}
