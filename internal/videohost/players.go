package videohost

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"time"
)

var _ json.Unmarshaler = (*PlayerTheme)(nil)

// PlayerTheme is the service's player theme (the /players endpoints): the look of the player
// that embeds a video or a live stream. The service fills in every default, so an answer
// carries every colour and switch; Name is empty when the theme has none.
type PlayerTheme struct {
	ID               string             `json:"playerId"`
	Name             string             `json:"name"`
	Text             string             `json:"text"`
	Link             string             `json:"link"`
	LinkHover        string             `json:"linkHover"`
	LinkActive       string             `json:"linkActive"`
	TrackPlayed      string             `json:"trackPlayed"`
	TrackUnplayed    string             `json:"trackUnplayed"`
	TrackBackground  string             `json:"trackBackground"`
	BackgroundTop    string             `json:"backgroundTop"`
	BackgroundBottom string             `json:"backgroundBottom"`
	BackgroundText   string             `json:"backgroundText"`
	EnableAPI        bool               `json:"enableApi"`
	EnableControls   bool               `json:"enableControls"`
	ForceAutoplay    bool               `json:"forceAutoplay"`
	HideTitle        bool               `json:"hideTitle"`
	ForceLoop        bool               `json:"forceLoop"`
	Assets           *PlayerThemeAssets `json:"assets"`
	CreatedAt        *time.Time         `json:"createdAt"`
	UpdatedAt        *time.Time         `json:"updatedAt"`
}

// UnmarshalJSON accepts the date-times with an offset or Z; unknown members are ignored.
func (p *PlayerTheme) UnmarshalJSON(b []byte) error { return decodeRecord(b, p) }

// PlayerThemeAssets are the theme's uploaded logo and the address it links to; the service
// sends them only once a logo was uploaded.
type PlayerThemeAssets struct {
	Logo string `json:"logo"`
	Link string `json:"link"`
}

// PlayerThemeInput is the body of POST /players and of PATCH /players/{id}: every member is
// optional, an absent Field is not sent (the service's default on create, unchanged on
// update). Colours are sent exactly as given, since the service stores them as sent.
type PlayerThemeInput struct {
	Name             Field[string] `json:"name,omitzero"`
	Text             Field[string] `json:"text,omitzero"`
	Link             Field[string] `json:"link,omitzero"`
	LinkHover        Field[string] `json:"linkHover,omitzero"`
	LinkActive       Field[string] `json:"linkActive,omitzero"`
	TrackPlayed      Field[string] `json:"trackPlayed,omitzero"`
	TrackUnplayed    Field[string] `json:"trackUnplayed,omitzero"`
	TrackBackground  Field[string] `json:"trackBackground,omitzero"`
	BackgroundTop    Field[string] `json:"backgroundTop,omitzero"`
	BackgroundBottom Field[string] `json:"backgroundBottom,omitzero"`
	BackgroundText   Field[string] `json:"backgroundText,omitzero"`
	EnableAPI        Field[bool]   `json:"enableApi,omitzero"`
	EnableControls   Field[bool]   `json:"enableControls,omitzero"`
	ForceAutoplay    Field[bool]   `json:"forceAutoplay,omitzero"`
	HideTitle        Field[bool]   `json:"hideTitle,omitzero"`
	ForceLoop        Field[bool]   `json:"forceLoop,omitzero"`
}

// PlayerThemeFilter is the order of GET /players; the service has no filter on players.
type PlayerThemeFilter struct {
	SortBy    string // name|createdAt|updatedAt
	SortOrder string // asc|desc
}

var playerThemeCollection = collection[PlayerTheme]{path: "/players", id: func(p PlayerTheme) string { return p.ID }}

// ListPlayerThemes returns every player theme in the order f asks for, walking all pages.
func (c *Client) ListPlayerThemes(ctx context.Context, f PlayerThemeFilter) ([]PlayerTheme, error) {
	return collect(c.WalkPlayerThemes(ctx, f))
}

// WalkPlayerThemes yields the player themes page by page as it reads them, holding one page
// at a time; a caller that stops early reads no further page.
func (c *Client) WalkPlayerThemes(ctx context.Context, f PlayerThemeFilter) iter.Seq2[PlayerTheme, error] {
	q := url.Values{}
	setIf(q, "sortBy", f.SortBy)
	setIf(q, "sortOrder", f.SortOrder)
	return playerThemeCollection.walk(ctx, c, q)
}

// GetPlayerTheme reads one player theme; errors.Is(err, ErrNotFound) when absent.
func (c *Client) GetPlayerTheme(ctx context.Context, id string) (PlayerTheme, error) {
	return playerThemeCollection.get(ctx, c, id)
}

// LookupPlayerTheme reads one player theme from the list its lookups share, so that a refresh
// of many costs one walk of the list (see collection.lookup); an id missing from the list is
// read with GetPlayerTheme, and only its ErrNotFound means the theme is gone.
func (c *Client) LookupPlayerTheme(ctx context.Context, id string) (PlayerTheme, error) {
	return playerThemeCollection.lookup(ctx, c, id)
}

// CreatePlayerTheme sends POST /players once. A failure after the request may have reached the
// server is an *AmbiguousError (errors.Is(err, ErrAmbiguous)); it is never re-sent.
func (c *Client) CreatePlayerTheme(ctx context.Context, in PlayerThemeInput) (PlayerTheme, error) {
	return playerThemeCollection.create(ctx, c, in)
}

// UpdatePlayerTheme sends PATCH /players/{id} with the members set in in. Each is an absolute
// value, so the PATCH is retried after a server error like a read.
func (c *Client) UpdatePlayerTheme(ctx context.Context, id string, in PlayerThemeInput) (PlayerTheme, error) {
	return playerThemeCollection.update(ctx, c, id, in)
}

// DeletePlayerTheme deletes one player theme (the service detaches it from the live streams
// that use it); a 404 on a retry counts as deleted, a 404 on the first attempt is ErrNotFound.
func (c *Client) DeletePlayerTheme(ctx context.Context, id string) error {
	return playerThemeCollection.delete(ctx, c, id)
}

// UploadPlayerLogo sends a JPEG or PNG (at most 200 × 100 pixels and 100 KiB) as the theme's
// logo, with link the address a click on it opens; a second upload replaces both, so it is
// retried like a read.
func (c *Client) UploadPlayerLogo(ctx context.Context, playerID, link string, src UploadSource) (PlayerTheme, error) {
	if playerID == "" {
		return PlayerTheme{}, errEmptyID
	}
	defer playerThemeCollection.writing(c)()
	var p PlayerTheme
	fields := []formField{{name: "link", value: link}}
	if err := c.uploadFile(ctx, playerThemeCollection.item(playerID)+"/logo", fields, src, true, &p); err != nil {
		return PlayerTheme{}, err
	}
	return p, nil
}

// DeletePlayerLogo removes the theme's logo and link; a 404 on the first attempt (a theme
// without a logo, or no theme) is ErrNotFound, on a retry it counts as deleted.
func (c *Client) DeletePlayerLogo(ctx context.Context, playerID string) error {
	if playerID == "" {
		return errEmptyID
	}
	defer playerThemeCollection.writing(c)()
	return c.do(ctx, request{method: http.MethodDelete, path: playerThemeCollection.item(playerID) + "/logo"}, nil)
}
