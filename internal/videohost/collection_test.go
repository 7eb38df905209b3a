package videohost

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
)

// collectionKind is one API area's typed calls that go through collection: each nil when the
// area has no such call. The table below tests once, for every area, what collection does for
// all of them; each area's own test keeps what is its own (bodies, queries, decoding).
type collectionKind struct {
	name, path string
	get        func(*Client, context.Context, string) error
	create     func(*Client, context.Context) error
	update     func(*Client, context.Context, string) error
	delete     func(*Client, context.Context, string) error
}

var collectionKinds = []collectionKind{
	{
		name: "webhooks", path: "/webhooks",
		get: func(c *Client, ctx context.Context, id string) error { _, err := c.GetWebhook(ctx, id); return err },
		create: func(c *Client, ctx context.Context) error {
			_, err := c.CreateWebhook(ctx, CreateWebhookInput{URL: "https://example.org/h", Events: []string{"e"}})
			return err
		},
		delete: (*Client).DeleteWebhook,
	},
	{
		name: "videos", path: "/videos",
		get: func(c *Client, ctx context.Context, id string) error { _, err := c.GetVideo(ctx, id); return err },
		create: func(c *Client, ctx context.Context) error {
			_, err := c.CreateVideo(ctx, VideoCreate{Title: "x"})
			return err
		},
		update: func(c *Client, ctx context.Context, id string) error {
			_, err := c.UpdateVideo(ctx, id, VideoUpdate{Title: Value("x")})
			return err
		},
		delete: (*Client).DeleteVideo,
	},
	{
		name: "discarded videos", path: "/discarded/videos",
		get: func(c *Client, ctx context.Context, id string) error {
			_, err := c.GetDiscardedVideo(ctx, id)
			return err
		},
	},
	{
		name: "live streams", path: "/live-streams",
		get: func(c *Client, ctx context.Context, id string) error { _, err := c.GetLiveStream(ctx, id); return err },
		create: func(c *Client, ctx context.Context) error {
			_, err := c.CreateLiveStream(ctx, CreateLiveStreamInput{Name: "x"})
			return err
		},
		update: func(c *Client, ctx context.Context, id string) error {
			_, err := c.UpdateLiveStream(ctx, id, UpdateLiveStreamInput{Name: Value("x")})
			return err
		},
		delete: (*Client).DeleteLiveStream,
	},
	{
		name: "player themes", path: "/players",
		get: func(c *Client, ctx context.Context, id string) error { _, err := c.GetPlayerTheme(ctx, id); return err },
		create: func(c *Client, ctx context.Context) error {
			_, err := c.CreatePlayerTheme(ctx, PlayerThemeInput{})
			return err
		},
		update: func(c *Client, ctx context.Context, id string) error {
			_, err := c.UpdatePlayerTheme(ctx, id, PlayerThemeInput{Name: Value("x")})
			return err
		},
		delete: (*Client).DeletePlayerTheme,
	},
	{
		name: "summaries", path: "/summaries",
		create: func(c *Client, ctx context.Context) error {
			_, err := c.CreateSummary(ctx, SummaryCreate{VideoID: "vi1"})
			return err
		},
		delete: (*Client).DeleteSummary,
	},
	{
		name: "upload tokens", path: "/upload-tokens",
		get:    func(c *Client, ctx context.Context, id string) error { _, err := c.GetUploadToken(ctx, id); return err },
		create: func(c *Client, ctx context.Context) error { _, err := c.CreateUploadToken(ctx, 60); return err },
		delete: (*Client).DeleteUploadToken,
	},
	{name: "watermarks", path: "/watermarks", delete: (*Client).DeleteWatermark},
}

// TestCollectionCalls: in every API area, a call on an empty id is refused before any request;
// the id is escaped into the path; a 404 is ErrNotFound, on a read and on the first attempt of
// a delete; a POST that fails after it was sent is never sent again and is ErrAmbiguous (a
// second one would make a second object); a PATCH, whose values are absolute, is sent again
// after a server error.
func TestCollectionCalls(t *testing.T) {
	for _, k := range collectionKinds {
		t.Run(k.name, func(t *testing.T) {
			var (
				mu      sync.Mutex
				escaped []string
			)
			failed := map[string]bool{}
			f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				escaped = append(escaped, r.URL.EscapedPath())
				switch {
				case r.Method == http.MethodPost || (r.Method == http.MethodPatch && !failed[r.Method]):
					failed[r.Method] = true
					writeJSON(w, http.StatusBadGateway, map[string]any{"title": "Bad gateway.", "status": 502})
				case r.Method == http.MethodPatch:
					writeJSON(w, http.StatusOK, map[string]any{})
				case r.Method == http.MethodDelete && r.URL.Path == k.path+"/present":
					w.WriteHeader(http.StatusNoContent)
				default:
					writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "status": 404})
				}
			})
			c := f.client(t, basic)
			checkCollectionIDs(t, f, k, c, func() []string { mu.Lock(); defer mu.Unlock(); return escaped })
			checkCollectionWrites(t, f, k, c)
		})
	}
}

// checkCollectionIDs checks k's calls on an empty id, an id to escape, a missing one and, for a
// delete, a present one; escaped returns the escaped paths the service has seen so far.
func checkCollectionIDs(t *testing.T, f *fakeService, k collectionKind, c *Client, escaped func() []string) {
	t.Helper()
	ctx := t.Context()
	byID := map[string]func(*Client, context.Context, string) error{"get": k.get, "update": k.update, "delete": k.delete}
	for name, call := range byID {
		if call == nil {
			continue
		}
		before := len(f.requests())
		if err := call(c, ctx, ""); !errors.Is(err, errEmptyID) || !errors.Is(err, ErrInvalidID) || len(f.requests()) != before {
			t.Errorf("%s with an empty id: %v, %d requests sent", name, err, len(f.requests())-before)
		}
	}
	for name, call := range map[string]func(*Client, context.Context, string) error{"get": k.get, "delete": k.delete} {
		if call == nil {
			continue
		}
		if err := call(c, ctx, "a/b?c"); !errors.Is(err, ErrNotFound) {
			t.Errorf("%s of a missing id: %v, want ErrNotFound", name, err)
		}
		if seen := escaped(); seen[len(seen)-1] != k.path+"/a%2Fb%3Fc" {
			t.Errorf("%s of a/b?c sent the path %s, want %s", name, seen[len(seen)-1], k.path+"/a%2Fb%3Fc")
		}
	}
	if k.delete != nil {
		if err := k.delete(c, ctx, "present"); err != nil {
			t.Errorf("delete answered 204: %v", err)
		}
	}
}

// checkCollectionWrites checks that k's create is sent once after a 502 and its update twice.
func checkCollectionWrites(t *testing.T, f *fakeService, k collectionKind, c *Client) {
	t.Helper()
	if k.create != nil {
		var amb *AmbiguousError
		if err := k.create(c, t.Context()); !errors.As(err, &amb) || !errors.Is(err, ErrAmbiguous) || !errors.Is(err, ErrServer) {
			t.Errorf("create after a 502: %v, want an *AmbiguousError of a server error", err)
		}
		if n := f.count(http.MethodPost, k.path); n != 1 {
			t.Errorf("create sent %d times, want once", n)
		}
	}
	if k.update != nil {
		if err := k.update(c, t.Context(), "present"); err != nil {
			t.Errorf("update after a 502: %v", err)
		}
		if n := f.count(http.MethodPatch, k.path+"/present"); n != 2 {
			t.Errorf("update sent %d times, want 2 (the 502, then the retry)", n)
		}
	}
}
