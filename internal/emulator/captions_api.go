package emulator

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// maxTrackBytes bounds a caption or chapter file, WebVTT text.
const maxTrackBytes = 8 << 20

// detailNotWebVTT refuses a caption or chapter file that is not WebVTT.
const detailNotWebVTT = "The file must be WebVTT: it must start with WEBVTT."

// trackKind is what the caption and chapter routes know of one of the two: their path under a
// video, where the video keeps them, their wire form, and whether a malformed language in a
// read is 400 (captions) or 404 (chapters), as the contract's tables give them.
type trackKind struct {
	path         string
	items        func(*video) *[]trackRec
	wire         func(videoID string, t trackRec) any
	badReadIs400 bool
}

// Caption and chapter routes.
var (
	captionFiles = trackKind{
		path:  "captions",
		items: func(v *video) *[]trackRec { return &v.Captions },
		wire: func(videoID string, t trackRec) any {
			return captionWire{URI: trackURI(videoID, "captions", t), Src: trackSrc(videoID, "captions", t),
				Srclang: t.Language, LanguageName: languageName(t.Language), Default: t.Default}
		},
		badReadIs400: true,
	}
	chapterFiles = trackKind{
		path:  "chapters",
		items: func(v *video) *[]trackRec { return &v.Chapters },
		wire: func(videoID string, t trackRec) any {
			return chapterWire{URI: trackURI(videoID, "chapters", t), Src: trackSrc(videoID, "chapters", t), Language: t.Language}
		},
	}
)

// captionWire is a caption as the service sends it.
type captionWire struct {
	URI          string `json:"uri"`
	Src          string `json:"src"`
	Srclang      string `json:"srclang"`
	LanguageName string `json:"languageName"`
	Default      bool   `json:"default"`
}

// chapterWire is a chapter as the service sends it.
type chapterWire struct {
	URI      string `json:"uri"`
	Src      string `json:"src"`
	Language string `json:"language"`
}

func trackURI(videoID, path string, t trackRec) string {
	return "/videos/" + videoID + "/" + path + "/" + t.Language
}

// trackSrc is the file's address, which changes with every upload.
func trackSrc(videoID, path string, t trackRec) string {
	return vodBase + videoID + "/" + path + "/" + t.Language + ".vtt?v=" + strconv.Itoa(t.Version)
}

// findTrack is the index of language's file in tracks (tags compare without case), or -1.
func findTrack(tracks []trackRec, language string) int {
	return slices.IndexFunc(tracks, func(t trackRec) bool { return strings.EqualFold(t.Language, language) })
}

// languageRefused is the error of a malformed or unknown language of the path, or nil; read
// tells a read or delete (where chapters answer 404) from an upload.
func (k trackKind) languageRefused(e *Emulator, language string, read bool) *apiError {
	detail := languageProblem(language)
	if detail == "" {
		return nil
	}
	if read && !k.badReadIs400 {
		a := e.notFound("language")
		return &a
	}
	a := e.fieldError(e.fieldInvalid("language", detail))
	return &a
}

// change runs fn on a copy of video id's files under the lock and stores them, moving the
// video's updatedAt when fn reports a change; it answers 404 naming videoId, or fn's refusal.
func (k trackKind) change(e *Emulator, id string, fn func(tracks []trackRec) ([]trackRec, any, *apiError)) (any, *apiError) {
	var out any
	var refused *apiError
	e.withFreshStore(func() {
		i := videos.find(&e.st, id)
		if i < 0 {
			a := e.notFound(videos.idName)
			refused = &a
			return
		}
		v := *e.st.Videos[i]
		var tracks []trackRec
		tracks, out, refused = fn(slices.Clone(*k.items(&v)))
		if refused != nil {
			return
		}
		*k.items(&v) = tracks
		v.UpdatedAt = e.nextUpdate(v.UpdatedAt)
		e.st.Videos[i] = &v
	})
	if refused == nil {
		e.saveStateLogged()
	}
	return out, refused
}

// serveUpload serves POST /videos/{id}/{captions|chapters}/{language}: a WebVTT file, which
// replaces the language's earlier one (a caption keeps its default).
func (k trackKind) serveUpload(e *Emulator, w http.ResponseWriter, r *http.Request, id string) {
	language := r.PathValue("language")
	if refused := k.languageRefused(e, language, false); refused != nil {
		writeError(w, *refused)
		return
	}
	if !e.requireVideoOr404(w, id) {
		return
	}
	data, _, refused := e.readSmallFile(r, maxTrackBytes)
	if refused == nil && !isWebVTT(data) {
		a := e.fieldError(e.fieldInvalid("file", detailNotWebVTT))
		refused = &a
	}
	if refused != nil {
		writeError(w, *refused)
		return
	}
	out, refused := k.change(e, id, func(tracks []trackRec) ([]trackRec, any, *apiError) {
		i := findTrack(tracks, language)
		if i < 0 {
			tracks = append(tracks, trackRec{Language: language})
			i = len(tracks) - 1
		}
		tracks[i].Version++
		return tracks, k.wire(id, tracks[i]), nil
	})
	if refused != nil {
		writeError(w, *refused)
		return
	}
	e.answerWrite(w, http.StatusOK, out)
}

// serveGet serves GET /videos/{id}/{captions|chapters}/{language}.
func (k trackKind) serveGet(e *Emulator, w http.ResponseWriter, r *http.Request, id string) {
	language := r.PathValue("language")
	if refused := k.languageRefused(e, language, true); refused != nil {
		writeError(w, *refused)
		return
	}
	var out any
	var refused *apiError
	videos.read(e, func() {
		i := videos.find(&e.st, id)
		if i < 0 {
			a := e.notFound(videos.idName)
			refused = &a
			return
		}
		tracks := *k.items(e.st.Videos[i])
		if j := findTrack(tracks, language); j >= 0 {
			out = k.wire(id, tracks[j])
			return
		}
		a := e.notFound("language")
		refused = &a
	})
	if refused != nil {
		writeError(w, *refused)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// serveDelete serves DELETE /videos/{id}/{captions|chapters}/{language}.
func (k trackKind) serveDelete(e *Emulator, w http.ResponseWriter, r *http.Request, id string) {
	language := r.PathValue("language")
	if refused := k.languageRefused(e, language, true); refused != nil {
		writeError(w, *refused)
		return
	}
	_, refused := k.change(e, id, func(tracks []trackRec) ([]trackRec, any, *apiError) {
		i := findTrack(tracks, language)
		if i < 0 {
			a := e.notFound("language")
			return nil, nil, &a
		}
		return slices.Delete(tracks, i, i+1), nil, nil
	})
	if refused != nil {
		writeError(w, *refused)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// serveList serves GET /videos/{id}/{captions|chapters}: a page of the video's files, in the
// order they were first uploaded.
func (k trackKind) serveList(e *Emulator, w http.ResponseWriter, r *http.Request, id string) {
	q := r.URL.Query()
	probs := e.unknownParams(q, listParams())
	page, pageProbs := e.parsePaging(q)
	if probs = append(probs, pageProbs...); len(probs) > 0 {
		writeError(w, e.attributeError(probs...))
		return
	}
	var out listResponse[any]
	found := false
	videos.read(e, func() {
		i := videos.find(&e.st, id)
		if found = i >= 0; found {
			tracks := slices.Clone(*k.items(e.st.Videos[i]))
			out = paginate(tracks, page, "/videos/"+id+"/"+k.path, url.Values{}, func(t trackRec) any { return k.wire(id, t) })
		}
	})
	if !found {
		writeError(w, e.notFound(videos.idName))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// handleCaptionDefault serves PATCH /videos/{id}/captions/{language}: {"default": bool}; one
// caption of a video at most is the default, so setting one unsets the others.
func (e *Emulator) handleCaptionDefault(w http.ResponseWriter, r *http.Request, id string) {
	language := r.PathValue("language")
	if refused := captionFiles.languageRefused(e, language, true); refused != nil {
		writeError(w, *refused)
		return
	}
	body, ok := readObject(r)
	if !ok {
		writeError(w, e.invalidPayload())
		return
	}
	probs := e.unknownMembers(body, []string{"default"}, "")
	raw, present := body["default"]
	var def bool
	if present {
		var detail string
		if def, detail = decodeMember[bool](raw, "bool"); detail != "" {
			probs = append([]problem{e.fieldInvalid("default", detail)}, probs...)
		}
	}
	if len(probs) > 0 {
		writeError(w, e.fieldError(probs...))
		return
	}
	out, refused := captionFiles.change(e, id, func(tracks []trackRec) ([]trackRec, any, *apiError) {
		i := findTrack(tracks, language)
		if i < 0 {
			a := e.notFound("language")
			return nil, nil, &a
		}
		if present {
			for j := range tracks {
				tracks[j].Default = def && j == i
			}
		}
		return tracks, captionFiles.wire(id, tracks[i]), nil
	})
	if refused != nil {
		writeError(w, *refused)
		return
	}
	e.answerWrite(w, http.StatusOK, out)
}
