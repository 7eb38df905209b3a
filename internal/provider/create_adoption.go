package provider

// This file holds the creation of the objects the service updates in place (live streams and
// player themes) when a create's outcome is unknown: a POST that failed after it reached the
// service may have stored the object. Sending it again blindly would make a second one (a
// second live stream has its own ingest key), and giving up would leave one outside the state.
// So the objects are listed, the one the attempt stored is adopted, and the POST is sent again
// only when none appeared. The webhook has its own, older version of these rules in
// webhook_create.go.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// adoptionCreateAttempts bounds the POSTs of one create whose outcomes stay unknown.
const adoptionCreateAttempts = 3

// claimedObjects are the objects that a create of this process returned or adopted, keyed by
// service address, kind and id: an object may be adopted by one create only, and never when
// another create received it as its own answer.
var claimedObjects = struct {
	sync.Mutex
	ids map[string]struct{}
}{ids: map[string]struct{}{}}

// claimObject marks the object id of kind as taken; false when it was taken already.
func claimObject(baseURL, kind, id string) bool {
	claimedObjects.Lock()
	defer claimedObjects.Unlock()
	k := baseURL + "\x00" + kind + "\x00" + id
	if _, taken := claimedObjects.ids[k]; taken {
		return false
	}
	claimedObjects.ids[k] = struct{}{}
	return true
}

// adoptableCreate describes one create for createAdopting.
type adoptableCreate[T any] struct {
	kind string // what is created, for messages: "live stream"
	path string // the collection it is created in: "/live-streams"
	// create sends the POST once.
	create func(context.Context) (T, error)
	// list lists the objects that may be the one created (a server-side filter may narrow it).
	list func(context.Context) ([]T, error)
	// matches reports whether a listed object holds every value the create sent.
	matches func(T) bool
	id      func(T) string
	created func(T) *time.Time
}

// createAdopting creates one object and never leaves a duplicate or an orphan behind when an
// attempt's outcome is unknown (see the top of this file).
func createAdopting[T any](ctx context.Context, pd *providerData, a adoptableCreate[T]) (T, error) {
	var zero T
	// seen are the ids listed after an earlier attempt: they are not what a later attempt made.
	var seen map[string]bool
	var history []string
	for attempt := 1; attempt <= adoptionCreateAttempts; attempt++ {
		start := time.Now()
		got, err := a.create(ctx)
		switch {
		case err == nil:
			if claimObject(pd.baseURL, a.kind, a.id(got)) {
				return got, nil
			}
			history = append(history, fmt.Sprintf("attempt %d: created %s, which another create had adopted", attempt, a.id(got)))
		case errors.Is(err, videohost.ErrAmbiguous):
			history = append(history, fmt.Sprintf("attempt %d: outcome unknown (%v)", attempt, err))
		default:
			return zero, err
		}
		if ctx.Err() != nil {
			// Interrupted: nothing more is sent or listed on this context; the shared create
			// machinery (resource_writes.go) settles the unknown outcome with adoptionCreateOps'
			// find.
			return zero, &videohost.AmbiguousError{Method: "POST", Path: a.path,
				Err: fmt.Errorf("interrupted: %s: %w", strings.Join(history, "; "), ctx.Err())}
		}

		tflog.Info(ctx, "looking for the "+a.kind+" of a create whose outcome is unknown", map[string]any{"attempt": attempt})
		listed, lerr := a.list(ctx)
		if lerr != nil {
			return zero, fmt.Errorf("creating the %s failed with an unknown outcome (%s), and listing them to find it "+
				"failed too: %w; a %s may exist that Terraform does not manage: list them and import or delete it",
				a.kind, history[len(history)-1], lerr, a.kind)
		}
		if got, ok, _ := adoptListed(pd.baseURL, a, listed, start.Add(-adoptionClockSkew), seen); ok {
			tflog.Info(ctx, "adopted the "+a.kind+" stored by a create whose outcome was unknown", map[string]any{
				"id": a.id(got), "attempt": attempt,
			})
			return got, nil
		}
		history = append(history, "no new "+a.kind+" with the same values was listed")
		seen = make(map[string]bool, len(listed))
		for _, l := range listed {
			seen[a.id(l)] = true
		}
	}
	return zero, &videohost.AmbiguousError{
		Method: "POST", Path: a.path,
		Err: fmt.Errorf("gave up after %d attempts to create the %s; %s", adoptionCreateAttempts, a.kind, strings.Join(history, "; ")),
	}
}

// adoptionCreateOps are the parts of the shared create machinery (resource_writes.go) for a
// create that adopts what an unknown outcome stored: the create itself, and the search for
// what an interrupted create stored.
func adoptionCreateOps[T any](pd *providerData, a adoptableCreate[T]) createOps[T] {
	start := time.Now()
	return createOps[T]{
		send: func(ctx context.Context) (T, error) { return createAdopting(ctx, pd, a) },
		find: func(ctx context.Context) (T, bool, error) {
			listed, err := a.list(ctx)
			if err != nil {
				var zero T
				return zero, false, err
			}
			got, ok, _ := adoptListed(pd.baseURL, a, listed, start.Add(-adoptionClockSkew), nil)
			return got, ok, nil
		},
		id: a.id,
	}
}

// adoptListed picks, among listed, the oldest object that the create may have stored (same
// values, created no earlier than notBefore, not in seen, not claimed) and claims it.
// contended reports that there were such objects but every one was claimed already.
func adoptListed[T any](baseURL string, a adoptableCreate[T], listed []T, notBefore time.Time, seen map[string]bool) (obj T, ok, contended bool) {
	var candidates []T
	for _, l := range listed {
		c := a.created(l)
		if seen[a.id(l)] || (c != nil && c.Before(notBefore)) || !a.matches(l) {
			continue
		}
		candidates = append(candidates, l)
	}
	// The oldest first, so that concurrent creates of the same values agree on an order and
	// each takes the first one still free.
	sort.SliceStable(candidates, func(i, j int) bool {
		ci, cj := a.created(candidates[i]), a.created(candidates[j])
		if ci != nil && cj != nil && !ci.Equal(*cj) {
			return ci.Before(*cj)
		}
		return a.id(candidates[i]) < a.id(candidates[j])
	})
	for _, c := range candidates {
		if claimObject(baseURL, a.kind, a.id(c)) {
			return c, true, false
		}
	}
	var zero T
	return zero, false, len(candidates) > 0
}
