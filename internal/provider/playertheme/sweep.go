package playertheme

import (
	"context"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Sweeper lists the player themes and deletes those make sweep selects (their name carries the tests' prefix).
func Sweeper() sweep.Sweeper {
	return sweep.Sweeper{
		Name: "videohost_player_theme", Kind: "player theme",
		// Live streams and videos name their player theme: they go first.
		Dependencies: []string{"videohost_live_stream", "videohost_video"},
		List: func(ctx context.Context, c *videohost.Client) ([]sweep.Object, error) {
			items, err := c.ListPlayerThemes(ctx, videohost.PlayerThemeFilter{})
			return sweep.Objects("player theme", items, err, func(o videohost.PlayerTheme) (string, string) { return o.ID, o.Name })
		},
		Delete: (*videohost.Client).DeletePlayerTheme,
	}
}
