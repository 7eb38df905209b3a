# Every player theme of the account, by name.
data "videohost_player_themes" "all" {
  sort_by    = "name"
  sort_order = "asc"
}

output "theme_ids_by_name" {
  value = { for t in data.videohost_player_themes.all.player_themes : coalesce(t.name, t.id) => t.id }
}
