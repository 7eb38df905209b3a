package webhook

// The move of a webhook kept by the generic REST provider's restapi_object to videohost_webhook
// (restapi_move.go has what the moves share).

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

var _ resource.ResourceWithMoveState = (*webhookResource)(nil)

// MoveState takes a restapi_object of path /webhooks. The signature secret is taken from the
// kept answer when it has one; else the refresh reads it from the service's list of webhooks,
// as it does after an import: it is never rotated.
func (r *webhookResource) MoveState(context.Context) []resource.StateMover {
	return framework.RestapiStateMovers("videohost_webhook", "/webhooks", func(ctx context.Context, body []byte, id string) (any, error) {
		w, err := videohost.ParseWebhook(body)
		if err != nil {
			return nil, err
		}
		if err := framework.SameID("webhook", w.ID, id); err != nil {
			return nil, err
		}
		w.ID = id
		m, diags := WebhookModelFrom(ctx, w, types.StringNull())
		if diags.HasError() {
			return nil, fmt.Errorf("its events cannot be read")
		}
		if w.URL == "" {
			m.URL = types.StringNull()
		}
		return &m, nil
	})
}
