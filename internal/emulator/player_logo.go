package emulator

import (
	"net/http"
	"strconv"
)

// Limits of a player theme's logo.
const (
	maxLogoBytes  = 100 << 10
	maxLogoWidth  = 200
	maxLogoHeight = 100
)

// playerAssetsWire is a player theme's assets: its logo and the address a click on it opens.
type playerAssetsWire struct {
	Logo string `json:"logo"`
	Link string `json:"link"`
}

// logoAssets is the assets of theme p, nil when it has no logo.
func logoAssets(p *playerTheme) *playerAssetsWire {
	if p.Logo == nil {
		return nil
	}
	return &playerAssetsWire{Logo: vodBase + "players/" + p.ID + "/logo.png?v=" + strconv.Itoa(p.Logo.Version), Link: p.Logo.Link}
}

// handleUploadLogo serves POST /players/{id}/logo: a JPEG or PNG of at most 200 × 100 pixels and
// 100 KiB, and its link (stored as sent); a second upload replaces both. 201 with the theme.
func (e *Emulator) handleUploadLogo(w http.ResponseWriter, r *http.Request, id string) {
	var exists bool
	players.read(e, func() { exists = players.find(&e.st, id) >= 0 })
	if !exists {
		writeError(w, e.notFound(players.idName))
		return
	}
	img, refused := e.readImage(r, maxLogoBytes)
	if refused == nil && (img.config.Width > maxLogoWidth || img.config.Height > maxLogoHeight) {
		a := e.fieldError(e.fieldInvalid("file", "The logo must be at most 200 pixels wide and 100 pixels high; this one is "+
			strconv.Itoa(img.config.Width)+" × "+strconv.Itoa(img.config.Height)+"."))
		refused = &a
	}
	if refused != nil {
		writeError(w, *refused)
		return
	}
	e.changeLogo(w, id, http.StatusCreated, func(p *playerTheme) *apiError {
		version := 1
		if p.Logo != nil {
			version = p.Logo.Version + 1
		}
		p.Logo = &playerLogo{Link: img.fields["link"], Version: version}
		return nil
	})
}

// handleDeleteLogo serves DELETE /players/{id}/logo: 204, or 404 naming logo when the theme has
// none.
func (e *Emulator) handleDeleteLogo(w http.ResponseWriter, _ *http.Request, id string) {
	e.changeLogo(w, id, http.StatusNoContent, func(p *playerTheme) *apiError {
		if p.Logo == nil {
			a := e.notFound("logo")
			return &a
		}
		p.Logo = nil
		return nil
	})
}

// changeLogo changes a copy of theme id with fn, stores it with a new updatedAt, and answers
// status (with the theme unless it is 204); 404 naming playerId when the theme does not exist.
func (e *Emulator) changeLogo(w http.ResponseWriter, id string, status int, fn func(*playerTheme) *apiError) {
	var out playerWire
	var refused *apiError
	e.mu.Lock()
	i := players.find(&e.st, id)
	if i < 0 {
		a := e.notFound(players.idName)
		refused = &a
	} else {
		p := *e.st.Players[i]
		if refused = fn(&p); refused == nil {
			p.UpdatedAt = e.nextUpdate(p.UpdatedAt)
			e.st.Players[i] = &p
			out = toPlayerWire(&p)
		}
	}
	e.mu.Unlock()
	if refused != nil {
		writeError(w, *refused)
		return
	}
	e.saveStateLogged()
	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	e.answerWrite(w, status, out)
}
