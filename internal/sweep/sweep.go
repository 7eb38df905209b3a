// Package sweep holds the sweepers of the acceptance tests' objects and the inventory of a
// workspace: make sweep (scripts/sweep) deletes what the tests left, and CI lists every kind
// before and after a run against an endpoint. Each kind's folder under internal/provider has a
// sweep.go that says how its objects are listed and deleted; provider.RegisterSweepers registers
// them here. The package imports the client alone: neither the test harness nor the emulator, so
// that the provider's packages may import it.
package sweep

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Object is one object of the workspace: its kind, id and the name the service keeps (the title,
// name or URL), "" for the kinds without one.
type Object struct {
	Kind string `json:"kind"`
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Until is when the service purges a discarded video (90 days after its discard).
	Until *time.Time `json:"until,omitempty"`
}

// DiscardRetention is how long a workspace with Video Restore keeps a discarded video.
const DiscardRetention = 90 * 24 * time.Hour

// Sweeper deletes the test objects of one resource type, as the sweepers of
// terraform-provider-aws do: Name is the resource type, Kind the word the ledger and the
// inventory use for its objects, and Dependencies the sweepers that must run before it (those
// of the objects that refer to its own, or that its delete would take along).
type Sweeper struct {
	Name         string
	Kind         string
	Dependencies []string
	List         func(context.Context, *videohost.Client) ([]Object, error)
	Delete       func(*videohost.Client, context.Context, string) error
}

// Objects turns a listing into Objects of kind, naming the kind in the error of a listing that
// failed.
func Objects[T any](kind string, items []T, err error, idName func(T) (string, string)) ([]Object, error) {
	if err != nil {
		return nil, fmt.Errorf("listing the %ss: %w", kind, err)
	}
	out := make([]Object, 0, len(items))
	for _, it := range items {
		id, name := idName(it)
		out = append(out, Object{Kind: kind, ID: id, Name: name})
	}
	return out, nil
}

// TestPrefix starts the name of every object the acceptance tests create where the service
// keeps a name: what the sweepers delete.
const TestPrefix = "tf-acc-"

// registered are the sweepers that Register was given, in its order: Inventory's.
var registered []Sweeper

// Register adds the sweepers of a kind; provider.RegisterSweepers gives every kind's, once.
func Register(s ...Sweeper) { registered = append(registered, s...) }

// Sweepers are the registered sweepers, in Inventory's order.
func Sweepers() []Sweeper { return registered }

// Inventory lists every object of every kind that c's key opens: videos, live streams,
// webhooks, player themes, watermarks, upload tokens, summaries and the discarded videos.
func Inventory(ctx context.Context, c *videohost.Client) ([]Object, error) {
	var out []Object
	for _, s := range registered {
		list, err := s.List(ctx, c)
		if err != nil {
			return nil, err
		}
		out = append(out, list...)
	}
	discarded, err := c.ListDiscardedVideos(ctx, videohost.VideoFilter{})
	if err != nil {
		return nil, fmt.Errorf("listing the discarded videos: %w", err)
	}
	for _, v := range discarded {
		o := Object{Kind: "discarded video", ID: v.ID, Name: v.Title}
		if v.DiscardedAt != nil {
			until := v.DiscardedAt.Add(DiscardRetention).UTC()
			o.Until = &until
		}
		out = append(out, o)
	}
	return out, nil
}

// Swept says whether the sweeper deletes o: a live object whose name carries TestPrefix (a
// webhook's URL in its path), or whose id a run's ledger holds (the kinds without a name).
// Discarded videos are never swept: the API has no delete of them; the service purges them.
func Swept(o Object, ledgerIDs map[string]bool) bool {
	switch {
	case o.Kind == "discarded video":
		return false
	case ledgerIDs[o.Kind+" "+o.ID]:
		return true
	case o.Kind == "webhook":
		u, err := url.Parse(o.Name)
		return err == nil && strings.Contains(u.Path, "/"+TestPrefix)
	}
	return strings.HasPrefix(o.Name, TestPrefix)
}

// SweepOrder is the sweepers named in run (every sweeper when run is empty) and those they
// depend on, each after its dependencies, as terraform-provider-aws's -sweep-run picks them (scripts/sweep's
// -run).
func SweepOrder(run []string) ([]Sweeper, error) {
	byName := map[string]Sweeper{}
	for _, s := range registered {
		byName[s.Name] = s
	}
	if len(run) == 0 {
		for _, s := range registered {
			run = append(run, s.Name)
		}
	}
	var order []Sweeper
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(name string) error
	visit = func(name string) error {
		s, ok := byName[name]
		switch {
		case !ok:
			return fmt.Errorf("no sweeper is named %q (the sweepers: %s)", name, strings.Join(SweeperNames(), ", "))
		case state[name] == 2:
			return nil
		case state[name] == 1:
			return fmt.Errorf("the sweepers' dependencies loop at %s", name)
		}
		state[name] = 1
		for _, d := range s.Dependencies {
			if err := visit(d); err != nil {
				return err
			}
		}
		state[name] = 2
		order = append(order, s)
		return nil
	}
	for _, name := range run {
		if err := visit(strings.TrimSpace(name)); err != nil {
			return nil, err
		}
	}
	return order, nil
}

// SweeperNames are the sweepers' names, in Inventory's order.
func SweeperNames() []string {
	names := make([]string, 0, len(registered))
	for _, s := range registered {
		names = append(names, s.Name)
	}
	return names
}

// Sweep runs the sweepers named in run (all when it is empty) and their dependencies, each
// after those it depends on: each lists its kind and deletes what Swept selects, printing each
// object to w as it goes. It returns what it deleted and the errors of those it could not; a
// sweeper that fails does not stop the others.
func Sweep(ctx context.Context, c *videohost.Client, run []string, ledgerIDs map[string]bool, w io.Writer) ([]Object, error) {
	order, err := SweepOrder(run)
	if err != nil {
		return nil, err
	}
	var deleted []Object
	var errs []string
	for _, s := range order {
		all, err := s.List(ctx, c)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", s.Name, err))
			continue
		}
		n := 0
		for _, o := range all {
			if !Swept(o, ledgerIDs) {
				continue
			}
			err := s.Delete(c, ctx, o.ID)
			if errors.Is(err, videohost.ErrNotFound) {
				// Gone since the listing: deleted with its video (a summary), or by someone else.
				fmt.Fprintf(w, "%s: already gone: %s %s %q\n", s.Name, o.Kind, ShownID(o), o.Name)
				continue
			}
			if err != nil {
				errs = append(errs, fmt.Sprintf("%s: %s %s: %v", s.Name, o.Kind, ShownID(o), err))
				continue
			}
			n++
			deleted = append(deleted, o)
			fmt.Fprintf(w, "%s: deleted %s %s %q\n", s.Name, o.Kind, ShownID(o), o.Name)
		}
		fmt.Fprintf(w, "%s: %d deleted\n", s.Name, n)
	}
	if len(errs) > 0 {
		return deleted, fmt.Errorf("could not sweep %d objects or kinds:\n%s", len(errs), strings.Join(errs, "\n"))
	}
	return deleted, nil
}

// ShownID is o's id as it may be printed: an upload token is a credential (who holds it can
// upload into the workspace), so only its first characters are.
func ShownID(o Object) string {
	if o.Kind == "upload token" && len(o.ID) > 6 {
		return o.ID[:6] + "…"
	}
	return o.ID
}

// InventoryDiff is what after holds that before does not (added) and the reverse (removed),
// by kind and id; discarded videos are left out (the service keeps them, no API removes them).
func InventoryDiff(before, after []Object) (added, removed []Object) {
	key := func(o Object) string { return o.Kind + " " + o.ID }
	in := func(list []Object) map[string]Object {
		m := map[string]Object{}
		for _, o := range list {
			if o.Kind != "discarded video" {
				m[key(o)] = o
			}
		}
		return m
	}
	b, a := in(before), in(after)
	for k, o := range a {
		if _, ok := b[k]; !ok {
			added = append(added, o)
		}
	}
	for k, o := range b {
		if _, ok := a[k]; !ok {
			removed = append(removed, o)
		}
	}
	sort.Slice(added, func(i, j int) bool { return key(added[i]) < key(added[j]) })
	sort.Slice(removed, func(i, j int) bool { return key(removed[i]) < key(removed[j]) })
	return added, removed
}
