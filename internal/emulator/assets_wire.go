package emulator

// assetsWire is where a video or a live stream can be watched, as the service sends it.
type assetsWire struct {
	HLS       string `json:"hls"`
	Iframe    string `json:"iframe"`
	Player    string `json:"player"`
	Thumbnail string `json:"thumbnail"`
}

// newAssets is the assets of a video or a live stream whose player is at player: the iframe
// embeds that player.
func newAssets(hls, player, thumbnail string) assetsWire {
	return assetsWire{
		HLS:       hls,
		Iframe:    `<iframe src="` + player + `" width="100%" height="100%" frameborder="0" scrolling="no" allowfullscreen="true"></iframe>`,
		Player:    player,
		Thumbnail: thumbnail,
	}
}
