package emulator

import (
	"strconv"
	"strings"
)

// assetsWire is where a video or a live stream can be watched, as the service sends it.
type assetsWire struct {
	HLS       string `json:"hls"`
	Iframe    string `json:"iframe"`
	Player    string `json:"player"`
	Thumbnail string `json:"thumbnail"`
}

// videoAssetsWire is a video's assets: a live stream's, and an MP4 file when the video has one.
type videoAssetsWire struct {
	assetsWire
	MP4 string `json:"mp4,omitempty"`
}

// Addresses of a live stream's assets, as the contract gives them.
const (
	liveBase      = "https://live.api.video/"
	liveEmbedBase = "https://embed.api.video/live/"
)

// Addresses of the emulated videos' outputs. The .invalid top-level domain is reserved, so
// nobody mistakes them for the real service's content.
const (
	vodBase   = "https://vod.videohost.invalid/vod/"
	embedBase = "https://embed.videohost.invalid/"
)

// liveStreamAssets is the assets of live stream id; a thumbnail version above 0 is that of an
// uploaded thumbnail, whose address is its own.
func liveStreamAssets(id string, thumbnailVersion int) assetsWire {
	thumbnail := liveBase + id + "/thumbnail.jpg"
	if thumbnailVersion > 0 {
		thumbnail += "?v=" + strconv.Itoa(thumbnailVersion)
	}
	return newAssets(liveBase+id+".m3u8", liveEmbedBase+id, thumbnail)
}

// videoAssets is the assets of video id; mp4 tells whether it has an MP4 file.
func videoAssets(id string, mp4 bool) videoAssetsWire {
	out := videoAssetsWire{assetsWire: newAssets(vodBase+id+"/hls/manifest.m3u8", embedBase+"vod/"+id, vodBase+id+"/thumbnail.jpg")}
	if mp4 {
		out.MP4 = vodBase + id + "/mp4/source.mp4"
	}
	return out
}

// newAssets is the assets whose player is at player: the iframe embeds that player.
func newAssets(hls, player, thumbnail string) assetsWire {
	return assetsWire{
		HLS:       hls,
		Iframe:    `<iframe src="` + player + `" width="100%" height="100%" frameborder="0" scrolling="no" allowfullscreen="true"></iframe>`,
		Player:    player,
		Thumbnail: thumbnail,
	}
}

// privateAssets is a as a private video's read shows it: every address with a new token.
func privateAssets(a videoAssetsWire) videoAssetsWire {
	token := "token=" + randomID("", 22)
	add := func(u string) string {
		if u == "" {
			return u
		}
		if strings.Contains(u, "?") {
			return u + "&" + token
		}
		return u + "?" + token
	}
	player := add(a.Player)
	out := videoAssetsWire{assetsWire: newAssets(add(a.HLS), player, add(a.Thumbnail)), MP4: add(a.MP4)}
	return out
}
