// Package playertheme holds the player theme kind: the `videohost_player_theme` resource (and
// its list resource), the `videohost_player_theme` and `videohost_player_themes` data sources; the
// theme's logo (logo_file, logo_link) in its plan checks (plan.go) and writes (writes.go), and
// its move from restapi_object (move_state.go).
package playertheme
