package provider

// What the webhook's create and delete send: its writeTarget, and the shared create machinery's
// and the adoption's parts for a webhook.

import (
	"context"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// webhookWrites names the webhook for the shared create and delete machinery.
var webhookWrites = writeTarget{kind: "Webhook", deleteByID: (*videohost.Client).DeleteWebhook, attrs: webhookAttributePaths}

// webhookCreateOps are the webhook's parts of the shared create machinery: the create, which
// adopts what a create of unknown outcome stored (adoption.go), and the read of the signature
// secret, which the create's response may omit (the specification's samples do) and the list
// carries.
func webhookCreateOps(pd *providerData, in videohost.CreateWebhookInput) createOps[videohost.Webhook] {
	ops := adoptionCreateOps(pd, webhookAdoptable(pd, in))
	ops.complete = func(ctx context.Context, w videohost.Webhook) videohost.Webhook {
		if w.SignatureSecret != "" {
			return w
		}
		if listed, err := pd.client.LookupWebhook(ctx, w.ID); err == nil {
			w.SignatureSecret = listed.SignatureSecret
		} else {
			tflog.Warn(ctx, "could not read the signature secret of a new webhook", map[string]any{"webhook_id": w.ID, "error": err.Error()})
		}
		return w
	}
	return ops
}

// webhookAdoptable is the create of in for the adoption of unknown outcomes (adoption.go): a
// webhook with the same url and the same set of events, created since the attempt, is the one
// it stored. One apply creates many webhooks at once, possibly with the same url and events;
// claims keep each one to one create.
func webhookAdoptable(pd *providerData, in videohost.CreateWebhookInput) adoptableCreate[videohost.Webhook] {
	want := sortedCopy(in.Events)
	return adoptableCreate[videohost.Webhook]{
		kind: "webhook", path: "/webhooks",
		create:  func(ctx context.Context) (videohost.Webhook, error) { return pd.client.CreateWebhook(ctx, in) },
		list:    func(ctx context.Context) ([]videohost.Webhook, error) { return pd.client.ListWebhooks(ctx, "") },
		matches: func(w videohost.Webhook) bool { return w.URL == in.URL && slices.Equal(sortedCopy(w.Events), want) },
		id:      func(w videohost.Webhook) string { return w.ID },
		created: func(w videohost.Webhook) *time.Time { return &w.CreatedAt },
	}
}

// sortedCopy is s sorted, without repeats.
func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}
