import {
  to = videohost_player_theme.brand
  id = "pt3Ee9kP6Bz0fV2GwnD5yQdX"
}
