package videohost

import (
	"bytes"
	"errors"
	"net/http"
	"testing"
)

// playerThemeJSON is a player theme as the contract writes it: every default filled in.
func playerThemeJSON(id string) map[string]any {
	return map[string]any{
		"playerId": id, "name": "brand",
		"text": "rgba(255, 255, 255, 1)", "link": "rgba(255, 255, 255, 1)", "linkHover": "rgba(255, 255, 255, 1)",
		"linkActive": "rgba(255, 255, 255, 1)", "backgroundText": "rgba(255, 255, 255, 1)",
		"trackPlayed": "rgba(88, 131, 255, .95)", "trackUnplayed": "rgba(255, 255, 255, .35)",
		"trackBackground": "rgba(255, 255, 255, .2)", "backgroundTop": "rgba(0, 0, 0, .7)",
		"backgroundBottom": "rgba(0, 0, 0, .7)",
		"enableApi":        true, "enableControls": true, "forceAutoplay": false, "hideTitle": false, "forceLoop": true,
		"createdAt": "2024-08-08T14:12:18+00:00", "updatedAt": "2024-08-08T14:12:18+00:00",
	}
}

// TestPlayerThemeEndpoints: a theme's list query, its decoding, and the bodies of a create and
// an update, which send only what was set; what every API area's calls share is
// TestCollectionCalls'.
func TestPlayerThemeEndpoints(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/players":
			writeJSON(w, http.StatusOK, map[string]any{
				"data":       []any{playerThemeJSON("pt1"), playerThemeJSON("pt2")},
				"pagination": map[string]any{"currentPage": 1, "pagesTotal": 1, "links": []any{}},
			})
		case r.Method == http.MethodGet && r.URL.Path == "/players/pt1":
			writeJSON(w, http.StatusOK, playerThemeJSON("pt1"))
		case r.Method == http.MethodPost && r.URL.Path == "/players":
			writeJSON(w, http.StatusCreated, playerThemeJSON("pt-new"))
		case r.Method == http.MethodPatch && r.URL.Path == "/players/pt1":
			writeJSON(w, http.StatusOK, playerThemeJSON("pt1"))
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource could not be found.", "name": "playerId", "status": 404})
		}
	})
	c := f.client(t, basic)
	ctx := t.Context()
	last := func() seen { r := f.requests(); return r[len(r)-1] }

	list, err := c.ListPlayerThemes(ctx, PlayerThemeFilter{SortBy: "name", SortOrder: "desc"})
	if err != nil || len(list) != 2 || list[1].ID != "pt2" {
		t.Fatalf("ListPlayerThemes = %+v, %v", list, err)
	}
	if q := last().query; q != "pageSize=100&sortBy=name&sortOrder=desc" {
		t.Errorf("list query = %q", q)
	}

	got, err := c.GetPlayerTheme(ctx, "pt1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "brand" || got.TrackPlayed != "rgba(88, 131, 255, .95)" || got.BackgroundBottom != "rgba(0, 0, 0, .7)" ||
		!got.EnableAPI || !got.ForceLoop || got.HideTitle || got.Assets != nil || got.CreatedAt == nil {
		t.Fatalf("GetPlayerTheme decoded %+v", got)
	}

	if _, err := c.CreatePlayerTheme(ctx, PlayerThemeInput{}); err != nil {
		t.Fatal(err)
	}
	if b := last().body; b != `{}` {
		t.Errorf("an empty create sends %s, want {}", b)
	}
	created, err := c.CreatePlayerTheme(ctx, PlayerThemeInput{Name: Value("brand"), TrackPlayed: Value("rgba(1, 2, 3, 0.5)"), HideTitle: Value(false)})
	if err != nil || created.ID != "pt-new" {
		t.Fatalf("CreatePlayerTheme = %+v, %v", created, err)
	}
	if b := last().body; b != `{"name":"brand","trackPlayed":"rgba(1, 2, 3, 0.5)","hideTitle":false}` {
		t.Errorf("create body = %s", b)
	}

	if _, err := c.UpdatePlayerTheme(ctx, "pt1", PlayerThemeInput{ForceAutoplay: Value(true)}); err != nil {
		t.Fatal(err)
	}
	if r := last(); r.method != http.MethodPatch || r.body != `{"forceAutoplay":true}` {
		t.Errorf("update sent %s %s, want only what changed", r.method, r.body)
	}
}

func TestPlayerLogoCalls(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.Method + " " + r.URL.Path {
		case "POST /players/pl1/logo":
			_, name, data, fields := filePart(t, r)
			if name != "logo.png" || !bytes.Equal(data, tinyPNG) || fields["link"] != "https://example.org/" {
				t.Errorf("logo part %q %q, fields %v", name, data, fields)
			}
			writeJSON(w, http.StatusCreated, map[string]any{"playerId": "pl1",
				"assets": map[string]any{"logo": "https://cdn.test/logo.png", "link": fields["link"]}})
		case "DELETE /players/pl1/logo":
			w.WriteHeader(http.StatusNoContent)
		default:
			writeJSON(w, http.StatusNotFound, map[string]any{"title": "Not found.", "name": "logo", "status": 404})
		}
	})
	c := f.client(t)
	p, err := c.UploadPlayerLogo(t.Context(), "pl1", "https://example.org/", pngSource())
	if err != nil || p.Assets == nil || p.Assets.Link != "https://example.org/" {
		t.Fatalf("UploadPlayerLogo = %+v, %v", p, err)
	}
	if err := c.DeletePlayerLogo(t.Context(), "pl1"); err != nil {
		t.Fatal(err)
	}
	if err := c.DeletePlayerLogo(t.Context(), "pl2"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("delete of an absent logo: %v", err)
	}
}
