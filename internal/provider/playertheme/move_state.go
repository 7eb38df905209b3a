package playertheme

// The move of a player theme kept by the generic REST provider's restapi_object to
// videohost_player_theme (restapi_move.go has what the moves share).

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ resource.ResourceWithMoveState = (*playerThemeResource)(nil)

// MoveState takes a restapi_object of path /players.
func (r *playerThemeResource) MoveState(context.Context) []resource.StateMover {
	return framework.RestapiStateMovers("videohost_player_theme", "/players", func(_ context.Context, body []byte, id string) (any, error) {
		p, err := videohost.ParsePlayerTheme(body)
		if err != nil {
			return nil, err
		}
		if err := framework.SameID("player theme", p.ID, id); err != nil {
			return nil, err
		}
		p.ID = id
		m := PlayerThemeResourceModelFrom(p, nil)
		return &m, nil
	})
}
