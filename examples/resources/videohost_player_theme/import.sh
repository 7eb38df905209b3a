# A player theme is imported by its playerId, as the service returns it.
terraform import videohost_player_theme.brand pt3Ee9kP6Bz0fV2GwnD5yQdX
