package acctest

// The sweeper (make sweep, scripts/sweep) and the inventory (CI's list of every kind before and
// after a remote run): both read every object of every kind of the workspace that a key opens,
// through the public API.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
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

// Inventory lists every object of every kind that c's key opens: videos, live streams,
// webhooks, player themes, watermarks, upload tokens, summaries and the discarded videos.
func Inventory(ctx context.Context, c *videohost.Client) ([]Object, error) {
	var out []Object
	add := func(kind string, n int, at func(int) (string, string), err error) error {
		for i := range n {
			id, name := at(i)
			out = append(out, Object{Kind: kind, ID: id, Name: name})
		}
		if err != nil {
			return fmt.Errorf("listing the %ss: %w", kind, err)
		}
		return nil
	}
	videos, err := c.ListVideos(ctx, videohost.VideoFilter{})
	if err = add("video", len(videos), func(i int) (string, string) { return videos[i].ID, videos[i].Title }, err); err != nil {
		return nil, err
	}
	streams, err := c.ListLiveStreams(ctx, videohost.LiveStreamFilter{})
	if err = add("live stream", len(streams), func(i int) (string, string) { return streams[i].ID, streams[i].Name }, err); err != nil {
		return nil, err
	}
	hooks, err := c.ListWebhooks(ctx, "")
	if err = add("webhook", len(hooks), func(i int) (string, string) { return hooks[i].ID, hooks[i].URL }, err); err != nil {
		return nil, err
	}
	themes, err := c.ListPlayerThemes(ctx, videohost.PlayerThemeFilter{})
	if err = add("player theme", len(themes), func(i int) (string, string) { return themes[i].ID, themes[i].Name }, err); err != nil {
		return nil, err
	}
	marks, err := c.ListWatermarks(ctx, videohost.WatermarkFilter{})
	if err = add("watermark", len(marks), func(i int) (string, string) { return marks[i].ID, "" }, err); err != nil {
		return nil, err
	}
	tokens, err := c.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
	if err = add("upload token", len(tokens), func(i int) (string, string) { return tokens[i].Token, "" }, err); err != nil {
		return nil, err
	}
	sums, err := c.ListSummaries(ctx, videohost.SummaryFilter{})
	if err = add("summary", len(sums), func(i int) (string, string) { return sums[i].ID, "of video " + sums[i].VideoID }, err); err != nil {
		return nil, err
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

// deleteObject deletes o through c.
func deleteObject(ctx context.Context, c *videohost.Client, o Object) error {
	switch o.Kind {
	case "video":
		return c.DeleteVideo(ctx, o.ID)
	case "live stream":
		return c.DeleteLiveStream(ctx, o.ID)
	case "webhook":
		return c.DeleteWebhook(ctx, o.ID)
	case "player theme":
		return c.DeletePlayerTheme(ctx, o.ID)
	case "watermark":
		return c.DeleteWatermark(ctx, o.ID)
	case "upload token":
		return c.DeleteUploadToken(ctx, o.ID)
	case "summary":
		return c.DeleteSummary(ctx, o.ID)
	}
	return fmt.Errorf("no delete for the kind %q", o.Kind)
}

// Sweep deletes every object of the workspace that Swept selects, printing each to w as it
// goes, and returns what it deleted and the errors of those it could not.
func Sweep(ctx context.Context, c *videohost.Client, ledgerIDs map[string]bool, w io.Writer) ([]Object, error) {
	all, err := Inventory(ctx, c)
	if err != nil {
		return nil, err
	}
	var deleted []Object
	var errs []string
	for _, o := range all {
		if !Swept(o, ledgerIDs) {
			continue
		}
		err := deleteObject(ctx, c, o)
		if errors.Is(err, videohost.ErrNotFound) {
			// Gone since the inventory: deleted with its video (a summary), or by someone else.
			fmt.Fprintf(w, "already gone: %s %s %q\n", o.Kind, ShownID(o), o.Name)
			continue
		}
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s %s: %v", o.Kind, ShownID(o), err))
			continue
		}
		deleted = append(deleted, o)
		fmt.Fprintf(w, "deleted %s %s %q\n", o.Kind, ShownID(o), o.Name)
	}
	if len(errs) > 0 {
		return deleted, fmt.Errorf("could not delete %d objects:\n%s", len(errs), strings.Join(errs, "\n"))
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

// SweepAllowed says whether the sweeper may delete in the workspace of baseURL without being
// told that it may delete in production: a loopback address (an emulator) or the sandbox.
func SweepAllowed(baseURL string) error {
	u, err := url.Parse(baseURL)
	if err != nil {
		return err
	}
	host := u.Hostname()
	if ip := net.ParseIP(host); (ip != nil && ip.IsLoopback()) || host == "localhost" || host == "sandbox.api.video" {
		return nil
	}
	return fmt.Errorf("%s is not a sandbox (sandbox.api.video) nor a loopback emulator: its key may open a production workspace; pass -allow-production to sweep it anyway", baseURL)
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
