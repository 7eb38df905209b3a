package webhook

// What the webhook's create and delete send: its writeTarget, and the shared create machinery's
// and the adoption's parts for a webhook.

import (
	"context"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// WebhookWrites names the webhook for the shared create and delete machinery.
var WebhookWrites = framework.WriteTarget{Kind: "Webhook", DeleteByID: (*videohost.Client).DeleteWebhook, Attrs: WebhookAttributePaths}

// WebhookCreateOps are the webhook's parts of the shared create machinery: the create, which
// adopts what a create of unknown outcome stored (adoption.go), and the read of the signature
// secret, which the create's response may omit (the specification's samples do) and the list
// carries.
func WebhookCreateOps(pd *framework.ProviderData, in videohost.CreateWebhookInput) framework.CreateOps[videohost.Webhook] {
	ops := framework.AdoptionCreateOps(pd, WebhookAdoptable(pd, in))
	ops.Complete = func(ctx context.Context, w videohost.Webhook) videohost.Webhook {
		if w.SignatureSecret != "" {
			return w
		}
		if listed, err := pd.Client.LookupWebhook(ctx, w.ID); err == nil {
			w.SignatureSecret = listed.SignatureSecret
		} else {
			tflog.Warn(ctx, "could not read the signature secret of a new webhook", map[string]any{"webhook_id": w.ID, "error": err.Error()})
		}
		return w
	}
	return ops
}

// WebhookAdoptable is the create of in for the adoption of unknown outcomes (adoption.go): a
// webhook with the same url and the same set of events, created since the attempt, is the one
// it stored. One apply creates many webhooks at once, possibly with the same url and events;
// claims keep each one to one create.
func WebhookAdoptable(pd *framework.ProviderData, in videohost.CreateWebhookInput) framework.AdoptableCreate[videohost.Webhook] {
	want := SortedCopy(in.Events)
	return framework.AdoptableCreate[videohost.Webhook]{
		Kind: "webhook", Path: "/webhooks",
		Create:  func(ctx context.Context) (videohost.Webhook, error) { return pd.Client.CreateWebhook(ctx, in) },
		List:    func(ctx context.Context) ([]videohost.Webhook, error) { return pd.Client.ListWebhooks(ctx, "") },
		Matches: func(w videohost.Webhook) bool { return w.URL == in.URL && slices.Equal(SortedCopy(w.Events), want) },
		Id:      func(w videohost.Webhook) string { return w.ID },
		Created: func(w videohost.Webhook) *time.Time { return &w.CreatedAt },
	}
}

// SortedCopy is s sorted, without repeats.
func SortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}
