package framework

// This file is the one home of every create whose outcome is unknown: a POST (or an upload)
// that failed after it reached the service may have stored the object (the client reports it
// as videohost.ErrAmbiguous: sent and no answer, or stored and then a 5xx). Sending it again
// blindly would make a second object (a second live stream has its own ingest key, a second
// upload token is a credential nobody knows to revoke), and giving up would leave one outside
// the state. So after such an attempt the objects are listed, the one the attempt stored is
// adopted, and the create is sent again only when none appeared (at most
// adoptionCreateAttempts times in all). A list that fails while it looks for what an attempt
// stored is tried again (adoptionListTries): giving up at once would leave that object out.
//
// How the stored object is recognised, per kind:
//
//   - webhook: same url and the same set of events, created no earlier than the attempt (less
//     adoptionClockSkew), not listed after an earlier attempt, not claimed;
//   - live stream: same name (the service's name filter), visibility, player and restreams;
//   - player theme: every value the create sent (the service has no filter on themes);
//   - video: same title (the service's title filter), description, visibility, tags, player
//     and metadata count;
//   - caption and chapter: the service holds one per video and language, so the one present
//     after the attempt is ours if it was absent before the first attempt (listed first). One
//     present before the first attempt is the "already exists, import it" refusal; one that
//     appears after is never refused, since this provider stored it;
//   - watermark and upload token: the service keeps no name or content of them, only their
//     creation time (and a token's ttl). So the objects are listed before the first attempt,
//     and the candidates are those listed after the attempt and not before (the two lists bound
//     the attempt's window on the service's own clock, whatever the local clock says), with the
//     same ttl for a token. Creates of these kinds are sent one at a time per provider, so that
//     no other create of this provider falls in that window. When two or more candidates appear,
//     another client created one during the attempt and nothing tells which is ours: none is
//     adopted and none deleted (it may be another's credential), and the create fails naming
//     the candidates (a token by its fingerprint, never the token) and what to do.
//
// Claims (an object may be adopted by one create only, and never when another create received
// it as its answer) are kept per provider instance, in its providerData.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const (
	// AdoptionCreateAttempts bounds the attempts of one create whose outcomes stay unknown.
	AdoptionCreateAttempts = 3
	// adoptionLists bounds the lists made after one attempt while other creates keep claiming
	// the matching objects first.
	adoptionLists = 10
	// adoptionListTries bounds the lists tried, each after the client's own retries, when the
	// list that would find what an attempt stored fails; adoptionListPause is the first pause
	// between two of them, doubled after each. Giving up leaves what the attempt stored outside
	// the state, so this search is more patient than an ordinary read.
	adoptionListTries = 4
	adoptionListPause = 500 * time.Millisecond
	// adoptionClockSkew is how much earlier than the local start of an attempt the service's
	// createdAt of the object it stored may be: the clocks of the two differ, and createdAt
	// may be cut to the second.
	adoptionClockSkew = 15 * time.Second
)

// adoptionClaims are the objects that the creates of one provider instance returned or
// adopted, and the locks that send the creates of some kinds one at a time. The zero value is
// ready to use.
type adoptionClaims struct {
	mu      sync.Mutex
	claimed map[string]struct{}
	serial  map[string]*sync.Mutex
}

// Claim marks the object id of kind as taken; false when it was taken already.
func (c *adoptionClaims) Claim(kind, id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	k := kind + "\x00" + id
	if _, taken := c.claimed[k]; taken {
		return false
	}
	if c.claimed == nil {
		c.claimed = map[string]struct{}{}
	}
	c.claimed[k] = struct{}{}
	return true
}

// taken reports whether the object id of kind was claimed.
func (c *adoptionClaims) taken(kind, id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.claimed[kind+"\x00"+id]
	return ok
}

// one takes the lock of kind's creates and returns its release.
func (c *adoptionClaims) one(kind string) func() {
	c.mu.Lock()
	if c.serial == nil {
		c.serial = map[string]*sync.Mutex{}
	}
	m := c.serial[kind]
	if m == nil {
		m = &sync.Mutex{}
		c.serial[kind] = m
	}
	c.mu.Unlock()
	m.Lock()
	return m.Unlock
}

// AdoptableCreate describes one create for createAdopting.
type AdoptableCreate[T any] struct {
	Kind string // what is created, for messages: "live stream"
	Path string // the collection it is created in: "/live-streams"
	// Create sends the create once.
	Create func(context.Context) (T, error)
	// List lists the objects that may be the one created (a server-side filter may narrow it).
	List func(context.Context) ([]T, error)
	// Matches reports whether a listed object holds every value the create sent.
	Matches func(T) bool
	Id      func(T) string
	// Created is the object's creation time; nil when the kind is recognised by the lists
	// before and after the attempt instead.
	Created func(T) *time.Time
	// ListFirst lists before the first attempt: what is listed then is not what a create stores.
	ListFirst bool
	// Existing, with listFirst, refuses the create when the first list holds a match.
	Existing func(found T) error
	// Sole makes two or more candidates an error (adoptionError) rather than a choice of the
	// oldest, and sends the kind's creates one at a time: the kind has nothing to tell whose
	// create stored which.
	Sole bool
	// Slot is a kind the service addresses by what the create sends (a caption: its video and
	// language): there is one per address, the resource owns it, and it is never claimed.
	Slot bool
	// Shown names an object in messages; id when nil.
	Shown func(T) string
	// TooManyAdvice, when set, is what a sole kind's refusal of several candidates tells the
	// user to do, given the kind; the default advice (delete the unused ones, or import the one
	// to keep) does not fit an ephemeral object, which no state holds.
	TooManyAdvice func(candidates []T) string
}

// AdoptionError is a create that the adoption refused or could not settle, with the diagnostic
// to show; attr is empty when the diagnostic is on no attribute.
type AdoptionError struct {
	Attr            path.Path
	Summary, Detail string
}

func (e *AdoptionError) Error() string { return e.Summary + ": " + e.Detail }

// Adoption is one create in progress: what it listed, so that the search for what an
// interrupted attempt stored excludes what existed before.
type Adoption[T any] struct {
	Pd    *ProviderData
	A     AdoptableCreate[T]
	Start time.Time
	Seen  map[string]bool // ids known to exist before the current attempt; nil until a list
}

// CreateAdopting creates one object and never leaves a duplicate or an orphan behind when an
// attempt's outcome is unknown (see the top of this file).
func CreateAdopting[T any](ctx context.Context, pd *ProviderData, a AdoptableCreate[T]) (T, error) {
	return (&Adoption[T]{Pd: pd, A: a, Start: time.Now()}).Send(ctx)
}

// Send runs the attempts of the create.
func (d *Adoption[T]) Send(ctx context.Context) (T, error) {
	var zero T
	a := d.A
	if a.Sole {
		defer d.Pd.Adoption.one(a.Kind)()
	}
	if err := d.listFirst(ctx); err != nil {
		return zero, err
	}
	var history []string
	for attempt := 1; attempt <= AdoptionCreateAttempts; attempt++ {
		d.Start = time.Now()
		got, err := a.Create(ctx)
		switch {
		case err == nil:
			if d.Claim(got) {
				return got, nil
			}
			history = append(history, fmt.Sprintf("attempt %d: created %s, which another create had adopted", attempt, d.shown(got)))
		case errors.Is(err, videohost.ErrAmbiguous):
			history = append(history, fmt.Sprintf("attempt %d: outcome unknown (%v)", attempt, err))
		default:
			return zero, err
		}
		if ctx.Err() != nil {
			// Interrupted: nothing more is sent or listed on this context; the shared create
			// machinery (writes.go) settles the unknown outcome with find.
			return zero, d.interrupted(ctx, history)
		}
		tflog.Info(ctx, "looking for the "+a.Kind+" of a create whose outcome is unknown", map[string]any{"attempt": attempt})
		got, ok, lerr := d.Find(ctx)
		switch {
		case lerr != nil && ctx.Err() != nil:
			return zero, d.interrupted(ctx, history)
		case lerr != nil:
			var ae *AdoptionError
			if errors.As(lerr, &ae) {
				return zero, lerr
			}
			return zero, fmt.Errorf("creating the %s failed with an unknown outcome (%s), and listing the %ss to find it "+
				"failed too: %w; a %s may exist that Terraform does not manage: list them and import or delete it",
				a.Kind, history[len(history)-1], a.Kind, lerr, a.Kind)
		case ok:
			tflog.Info(ctx, "adopted the "+a.Kind+" stored by a create whose outcome was unknown", map[string]any{
				"id": d.shown(got), "attempt": attempt,
			})
			return got, nil
		}
		history = append(history, "no new "+a.Kind+" with the same values was listed")
	}
	return zero, &videohost.AmbiguousError{
		Method: "POST", Path: a.Path,
		Err: fmt.Errorf("gave up after %d attempts to create the %s; %s", AdoptionCreateAttempts, a.Kind, strings.Join(history, "; ")),
	}
}

// listFirst lists the kind before the first attempt when it asks for it, and refuses a create
// whose object exists already when the kind says so.
func (d *Adoption[T]) listFirst(ctx context.Context) error {
	if !d.A.ListFirst {
		return nil
	}
	listed, err := d.A.List(ctx)
	if err != nil {
		return err
	}
	d.remember(listed)
	if d.A.Existing == nil {
		return nil
	}
	for _, l := range listed {
		if d.A.Matches(l) {
			return d.A.Existing(l)
		}
	}
	return nil
}

// interrupted is the unknown outcome of an interrupted create, for the shared create
// machinery to settle.
func (d *Adoption[T]) interrupted(ctx context.Context, history []string) error {
	return &videohost.AmbiguousError{Method: "POST", Path: d.A.Path,
		Err: fmt.Errorf("interrupted: %s: %w", strings.Join(history, "; "), ctx.Err())}
}

// Find lists the objects and adopts the one the last attempt may have stored; the ids listed
// are remembered, so that a later attempt does not take them for its own. While every
// candidate of a list is claimed by another create of the same values between the list and the
// claim, it lists again (at most adoptionLists times): each of those creates owns an object
// stored before its claim, so a new list shows one that is still free if this create stored one.
func (d *Adoption[T]) Find(ctx context.Context) (T, bool, error) {
	for look := 1; ; look++ {
		listed, err := d.listPatiently(ctx)
		if err != nil {
			var zero T
			return zero, false, err
		}
		got, ok, contended, err := d.Pick(listed)
		if ok || err != nil || !contended || look >= adoptionLists {
			d.remember(listed)
			return got, ok, err
		}
	}
}

// listPatiently lists the kind for find. A list that fails for a reason that may pass (a 5xx,
// a 429, a lost connection: anything but the service's refusal of the request) is tried again
// after a pause, at most adoptionListTries times in all.
func (d *Adoption[T]) listPatiently(ctx context.Context) ([]T, error) {
	pause := adoptionListPause
	for try := 1; ; try++ {
		listed, err := d.A.List(ctx)
		if err == nil || try >= adoptionListTries || ctx.Err() != nil || refusedRequest(err) {
			return listed, err
		}
		tflog.Warn(ctx, "listing the "+d.A.Kind+"s to find what a create of unknown outcome stored failed; listing again",
			map[string]any{"try": try, "error": err.Error()})
		select {
		case <-ctx.Done():
			return nil, err
		case <-time.After(pause):
		}
		pause *= 2
	}
}

// refusedRequest reports whether err is the service's answer that the request itself is wrong
// (a 4xx other than 429), which asking again would not change.
func refusedRequest(err error) bool {
	var e *videohost.Error
	return errors.As(err, &e) && e.Status >= 400 && e.Status < 500 && e.Status != http.StatusTooManyRequests
}

// remember adds the ids of listed to those known before the next attempt.
func (d *Adoption[T]) remember(listed []T) {
	if d.Seen == nil {
		d.Seen = make(map[string]bool, len(listed))
	}
	for _, l := range listed {
		d.Seen[d.A.Id(l)] = true
	}
}

// Pick chooses, among listed, the object that the attempt may have stored (same values,
// created no earlier than the attempt, not known before it, not claimed) and claims it: the
// oldest, or for a sole kind the only one. contended reports that there were such objects
// but every one was claimed already.
func (d *Adoption[T]) Pick(listed []T) (obj T, ok, contended bool, err error) {
	a := d.A
	notBefore := d.Start.Add(-adoptionClockSkew)
	var candidates []T
	for _, l := range listed {
		c := (*time.Time)(nil)
		if a.Created != nil {
			c = a.Created(l)
		}
		if d.Seen[a.Id(l)] || (c != nil && c.Before(notBefore)) || !a.Matches(l) {
			continue
		}
		if a.Sole && !a.Slot && d.Pd.Adoption.taken(a.Kind, a.Id(l)) {
			continue
		}
		candidates = append(candidates, l)
	}
	if a.Sole && len(candidates) > 1 {
		var zero T
		return zero, false, false, d.tooMany(candidates)
	}
	// The oldest first, so that concurrent creates of the same values agree on an order and
	// each takes the first one still free.
	sort.SliceStable(candidates, func(i, j int) bool {
		if a.Created != nil {
			ci, cj := a.Created(candidates[i]), a.Created(candidates[j])
			if ci != nil && cj != nil && !ci.Equal(*cj) {
				return ci.Before(*cj)
			}
		}
		return a.Id(candidates[i]) < a.Id(candidates[j])
	})
	for _, c := range candidates {
		if d.Claim(c) {
			return c, true, false, nil
		}
	}
	var zero T
	return zero, false, len(candidates) > 0, nil
}

// tooMany is the error of a sole kind's attempt after which several candidates appeared.
func (d *Adoption[T]) tooMany(candidates []T) error {
	names := make([]string, len(candidates))
	for i, c := range candidates {
		names[i] = d.shown(c)
	}
	k := d.A.Kind
	advice := fmt.Sprintf("Find out who uses them (the %ss data source lists them), delete the ones nobody uses, and run "+
		"terraform apply again; or import the one to keep into this resource.", k)
	if d.A.TooManyAdvice != nil {
		advice = d.A.TooManyAdvice(candidates)
	}
	return &AdoptionError{
		Summary: "Unable to Tell Which " + titleCase(k) + " This Create Stored",
		Detail: fmt.Sprintf("The create of this %s failed after it may have reached the service, and meanwhile %d %ss "+
			"appeared on the service (%s): one may be this create's, the others another client's, and the service keeps "+
			"nothing that tells them apart. None was adopted and none deleted, since it may be in use elsewhere. %s",
			k, len(candidates), k, strings.Join(names, ", "), advice),
	}
}

// Claim claims obj for this create; a slot kind's object is never contended.
func (d *Adoption[T]) Claim(obj T) bool {
	return d.A.Slot || d.Pd.Adoption.Claim(d.A.Kind, d.A.Id(obj))
}

// shown names obj in messages and logs.
func (d *Adoption[T]) shown(obj T) string {
	if d.A.Shown != nil {
		return d.A.Shown(obj)
	}
	return d.A.Id(obj)
}

// AdoptionCreateOps are the parts of the shared create machinery (writes.go) for a
// create that adopts what an unknown outcome stored: the create itself, and the search for
// what an interrupted create stored (which excludes what was listed before its attempt).
func AdoptionCreateOps[T any](pd *ProviderData, a AdoptableCreate[T]) CreateOps[T] {
	d := &Adoption[T]{Pd: pd, A: a, Start: time.Now()}
	return CreateOps[T]{
		send: d.Send,
		find: func(ctx context.Context) (T, bool, error) { return d.Find(ctx) },
		id:   d.shown,
	}
}
