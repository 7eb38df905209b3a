package emulator

import (
	"cmp"
	"encoding/json"
	"math"
	"net/http"
	"os"
	"time"
)

// maxTokenTTL is the longest ttl of an upload token, in seconds.
const maxTokenTTL = math.MaxInt32

// uploadTokenWire is an upload token as the service sends it: expiresAt only when it expires.
type uploadTokenWire struct {
	Token     string `json:"token"`
	TTL       int64  `json:"ttl"`
	CreatedAt string `json:"createdAt"`
	ExpiresAt string `json:"expiresAt,omitempty"`
}

func toUploadTokenWire(t *uploadToken) uploadTokenWire {
	out := uploadTokenWire{Token: t.Token, TTL: t.TTL, CreatedAt: atom(t.CreatedAt)}
	if !t.ExpiresAt.IsZero() {
		out.ExpiresAt = atom(t.ExpiresAt)
	}
	return out
}

var uploadTokens = recordKind[uploadToken, uploadTokenWire]{
	path: "/upload-tokens",
	// The path parameter is uploadToken; the token's member and /upload's query parameter are
	// token.
	idName: "uploadToken",
	id:     func(t *uploadToken) string { return t.Token },
	items:  func(s *store) *[]*uploadToken { return &s.UploadTokens },
	wire:   func(_ *Emulator, t *uploadToken) uploadTokenWire { return toUploadTokenWire(t) },
	// Tokens expire: every read deletes the expired ones first.
	fresh: true,
	sortKeys: []sortKey[uploadToken]{
		{"createdAt", func(a, b *uploadToken) int { return a.CreatedAt.Compare(b.CreatedAt) }},
		{"ttl", func(a, b *uploadToken) int { return cmp.Compare(a.TTL, b.TTL) }},
	},
}

// handleCreateUploadToken serves POST /upload-tokens: {"ttl": seconds}, 0 or absent for a token
// that never expires; 200 with the token.
func (e *Emulator) handleCreateUploadToken(w http.ResponseWriter, r *http.Request, _ string) {
	owner := requestSubject(r)
	uploadTokens.serveCreate(e, w, r, http.StatusOK, func(body map[string]json.RawMessage) (*uploadToken, *apiError) {
		probs := e.unknownMembers(body, []string{"ttl"}, "")
		var ttl int64
		if raw, ok := body["ttl"]; ok && !isNull(raw) {
			var detail string
			ttl, detail = decodeMember[int64](raw, "integer")
			if detail == "" && (ttl < 0 || ttl > maxTokenTTL) {
				detail = "This value should be between 0 and 2147483647."
			}
			if detail != "" {
				probs = append([]problem{e.fieldInvalid("ttl", detail)}, probs...)
			}
		}
		if len(probs) > 0 {
			refused := e.fieldError(probs...)
			return nil, &refused
		}
		now := e.now().UTC().Truncate(time.Second)
		t := &uploadToken{Token: randomID("to", 22), TTL: ttl, CreatedAt: now, Owner: owner}
		if ttl > 0 {
			t.ExpiresAt = now.Add(time.Duration(ttl) * time.Second)
		}
		return t, nil
	})
}

func (e *Emulator) handleListUploadTokens(w http.ResponseWriter, r *http.Request, _ string) {
	uploadTokens.serveList(e, w, r, sortedListQuery(e, uploadTokens.sortKeys))
}

func (e *Emulator) handleDeleteUploadToken(w http.ResponseWriter, _ *http.Request, id string) {
	var deleted bool
	e.withFreshStore(func() {
		if i := uploadTokens.find(&e.st, id); i >= 0 {
			e.st.UploadTokens = append(e.st.UploadTokens[:i:i], e.st.UploadTokens[i+1:]...)
			deleted = true
		}
	})
	if deleted {
		e.saveStateLogged()
	}
	uploadTokens.answerDelete(e, w, deleted)
}

// liveToken is the owner of upload token tok when it exists and has not expired.
func (e *Emulator) liveToken(tok string) (string, bool) {
	owner, ok := "", false
	e.withFreshStore(func() {
		if i := uploadTokens.find(&e.st, tok); i >= 0 && tok != "" {
			owner, ok = e.st.UploadTokens[i].Owner, true
		}
	})
	return owner, ok
}

// handleTokenUpload serves POST /upload?token=, one request of a delegated upload: the first
// creates a video titled with the file's name; the later chunks name it in the form field
// videoId. The token is its only credential: serveRoute checked it, charging the uploads budget
// of the token's owner, and answered a bad one 404 naming token.
func (e *Emulator) handleTokenUpload(w http.ResponseWriter, r *http.Request, _ string) {
	rng, refused := e.requestRange(r)
	if refused != nil {
		writeError(w, *refused)
		return
	}
	chunk, form, refused := e.receiveChunk(r, rng, "")
	if refused != nil {
		writeError(w, *refused)
		return
	}
	id := form.fields["videoId"]
	if id == "" {
		v := e.newVideo()
		v.Title = cmp.Or(form.filename, "file")
		e.mu.Lock()
		e.st.Videos = append(e.st.Videos, v)
		e.mu.Unlock()
		id = v.ID
	} else if refused := e.sourceAccepts(id, rng.form); refused != nil {
		_ = os.Remove(chunk.path)
		writeError(w, *refused)
		return
	}
	e.stats.creditVideo(id, chunk.size)
	e.storeChunk(w, id, rng, chunk)
}
