package livestream

// The move of a live stream kept by the generic REST provider's restapi_object to
// videohost_live_stream (restapi_move.go has what the moves share).

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ resource.ResourceWithMoveState = (*liveStreamResource)(nil)

// MoveState takes a restapi_object of path /live-streams. Its restreams are kept with their
// keys as the service gave them; a configuration with write-only keys sends them on the first
// apply.
func (r *liveStreamResource) MoveState(context.Context) []resource.StateMover {
	return framework.RestapiStateMovers("videohost_live_stream", "/live-streams", func(ctx context.Context, body []byte, id string) (any, error) {
		ls, err := videohost.ParseLiveStream(body)
		if err != nil {
			return nil, err
		}
		if err := framework.SameID("live stream", ls.ID, id); err != nil {
			return nil, err
		}
		ls.ID = id
		m, diags := LiveStreamResourceModelFrom(ctx, ls, nil, false)
		if diags.HasError() {
			return nil, fmt.Errorf("its restreams or assets cannot be read")
		}
		if ls.StreamKey == "" {
			m.StreamKey = types.StringNull()
		}
		return &m, nil
	})
}
