package emulator

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"time"
	"unicode/utf8"
)

// maxPlayerNameLength is the longest name of a player theme, in characters.
const maxPlayerNameLength = 100

// playerWire is a player theme as the service sends it: every field, defaults filled in; name
// only when the theme has one, and assets only when it has a logo.
type playerWire struct {
	playerSettings
	PlayerID  string            `json:"playerId"`
	CreatedAt string            `json:"createdAt"`
	UpdatedAt string            `json:"updatedAt"`
	Assets    *playerAssetsWire `json:"assets,omitempty"`
}

func toPlayerWire(p *playerTheme) playerWire {
	return playerWire{playerSettings: p.playerSettings, PlayerID: p.ID, CreatedAt: atom(p.CreatedAt), UpdatedAt: atom(p.UpdatedAt), Assets: logoAssets(p)}
}

// playerSetting is one colour (T string) or flag (T bool) of a player theme: its member, where
// the record keeps it, and its default.
type playerSetting[T any] struct {
	member string
	field  func(*playerTheme) *T
	def    T
}

const (
	colourWhite = "rgba(255, 255, 255, 1)"
	colourShade = "rgba(0, 0, 0, .7)"
)

// playerColours and playerFlags are the theme's settings with their defaults, in the order of
// the contract.
var (
	playerColours = []playerSetting[string]{
		{"text", func(p *playerTheme) *string { return &p.Text }, colourWhite},
		{"link", func(p *playerTheme) *string { return &p.Link }, colourWhite},
		{"linkHover", func(p *playerTheme) *string { return &p.LinkHover }, colourWhite},
		{"linkActive", func(p *playerTheme) *string { return &p.LinkActive }, colourWhite},
		{"trackPlayed", func(p *playerTheme) *string { return &p.TrackPlayed }, "rgba(88, 131, 255, .95)"},
		{"trackUnplayed", func(p *playerTheme) *string { return &p.TrackUnplayed }, "rgba(255, 255, 255, .35)"},
		{"trackBackground", func(p *playerTheme) *string { return &p.TrackBackground }, "rgba(255, 255, 255, .2)"},
		{"backgroundTop", func(p *playerTheme) *string { return &p.BackgroundTop }, colourShade},
		{"backgroundBottom", func(p *playerTheme) *string { return &p.BackgroundBottom }, colourShade},
		{"backgroundText", func(p *playerTheme) *string { return &p.BackgroundText }, colourWhite},
	}
	playerFlags = []playerSetting[bool]{
		{"enableApi", func(p *playerTheme) *bool { return &p.EnableAPI }, true},
		{"enableControls", func(p *playerTheme) *bool { return &p.EnableControls }, true},
		{"forceAutoplay", func(p *playerTheme) *bool { return &p.ForceAutoplay }, false},
		{"hideTitle", func(p *playerTheme) *bool { return &p.HideTitle }, false},
		{"forceLoop", func(p *playerTheme) *bool { return &p.ForceLoop }, false},
	}
)

// newPlayerTheme is a theme made now with every default and a fresh id.
func (e *Emulator) newPlayerTheme() *playerTheme {
	now := e.now().UTC().Truncate(time.Second)
	p := &playerTheme{ID: randomID("pt", 22), CreatedAt: now, UpdatedAt: now}
	setDefaults(p, playerColours)
	setDefaults(p, playerFlags)
	return p
}

func setDefaults[T any](p *playerTheme, settings []playerSetting[T]) {
	for _, s := range settings {
		*s.field(p) = s.def
	}
}

// colourRe is rgba(R, G, B, A); spaces around the numbers are free, the ranges are checked by
// validColour.
var colourRe = regexp.MustCompile(`^rgba\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*([01](?:\.\d+)?|\.\d+)\s*\)$`)

// validColour reports whether s is rgba(R, G, B, A) with R, G and B integers from 0 to 255 and
// A a decimal from 0 to 1 (.95 and 0.95 alike).
func validColour(s string) bool {
	m := colourRe.FindStringSubmatch(s)
	if m == nil {
		return false
	}
	for _, c := range m[1:4] {
		if n, err := strconv.Atoi(c); err != nil || n > 255 {
			return false
		}
	}
	a, err := strconv.ParseFloat(m[4], 64)
	return err == nil && a <= 1
}

// applyPlayerBody makes the change that a create or update body asks for to p and lists every
// problem, in the order name, colours, flags, then the members a theme does not have. A name ""
// leaves the theme without a name; null is refused for every member, the name included, as the
// published document gives none of them as nullable.
func (e *Emulator) applyPlayerBody(p *playerTheme, body map[string]json.RawMessage) []problem {
	var probs []problem
	if raw, ok := body["name"]; ok {
		name, detail := decodeMember[string](raw, "string")
		if detail == "" && utf8.RuneCountInString(name) > maxPlayerNameLength {
			detail = detailNameTooLong
		}
		if detail != "" {
			probs = append(probs, e.fieldInvalid("name", detail))
		}
		p.Name = name
	}
	probs = append(probs, applySettings(e, p, body, playerColours, "string", func(v string) string {
		if !validColour(v) {
			return detailNotAColour
		}
		return ""
	})...)
	probs = append(probs, applySettings(e, p, body, playerFlags, "bool", nil)...)
	return append(probs, e.unknownMembers(body, playerMembers, "")...)
}

// applySettings makes the change that body asks for to the settings of p, and lists the problem
// of each member that is not of typeName or that check (when not nil) refuses with a detail.
func applySettings[T any](e *Emulator, p *playerTheme, body map[string]json.RawMessage, settings []playerSetting[T], typeName string, check func(T) string) []problem {
	var probs []problem
	for _, s := range settings {
		raw, ok := body[s.member]
		if !ok {
			continue
		}
		v, detail := decodeMember[T](raw, typeName)
		if detail == "" && check != nil {
			detail = check(v)
		}
		if detail != "" {
			probs = append(probs, e.fieldInvalid(s.member, detail))
		}
		*s.field(p) = v
	}
	return probs
}

// playerMembers are the members of a player theme's create or update body.
var playerMembers = slices.Concat([]string{"name"}, settingMembers(playerColours), settingMembers(playerFlags))

// settingMembers are the members of settings.
func settingMembers[T any](settings []playerSetting[T]) []string {
	members := make([]string, 0, len(settings))
	for _, s := range settings {
		members = append(members, s.member)
	}
	return members
}

func (e *Emulator) handleListPlayers(w http.ResponseWriter, r *http.Request, _ string) {
	players.serveList(e, w, r, sortedListQuery(e, players.sortKeys))
}

// handleCreatePlayer serves POST /players: 201 with the new theme; every member is optional.
func (e *Emulator) handleCreatePlayer(w http.ResponseWriter, r *http.Request, _ string) {
	players.serveCreate(e, w, r, http.StatusCreated, func(body map[string]json.RawMessage) (*playerTheme, *apiError) {
		p := e.newPlayerTheme()
		if probs := e.applyPlayerBody(p, body); len(probs) > 0 {
			refused := e.fieldError(probs...)
			return nil, &refused
		}
		return p, nil
	})
}

// handleUpdatePlayer serves PATCH /players/{id}: the members sent change, the others stay, and
// updatedAt moves.
func (e *Emulator) handleUpdatePlayer(w http.ResponseWriter, r *http.Request, id string) {
	players.serveUpdate(e, w, r, id, func(p *playerTheme, body map[string]json.RawMessage) *apiError {
		if probs := e.applyPlayerBody(p, body); len(probs) > 0 {
			refused := e.fieldError(probs...)
			return &refused
		}
		p.UpdatedAt = e.nextUpdate(p.UpdatedAt)
		return nil
	})
}

func (e *Emulator) handleDeletePlayer(w http.ResponseWriter, _ *http.Request, id string) {
	players.answerDelete(e, w, e.DeletePlayer(id))
}

// DeletePlayer deletes a player theme, as DELETE /players/{id} does; false when it does not
// exist. The live streams that used it are left without a player theme, and their updatedAt
// moves since their answers change.
func (e *Emulator) DeletePlayer(id string) bool {
	e.mu.Lock()
	i := players.find(&e.st, id)
	if i >= 0 {
		e.st.Players = slices.Delete(e.st.Players, i, i+1)
		for _, l := range e.st.LiveStreams {
			if l.PlayerID == id {
				l.PlayerID = ""
				l.UpdatedAt = e.nextUpdate(l.UpdatedAt)
			}
		}
	}
	e.mu.Unlock()
	if i < 0 {
		return false
	}
	e.saveStateLogged()
	return true
}
