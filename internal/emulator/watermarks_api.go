package emulator

import (
	"net/http"
	"slices"
	"time"
)

// maxWatermarkBytes bounds a watermark image.
const maxWatermarkBytes = 8 << 20

// watermarkWire is a watermark as the service sends it.
type watermarkWire struct {
	WatermarkID string `json:"watermarkId"`
	CreatedAt   string `json:"createdAt"`
}

var watermarks = recordKind[watermark, watermarkWire]{
	path:   "/watermarks",
	idName: "watermarkId",
	id:     func(w *watermark) string { return w.ID },
	items:  func(s *store) *[]*watermark { return &s.Watermarks },
	wire: func(_ *Emulator, w *watermark) watermarkWire {
		return watermarkWire{WatermarkID: w.ID, CreatedAt: atom(w.CreatedAt)}
	},
	sortKeys: []sortKey[watermark]{
		{"createdAt", func(a, b *watermark) int { return a.CreatedAt.Compare(b.CreatedAt) }},
	},
}

// handleCreateWatermark serves POST /watermarks: a JPEG or PNG (by content), of which only the
// id and the creation time are kept; 200.
func (e *Emulator) handleCreateWatermark(w http.ResponseWriter, r *http.Request, _ string) {
	if _, refused := e.readImage(r, maxWatermarkBytes); refused != nil {
		writeError(w, *refused)
		return
	}
	wm := &watermark{ID: randomID("watermark_", 22), CreatedAt: e.now().UTC().Truncate(time.Second)}
	e.mu.Lock()
	e.st.Watermarks = append(e.st.Watermarks, wm)
	out := watermarks.wire(e, wm)
	e.mu.Unlock()
	e.saveStateLogged()
	e.answerWrite(w, http.StatusOK, out)
}

func (e *Emulator) handleListWatermarks(w http.ResponseWriter, r *http.Request, _ string) {
	watermarks.serveList(e, w, r, sortedListQuery(e, watermarks.sortKeys))
}

// handleDeleteWatermark serves DELETE /watermarks/{id}; the videos made with it keep it.
func (e *Emulator) handleDeleteWatermark(w http.ResponseWriter, _ *http.Request, id string) {
	e.mu.Lock()
	i := watermarks.find(&e.st, id)
	if i >= 0 {
		e.st.Watermarks = slices.Delete(e.st.Watermarks, i, i+1)
	}
	e.mu.Unlock()
	if i >= 0 {
		e.saveStateLogged()
	}
	watermarks.answerDelete(e, w, i >= 0)
}
