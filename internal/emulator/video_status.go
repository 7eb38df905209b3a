package emulator

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/events"
)

// Values of a status's ingest.status and of a quality's status.
const (
	ingestUploading = "uploading"
	ingestUploaded  = "uploaded"
	ingestIngesting = "ingesting"
	ingestIngested  = "ingested"

	qualityWaiting  = "waiting"
	qualityEncoding = "encoding"
	qualityEncoded  = "encoded"
)

// sourceQualities are the heights a source is encoded at, in HLS and, with mp4Support, in mp4:
// the emulator cannot read media, so it encodes every source at all of them.
var sourceQualities = []string{"360p", "480p", "720p", "1080p"}

// qualitiesOf are the versions v will be encoded into, all waiting.
func (e *Emulator) qualitiesOf(v *video) []qualityState {
	var out []qualityState
	for _, q := range sourceQualities {
		out = append(out, qualityState{Type: "hls", Quality: q, Status: qualityWaiting})
		if v.MP4Support {
			out = append(out, qualityState{Type: "mp4", Quality: q, Status: qualityWaiting})
		}
	}
	return out
}

// encodedMedia is the media of a video that arrived encoded (a seed, a simulated upload or a
// recording): ingested, and every quality of heights encoded in hls and mp4.
func encodedMedia(heights []string) videoMedia {
	m := videoMedia{Ingest: ingestIngested}
	for _, q := range heights {
		for _, t := range []string{"hls", "mp4"} {
			m.Qualities = append(m.Qualities, qualityState{Type: t, Quality: q, Status: qualityEncoded})
		}
	}
	return m
}

// statusWire is GET /videos/{id}/status: ingest is absent before any byte arrived.
type statusWire struct {
	Ingest   *ingestWire  `json:"ingest,omitempty"`
	Encoding encodingWire `json:"encoding"`
}

type ingestWire struct {
	Status        string             `json:"status"`
	Filesize      *int64             `json:"filesize"`
	ReceivedBytes []byteRangeWire    `json:"receivedBytes"`
	ReceivedParts *receivedPartsWire `json:"receivedParts,omitempty"`
}

// byteRangeWire is a range of bytes received. Its total is left out while the size of the file
// is unknown (chunks sent with a total of "*"): the published document does not let it be null,
// unlike the total of the parts.
type byteRangeWire struct {
	From  int64  `json:"from"`
	To    int64  `json:"to"`
	Total *int64 `json:"total,omitempty"`
}

type receivedPartsWire struct {
	Parts []int64 `json:"parts"`
	Total *int64  `json:"total"`
}

type encodingWire struct {
	Playable  bool                 `json:"playable"`
	Qualities []qualityState       `json:"qualities"`
	Metadata  encodingMetadataWire `json:"metadata"`
}

// encodingMetadataWire is what the service reads from the media; the emulator reads nothing,
// so every value is null.
type encodingMetadataWire struct {
	Width       *int    `json:"width"`
	Height      *int    `json:"height"`
	Bitrate     *int    `json:"bitrate"`
	Duration    *int    `json:"duration"`
	Framerate   *int    `json:"framerate"`
	Samplerate  *int    `json:"samplerate"`
	VideoCodec  *string `json:"videoCodec"`
	AudioCodec  *string `json:"audioCodec"`
	AspectRatio *string `json:"aspectRatio"`
}

// handleVideoStatus serves GET /videos/{id}/status.
func (e *Emulator) handleVideoStatus(w http.ResponseWriter, _ *http.Request, id string) {
	var v video
	found := false
	videos.read(e, func() {
		if i := videos.find(&e.st, id); i >= 0 {
			v, found = *e.st.Videos[i], true
			v.Qualities = slices.Clone(v.Qualities)
		}
	})
	if !found {
		writeError(w, e.notFound(videos.idName))
		return
	}
	out := statusWire{Encoding: encodingWire{Qualities: append([]qualityState{}, v.Qualities...)}}
	for _, q := range v.Qualities {
		out.Encoding.Playable = out.Encoding.Playable || q.Status == qualityEncoded
	}
	if v.Ingest != "" {
		out.Ingest = e.ingestOf(&v)
	}
	writeJSON(w, http.StatusOK, out)
}

// ingestOf is the ingest of a video whose first byte arrived (or that came from a URL or a
// copy): the ranges and parts received so far, merged.
func (e *Emulator) ingestOf(v *video) *ingestWire {
	in := &ingestWire{Status: v.Ingest, ReceivedBytes: []byteRangeWire{}}
	p, ok := e.uploads.view(v.ID)
	if v.SourceSHA256 != "" && v.SourceURL == "" {
		size := v.SourceSize
		in.Filesize = &size
		in.ReceivedBytes = []byteRangeWire{{From: 0, To: size - 1, Total: &size}}
		if ok && p.form == formPart {
			parts := make([]int64, 0, p.total)
			for n := int64(1); n <= p.total; n++ {
				parts = append(parts, n)
			}
			total := p.total
			in.ReceivedParts = &receivedPartsWire{Parts: parts, Total: &total}
		}
		return in
	}
	if !ok {
		return in
	}
	var total *int64
	if p.total >= 0 {
		t := p.total
		total = &t
	}
	if p.form == formPart {
		in.ReceivedParts = &receivedPartsWire{Parts: p.keys, Total: total}
		// Only the unbroken run from part 1 has known offsets.
		var run int64
		for i, k := range p.keys {
			if k != int64(i+1) {
				break
			}
			run += p.chunks[i].size
		}
		if run > 0 {
			in.ReceivedBytes = []byteRangeWire{{From: 0, To: run - 1}}
		}
		return in
	}
	in.Filesize = total
	for _, r := range coveredRanges(p.chunks) {
		in.ReceivedBytes = append(in.ReceivedBytes, byteRangeWire{From: r[0], To: r[1], Total: total})
	}
	return in
}

// encoderState runs the ingest and encoding of sources in goroutines that Close cancels and
// waits for.
type encoderState struct {
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu   sync.Mutex
	held map[string]bool // with Options.HoldEncoding: the videos whose ingest waits for FinishEncoding
}

func (s *encoderState) init() {
	s.ctx, s.cancel = context.WithCancel(context.Background())
}

func (s *encoderState) close() {
	s.cancel()
	s.wg.Wait()
}

// sleep waits d; false when the emulator was closed first.
func (s *encoderState) sleep(d time.Duration) bool {
	if d <= 0 {
		return s.ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-s.ctx.Done():
		return false
	}
}

// startEncoding runs the ingest and the encoding of video id in the background, or, with
// Options.HoldEncoding, holds them until FinishEncoding.
func (e *Emulator) startEncoding(id string) {
	s := &e.encoder
	if s.ctx.Err() != nil {
		return
	}
	if e.opts.HoldEncoding {
		s.mu.Lock()
		if s.held == nil {
			s.held = map[string]bool{}
		}
		s.held[id] = true
		s.mu.Unlock()
		return
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		e.runEncoding(id, e.opts.IngestDelay, e.opts.EncodingDelay)
	}()
}

// FinishEncoding runs the ingest and the encoding of video id, which Options.HoldEncoding held,
// to the end before it returns: the language detected, every quality encoded, the events sent
// to the delivery queue. It is how a test makes the service fill in a video at the moment it
// chooses (between a plan and its apply, say) instead of racing the emulator's delays. It
// refuses a video that is not held: one with no complete source, or already finished.
func (e *Emulator) FinishEncoding(id string) error {
	s := &e.encoder
	s.mu.Lock()
	held := s.held[id]
	delete(s.held, id)
	s.mu.Unlock()
	if !held {
		return notFoundf("video %s has no ingest held (HoldEncoding holds a video's once its whole source is in)", id)
	}
	e.runEncoding(id, 0, 0)
	return nil
}

// runEncoding takes video id from where it is to the end: uploaded, ingesting, ingested (the
// language detected when none was given), then each quality waiting, encoding, encoded, with
// one video.encoding.quality.completed per quality. Each step waits its delay; a video deleted
// meanwhile ends it.
func (e *Emulator) runEncoding(id string, ingestDelay, encodingDelay time.Duration) {
	s := &e.encoder
	if !s.sleep(ingestDelay) || !e.encodingStep(id, func(v *video) {
		if v.Ingest == ingestUploaded {
			v.Ingest = ingestIngesting
		}
	}) {
		return
	}
	if !s.sleep(ingestDelay) || !e.encodingStep(id, func(v *video) {
		v.Ingest = ingestIngested
		if v.Language == "" {
			v.Language, v.LanguageOrigin = e.opts.DetectedLanguage, languageDetected
		}
		if len(v.Qualities) == 0 {
			v.Qualities = e.qualitiesOf(v)
		}
	}) {
		return
	}
	for i := 0; ; i++ {
		var q qualityState
		more := false
		if !e.encodingStep(id, func(v *video) {
			if more = i < len(v.Qualities); more {
				if v.Qualities[i].Status != qualityEncoded {
					v.Qualities[i].Status = qualityEncoding
				}
				q = v.Qualities[i]
			}
		}) || !more {
			return
		}
		if q.Status == qualityEncoded {
			continue
		}
		if !s.sleep(encodingDelay) || !e.encodingStep(id, func(v *video) {
			if i < len(v.Qualities) {
				v.Qualities[i].Status = qualityEncoded
			}
		}) {
			return
		}
		e.emit(events.VideoEncodingQualityCompleted, map[string]string{"videoId": id, "encoding": q.Type, "quality": q.Quality})
	}
}

// encodingStep changes video id with fn under the lock and saves the state; false when the
// video is gone.
func (e *Emulator) encodingStep(id string, fn func(*video)) bool {
	found := false
	e.withFreshStore(func() {
		if i := videos.find(&e.st, id); i >= 0 {
			found = true
			v := *e.st.Videos[i]
			v.Qualities = slices.Clone(v.Qualities)
			fn(&v)
			e.st.Videos[i] = &v
		}
	})
	if found {
		e.saveStateLogged()
	}
	return found
}

// resumeEncodings restarts, after a load, the ingest and encoding that a previous run left
// unfinished.
func (e *Emulator) resumeEncodings() {
	var ids []string
	e.mu.RLock()
	for _, v := range e.st.Videos {
		unfinished := v.Ingest == ingestUploaded || v.Ingest == ingestIngesting ||
			slices.ContainsFunc(v.Qualities, func(q qualityState) bool { return q.Status != qualityEncoded })
		if unfinished && (v.SourceSHA256 != "" || v.SourceURL != "") {
			ids = append(ids, v.ID)
		}
	}
	e.mu.RUnlock()
	for _, id := range ids {
		e.startEncoding(id)
	}
}
