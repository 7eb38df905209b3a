package provider

// This file holds the creation of webhooks and nothing else, because creating one is the only
// write of the provider whose failure can leave the service in an unknown state: a POST that
// fails after it reached the service may have stored a webhook. Re-sending it blindly would
// duplicate the webhook, and giving up would orphan it outside the state. The rules that avoid
// both (which webhook may be adopted, which ids are already taken, how often to try again) are
// easier to check, and to test without Terraform, when they stand alone.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const (
	// webhookCreateAttempts bounds the POSTs of one create whose outcomes stay unknown.
	webhookCreateAttempts = 3
	// webhookAdoptionLists bounds the lists made after one attempt while other creates keep
	// claiming the matching webhooks first.
	webhookAdoptionLists = 10
	// adoptionClockSkew is how much earlier than the local start of an attempt the service's
	// createdAt of the webhook it stored may be: the clocks of the two differ, and createdAt
	// may be cut to the second.
	adoptionClockSkew = 15 * time.Second
)

// claimWebhook marks the webhook id as taken by a create of this process (claimObject); false
// when it was taken already. One apply creates many webhooks at once, possibly with the same
// url and events; a webhook may be adopted by one create only, and never when another create
// received it as its own answer.
func claimWebhook(baseURL, id string) bool { return claimObject(baseURL, webhookAdoptionKind, id) }

// createWebhook creates one webhook and never leaves a duplicate or an orphan behind when an
// attempt's outcome is unknown: it then lists the webhooks and adopts the one that attempt
// stored, and sends the request again only when no such webhook appeared. Once ctx has ended
// (Terraform was interrupted), nothing is sent or listed any more: the outcome unknown so far is
// returned for the shared create machinery to settle (see findCreatedWebhook).
func createWebhook(ctx context.Context, pd *providerData, in videohost.CreateWebhookInput) (videohost.Webhook, error) {
	// seen are ids known to exist before the current attempt; nil until a first list is made.
	var seen map[string]bool
	var history []string
	for attempt := 1; attempt <= webhookCreateAttempts; attempt++ {
		start := time.Now()
		w, err := pd.client.CreateWebhook(ctx, in)
		switch {
		case err == nil:
			if claimWebhook(pd.baseURL, w.ID) {
				return w, nil
			}
			// Another create of this process adopted this webhook while its response was on
			// the way; that create's own request then stored one that nobody has yet.
			history = append(history, fmt.Sprintf("attempt %d: created %s, which another create had adopted", attempt, w.ID))
		case errors.Is(err, videohost.ErrAmbiguous):
			history = append(history, fmt.Sprintf("attempt %d: outcome unknown (%v)", attempt, err))
		default:
			return videohost.Webhook{}, err
		}
		if ctx.Err() != nil {
			return videohost.Webhook{}, &videohost.AmbiguousError{Method: "POST", Path: "/webhooks",
				Err: fmt.Errorf("interrupted: %s: %w", strings.Join(history, "; "), ctx.Err())}
		}

		tflog.Info(ctx, "looking for the webhook of a create whose outcome is unknown", map[string]any{
			"attempt": attempt, "url": in.URL,
		})
		adopted, ok, listed, lerr := findStoredWebhook(ctx, pd, in, start.Add(-adoptionClockSkew), seen)
		if lerr != nil {
			if ctx.Err() != nil {
				return videohost.Webhook{}, &videohost.AmbiguousError{Method: "POST", Path: "/webhooks",
					Err: fmt.Errorf("interrupted: %s: %w", strings.Join(history, "; "), ctx.Err())}
			}
			return videohost.Webhook{}, fmt.Errorf("creating the webhook failed with an unknown outcome (%s), and "+
				"listing the webhooks to find it failed too: %w; a webhook for %s may exist that Terraform does not "+
				"manage: check the list (data source videohost_webhooks) and import or delete it",
				history[len(history)-1], lerr, in.URL)
		}
		if ok {
			tflog.Info(ctx, "adopted the webhook stored by a create whose outcome was unknown", map[string]any{
				"webhook_id": adopted.ID, "attempt": attempt,
			})
			return adopted, nil
		}
		history = append(history, fmt.Sprintf("no new webhook for %s with the same events was listed", in.URL))
		seen = make(map[string]bool, len(listed))
		for _, l := range listed {
			seen[l.ID] = true
		}
	}
	return videohost.Webhook{}, &videohost.AmbiguousError{
		Method: "POST", Path: "/webhooks",
		Err: fmt.Errorf("gave up after %d attempts to create the webhook; %s", webhookCreateAttempts, strings.Join(history, "; ")),
	}
}

// findStoredWebhook lists the webhooks and adopts the one a create of in may have stored (see
// adoptWebhook); it returns the last list, so that a caller that sends again knows which ids
// existed before. While every matching webhook of a list is claimed by another create of the
// same webhook between the list and the claim, it lists again (at most webhookAdoptionLists
// times): each of those creates owns a webhook stored before its claim, so a new list shows one
// that is still free if this create stored one.
func findStoredWebhook(ctx context.Context, pd *providerData, in videohost.CreateWebhookInput, notBefore time.Time, seen map[string]bool) (w videohost.Webhook, ok bool, listed []videohost.Webhook, err error) {
	for look := 1; ; look++ {
		listed, err = pd.client.ListWebhooks(ctx, "")
		if err != nil {
			return videohost.Webhook{}, false, nil, err
		}
		adopted, ok, contended := adoptWebhook(pd.baseURL, listed, in, notBefore, seen)
		if ok || !contended || look >= webhookAdoptionLists {
			return adopted, ok, listed, nil
		}
	}
}

// webhookAdoptionKind names webhooks among the objects that creates claim.
const webhookAdoptionKind = "webhook"

// adoptWebhook picks, among listed, the webhook that a create of in may have stored: same url,
// same set of events, created no earlier than notBefore, absent from seen (the ids listed
// before the attempt, when known), and not claimed by another create (adoptListed, which
// claims the pick). contended reports that there were such webhooks but every one was claimed
// already.
func adoptWebhook(baseURL string, listed []videohost.Webhook, in videohost.CreateWebhookInput, notBefore time.Time, seen map[string]bool) (w videohost.Webhook, ok, contended bool) {
	want := sortedCopy(in.Events)
	return adoptListed(baseURL, adoptableCreate[videohost.Webhook]{
		kind:    webhookAdoptionKind,
		matches: func(w videohost.Webhook) bool { return w.URL == in.URL && slices.Equal(sortedCopy(w.Events), want) },
		id:      func(w videohost.Webhook) string { return w.ID },
		created: func(w videohost.Webhook) *time.Time { return &w.CreatedAt },
	}, listed, notBefore, seen)
}

// sortedCopy is s sorted, without repeats.
func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return slices.Compact(c)
}
