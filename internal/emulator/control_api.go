package emulator

import (
	"bytes"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"path"
	"slices"
	"sort"
	"strings"
	"time"
)

// controlPrefix is the root of the control API; the service has no path under it.
const controlPrefix = "/_emulator"

// ControlIndex documents the control API; GET /_emulator/ answers it as plain text and the
// command prints it in its usage.
const ControlIndex = `Control API of the videohost emulator (not part of the service; never rate limited or counted).
When a control token is set, every call needs "Authorization: Bearer <control token>".
A call is refused (403) when its Host is neither the emulator's address nor a loopback name
(DNS rebinding), when its Origin is another site's, or when its body is not application/json
(-control-allow-host and -control-allow-origin allow more).

GET    /_emulator/                                    this index
POST   /_emulator/webhooks             {"url","events"}
       create a webhook as if outside Terraform (201, the webhook with its signatureSecret)
DELETE /_emulator/webhooks/{id}                       delete a webhook as if outside Terraform (204)
POST   /_emulator/videos               {"title","duration","tags","metadata","description"}
       simulate an upload and its encoding (201, the video); emits 10
       video.encoding.quality.completed events (hls and mp4 at 240p, 360p, 480p, 720p, 1080p);
       duration is in seconds (default 10; at most 30 in the sandbox); metadata is
       [{"key","value"}] or {"key": "value"}
POST   /_emulator/live-streams         {"name"}       create a live stream (201, the live stream)
DELETE /_emulator/live-streams/{id}                   delete a live stream as if outside Terraform (204);
       one that is broadcasting ends first (live-stream.broadcast.ended)
DELETE /_emulator/players/{id}                        delete a player theme as if outside Terraform (204);
       the live streams that used it lose their playerId
POST   /_emulator/live-streams/{id}/broadcast/start   broadcasting becomes true; emits live-stream.broadcast.started
POST   /_emulator/live-streams/{id}/broadcast/end     broadcasting becomes false; emits live-stream.broadcast.ended
POST   /_emulator/live-streams/{id}/record {"duration"}
       record the live stream (201, the new video with source.liveStream); emits video.source.recorded
POST   /_emulator/videos/{id}/captions {"language"}  emits video.caption.generated (201; language default en)
POST   /_emulator/plays                {"mediaId","country","continent","deviceType","operatingSystem","browser",
                                        "referrer","viewer","played","ended","watchTime","impressionTime","at","count"}
       record plays of a video or live stream that the analytics (/data/...) count (201, the plays):
       each is an impression, and unless played is false a start and a play watched for watchTime
       seconds (default 10), an end when ended; loaded in impressionTime ms (default 500); at is
       RFC 3339 (default now); count plays (default 1), each by its own viewer unless viewer is given;
       country is ISO 3166 alpha-2, continent (AS, AF, NA, SA, AN, EU, AZ) defaults to the country's
       continent
POST   /_emulator/videos/{id}/summary                 generates the video's summary (GET /summaries lists it; the
       one it has already, if any) and emits video.summary.generated (201)
GET    /_emulator/deliveries                          every event delivery and its outcome
POST   /_emulator/clock/advance        {"seconds"}    move the emulator's clock forward
GET    /_emulator/videos/{id}/source              the source of a video made through the API:
       {"videoId","complete","size","sha256","completedAt"} (size and sha256, lowercase hex of the
       whole source, are null until every chunk arrived; completedAt, RFC 3339 in nanoseconds, is
       when an upload's last chunk made it complete, null for a copied source)
GET    /_emulator/faults                              the injected faults, and "injected": the counts of
       faults injected so far {"error500","readError500","burst429","commitThen500",
       "uploadCommitThen500","uploadCut"}
PUT    /_emulator/faults               {"errorRate","readErrorRate","commitThen500Rate","latencyMs","burst429",
                                        "uploadCommitThen500Rate","uploadCuts","uploadCutAfterBytes"}
       replace the injected faults (absent members are 0, that is off); readErrorRate
       applies to GET and HEAD only; uploadCommitThen500Rate stores a source chunk and answers
       500; uploadCuts cuts the connection of the next N source chunks after
       uploadCutAfterBytes bytes of their file (default 1048576), storing nothing of them;
       the counts are kept
POST   /_emulator/tokens/revoke                       revoke every access and refresh token (204)
GET    /_emulator/stats                               request counts per method and path ("requests",
       "total"), and per rate class ("rateLimits": requests, tooManyRequests, early, first, last):
       early requests arrived after a 429 of the rate limiter to the same key and class, more
       than earlyGraceMs after it and before its X-RateLimit-Retry-After had elapsed; and the
       bytes of source files received ("uploads": {"bytes", "videos": {videoId: bytes}}),
       refused, cut and re-sent chunks included; and the event deliveries ("deliveries":
       offered, delivered, failed, dropped because the queue was full, pending, and the queue
       and workers bounds): offered = delivered + failed + dropped + pending
`

// serveControl serves the control API under /_emulator/: the token check, then the routes of
// newControlMux.
func (e *Emulator) serveControl(w http.ResponseWriter, r *http.Request) {
	if why := e.controlRefusal(r); why != "" {
		writeError(w, e.newError(http.StatusForbidden, slugControlRefused, why))
		return
	}
	if e.opts.ControlToken != "" {
		want := "Bearer " + e.opts.ControlToken
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), []byte(want)) != 1 {
			writeError(w, *e.unauthorized("The control API needs Authorization: Bearer <control token>."))
			return
		}
	}
	// The mux would redirect a path with // or dot segments to its clean form; the control API
	// answers it as an unknown path instead, with the service's error object.
	if p := r.URL.Path; p != path.Clean(p) && p != path.Clean(p)+"/" {
		writeError(w, e.newError(http.StatusNotFound, slugUnrecognizedURL, titleUnrecognizedURL))
		return
	}
	// The mux lets a GET route answer HEAD, which the control API does not take (nor does the
	// service): HEAD is refused as a method that no route has, 405 where the path exists.
	if r.Method == http.MethodHead {
		unrouted := *r
		unrouted.Method = http.MethodOptions
		h, _ := e.control.Handler(&unrouted)
		e.controlMiss(w, r, h)
		return
	}
	// Handler finds the route without setting the path's values, which ServeHTTP does.
	if h, pattern := e.control.Handler(r); pattern == "" {
		e.controlMiss(w, r, h)
		return
	}
	e.control.ServeHTTP(w, r)
}

// newControlMux routes the control API by method and path; ControlIndex describes each route.
func (e *Emulator) newControlMux() *http.ServeMux {
	mux := http.NewServeMux()
	routes := map[string]http.HandlerFunc{
		"GET " + controlPrefix:                            e.ctlIndex,
		"GET " + controlPrefix + "/{$}":                   e.ctlIndex,
		"POST " + controlPrefix + "/webhooks":             e.ctlCreateWebhook,
		"DELETE " + controlPrefix + "/webhooks/{id}":      pathID(e, (*Emulator).handleDeleteWebhook),
		"POST " + controlPrefix + "/videos":               simulation(e, http.StatusCreated, videos.idName, e.ctlUploadVideo),
		"POST " + controlPrefix + "/videos/{id}/captions": simulation(e, http.StatusCreated, videos.idName, e.ctlCaption),
		"POST " + controlPrefix + "/videos/{id}/summary":  simulation(e, http.StatusCreated, videos.idName, e.ctlSummary),
		"POST " + controlPrefix + "/live-streams":         simulation(e, http.StatusCreated, liveStreams.idName, e.ctlCreateLiveStream),
		"DELETE " + controlPrefix + "/live-streams/{id}":  pathID(e, (*Emulator).handleDeleteLiveStream),
		"POST " + controlPrefix + "/live-streams/{id}/broadcast/start": simulation(e, http.StatusOK, liveStreams.idName, func(r *http.Request, _ noBody) (liveStreamWire, error) {
			return e.setBroadcasting(r.PathValue("id"), true)
		}),
		"POST " + controlPrefix + "/live-streams/{id}/broadcast/end": simulation(e, http.StatusOK, liveStreams.idName, func(r *http.Request, _ noBody) (liveStreamWire, error) {
			return e.setBroadcasting(r.PathValue("id"), false)
		}),
		"POST " + controlPrefix + "/live-streams/{id}/record": simulation(e, http.StatusCreated, liveStreams.idName, e.ctlRecord),
		"DELETE " + controlPrefix + "/players/{id}":           pathID(e, (*Emulator).handleDeletePlayer),
		"GET " + controlPrefix + "/deliveries":                e.ctlDeliveries,
		"POST " + controlPrefix + "/clock/advance":            e.ctlAdvanceClock,
		"GET " + controlPrefix + "/faults":                    e.ctlGetFaults,
		"PUT " + controlPrefix + "/faults":                    e.ctlPutFaults,
		"POST " + controlPrefix + "/tokens/revoke":            e.ctlRevoke,
		"GET " + controlPrefix + "/stats":                     e.ctlStats,
		"GET " + controlPrefix + "/videos/{id}/source":        e.ctlVideoSource,
	}
	for pattern, h := range routes {
		mux.HandleFunc(pattern, h)
	}
	for pattern, h := range e.analyticsControlRoutes() {
		mux.HandleFunc(pattern, h)
	}
	return mux
}

// pathID serves a control route with h, a handler of the service's API, giving it the route's
// {id}: the control API deletes records as the service does, only without its rate limits,
// faults and counts.
func pathID(e *Emulator, h apiHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h(e, w, r, r.PathValue("id"))
	}
}

// controlMiss answers a request that no control route serves with the service's error object:
// 405 with the Allow header that the mux's own answer carries when the path exists for other
// methods, less HEAD, which the mux adds beside GET and the control API refuses; 404 otherwise.
// The mux's answer is only looked at, never sent, since it is plain text.
func (e *Emulator) controlMiss(w http.ResponseWriter, r *http.Request, h http.Handler) {
	var probe statusProbe
	h.ServeHTTP(&probe, r)
	if probe.status == http.StatusMethodNotAllowed {
		allow := slices.DeleteFunc(strings.Split(probe.Header().Get("Allow"), ", "), func(m string) bool { return m == http.MethodHead })
		w.Header().Set("Allow", strings.Join(allow, ", "))
		writeError(w, e.newError(http.StatusMethodNotAllowed, slugMethodNotAllowed, titleMethodNotAllowed))
		return
	}
	writeError(w, e.newError(http.StatusNotFound, slugUnrecognizedURL, titleUnrecognizedURL))
}

// statusProbe is a ResponseWriter that keeps the status and headers written to it and drops
// the body.
type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header {
	if p.header == nil {
		p.header = http.Header{}
	}
	return p.header
}

func (p *statusProbe) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
}

func (p *statusProbe) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return len(b), nil
}

// decodeControl decodes an optional JSON body into v, refusing unknown members so that a typo
// in a demo script is an error rather than a silent default.
func (e *Emulator) decodeControl(w http.ResponseWriter, r *http.Request, v any) bool {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBodyBytes+1))
	if err != nil || len(b) > maxBodyBytes {
		writeError(w, e.invalidPayload())
		return false
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return true
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		a := e.invalidPayload()
		a.Title = "The payload is invalid: " + err.Error()
		writeError(w, a)
		return false
	}
	return true
}

// writeSimError answers an error of a simulation: 404 for an unknown id, 400 otherwise.
func (e *Emulator) writeSimError(w http.ResponseWriter, err error, name string) {
	detail := err.Error()
	var se *simError
	if errors.As(err, &se) {
		detail = se.detail
	}
	if errors.Is(err, ErrNotFound) {
		a := e.notFound(name)
		a.Title = titleNotFound + " (" + detail + ".)"
		writeError(w, a)
		return
	}
	writeError(w, e.newError(http.StatusBadRequest, slugInvalidAttribute, sentence(detail)))
}

// noBody is the input of a control route that reads no body: whatever is sent is ignored.
type noBody struct{}

// simulation serves a control route that runs a simulation. The body, unless In is noBody, is
// decoded into In; run's result is answered with status, and its error as writeSimError
// answers it, a not-found naming idName.
func simulation[In, Out any](e *Emulator, status int, idName string, run func(r *http.Request, in In) (Out, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var in In
		if _, ignored := any(in).(noBody); !ignored && !e.decodeControl(w, r, &in) {
			return
		}
		out, err := run(r, in)
		if err != nil {
			e.writeSimError(w, err, idName)
			return
		}
		writeJSON(w, status, out)
	}
}

// controlDuration converts the optional duration of a control request, 0 when absent; one that
// is not a positive number of seconds is refused.
func controlDuration(s *float64) (time.Duration, error) {
	if s == nil {
		return 0, nil
	}
	d, ok := seconds(*s)
	if !ok {
		return 0, durationNotPositive()
	}
	return d, checkPositive(d)
}

// sentence turns an error message into a title: a capital first letter and a final period.
func sentence(msg string) string {
	if msg == "" {
		return msg
	}
	msg = strings.ToUpper(msg[:1]) + msg[1:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

func (e *Emulator) ctlIndex(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	_, _ = io.WriteString(w, ControlIndex)
}

func (e *Emulator) ctlCreateWebhook(w http.ResponseWriter, r *http.Request) {
	// Made as if in the dashboard: no injected fault, and the answer shows the secret.
	if wh, ok := e.createWebhookFrom(w, r); ok {
		writeJSON(w, http.StatusCreated, toWebhookWire(wh, true))
	}
}

// metadataInput accepts metadata as [{"key","value"}] or as {"key": "value"}.
type metadataInput []Metadatum

func (m *metadataInput) UnmarshalJSON(b []byte) error {
	var list []Metadatum
	if err := json.Unmarshal(b, &list); err == nil {
		*m = list
		return nil
	}
	var obj map[string]string
	if err := json.Unmarshal(b, &obj); err != nil {
		return errors.New(`metadata must be [{"key","value"}] or {"key": "value"}`)
	}
	out := make([]Metadatum, 0, len(obj))
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		out = append(out, Metadatum{Key: k, Value: obj[k]})
	}
	*m = out
	return nil
}

// maxControlSeconds bounds the durations a control request may give (ten years), far from the
// overflow of time.Duration.
const maxControlSeconds = 10 * 365 * 24 * 3600

// seconds converts a duration in seconds from a request, refusing negative, NaN and huge values.
func seconds(s float64) (time.Duration, bool) {
	if math.IsNaN(s) || s < 0 || s > maxControlSeconds {
		return 0, false
	}
	return time.Duration(s * float64(time.Second)), true
}

// uploadInput is the body of POST /_emulator/videos.
type uploadInput struct {
	Title       string        `json:"title"`
	Description string        `json:"description"`
	Duration    *float64      `json:"duration"`
	Tags        []string      `json:"tags"`
	Metadata    metadataInput `json:"metadata"`
}

func (e *Emulator) ctlUploadVideo(_ *http.Request, in uploadInput) (videoWire, error) {
	d, err := controlDuration(in.Duration)
	if err != nil {
		return videoWire{}, err
	}
	if in.Title == "" {
		in.Title = "Uploaded video"
	}
	return e.uploadVideo(VideoInput{Title: in.Title, Description: in.Description, Duration: d, Tags: in.Tags, Metadata: in.Metadata})
}

func (e *Emulator) ctlCreateLiveStream(_ *http.Request, in struct {
	Name string `json:"name"`
}) (liveStreamWire, error) {
	if in.Name == "" {
		in.Name = "Live stream"
	}
	return e.createLiveStream(in.Name)
}

func (e *Emulator) ctlRecord(r *http.Request, in struct {
	Duration *float64 `json:"duration"`
}) (videoWire, error) {
	d, err := controlDuration(in.Duration)
	if err != nil {
		return videoWire{}, err
	}
	return e.recordLiveStream(r.PathValue("id"), d)
}

func (e *Emulator) ctlCaption(r *http.Request, in struct {
	Language string `json:"language"`
}) (map[string]string, error) {
	return e.generateCaption(r.PathValue("id"), in.Language)
}

func (e *Emulator) ctlSummary(r *http.Request, _ noBody) (map[string]string, error) {
	return e.generateSummary(r.PathValue("id"))
}

func (e *Emulator) ctlDeliveries(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, e.Deliveries())
}

func (e *Emulator) ctlAdvanceClock(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Seconds *float64 `json:"seconds"`
	}
	if !e.decodeControl(w, r, &in) {
		return
	}
	if in.Seconds == nil {
		writeError(w, e.attributeError(e.required("seconds")))
		return
	}
	d, ok := seconds(*in.Seconds)
	if !ok {
		writeError(w, e.attributeError(e.invalid("seconds", "This attribute must be a number of seconds from 0 to 315360000.")))
		return
	}
	e.AdvanceClock(d)
	writeJSON(w, http.StatusOK, map[string]string{"now": atom(e.now())})
}

// faultsWire is the control API's form of Faults.
type faultsWire struct {
	ErrorRate               float64 `json:"errorRate"`
	ReadErrorRate           float64 `json:"readErrorRate"`
	CommitThen500Rate       float64 `json:"commitThen500Rate"`
	LatencyMs               int64   `json:"latencyMs"`
	Burst429                int     `json:"burst429"`
	UploadCommitThen500Rate float64 `json:"uploadCommitThen500Rate"`
	UploadCuts              int     `json:"uploadCuts"`
	UploadCutAfterBytes     int64   `json:"uploadCutAfterBytes"`
}

// faultCountsWire is the control API's form of FaultCounts.
type faultCountsWire struct {
	Error500            int `json:"error500"`
	ReadError500        int `json:"readError500"`
	Burst429            int `json:"burst429"`
	CommitThen500       int `json:"commitThen500"`
	UploadCommitThen500 int `json:"uploadCommitThen500"`
	UploadCut           int `json:"uploadCut"`
}

// faultsAnswer is what GET and PUT /_emulator/faults answer: the faults and, in "injected",
// what they injected so far. PUT does not accept "injected" (unknown members are refused).
type faultsAnswer struct {
	faultsWire
	Injected faultCountsWire `json:"injected"`
}

func (e *Emulator) ctlGetFaults(w http.ResponseWriter, _ *http.Request) {
	f := e.faults.get()
	c := e.faults.counts()
	writeJSON(w, http.StatusOK, faultsAnswer{
		faultsWire{f.ErrorRate, f.ReadErrorRate, f.CommitThen500Rate, f.Latency.Milliseconds(), f.Burst429,
			f.UploadCommitThen500Rate, f.UploadCuts, f.UploadCutAfterBytes},
		faultCountsWire(c),
	})
}

func (e *Emulator) ctlPutFaults(w http.ResponseWriter, r *http.Request) {
	var in faultsWire
	if !e.decodeControl(w, r, &in) {
		return
	}
	f := Faults{
		ErrorRate: in.ErrorRate, ReadErrorRate: in.ReadErrorRate, CommitThen500Rate: in.CommitThen500Rate, Burst429: in.Burst429,
		UploadCommitThen500Rate: in.UploadCommitThen500Rate, UploadCuts: in.UploadCuts, UploadCutAfterBytes: in.UploadCutAfterBytes,
	}
	if in.LatencyMs < 0 || in.LatencyMs > int64(time.Hour/time.Millisecond) {
		writeError(w, e.attributeError(e.invalid("latencyMs", "This attribute must be between 0 and 3600000.")))
		return
	}
	f.Latency = time.Duration(in.LatencyMs) * time.Millisecond
	if err := f.validate(); err != nil {
		writeError(w, e.newError(http.StatusBadRequest, slugInvalidAttribute, fmt.Sprint(err)))
		return
	}
	e.SetFaults(f)
	e.ctlGetFaults(w, r)
}

func (e *Emulator) ctlRevoke(w http.ResponseWriter, _ *http.Request) {
	e.RevokeTokens()
	w.WriteHeader(http.StatusNoContent)
}

func (e *Emulator) ctlStats(w http.ResponseWriter, _ *http.Request) {
	counts, total := e.stats.snapshot()
	type row struct {
		Method string `json:"method"`
		Path   string `json:"path"`
		Count  int    `json:"count"`
	}
	rows := make([]row, 0, len(counts))
	for k, c := range counts {
		m, p, _ := strings.Cut(k, " ")
		rows = append(rows, row{m, p, c})
	}
	sort.Slice(rows, func(i, j int) bool {
		if rows[i].Path != rows[j].Path {
			return rows[i].Path < rows[j].Path
		}
		return rows[i].Method < rows[j].Method
	})
	perVideo, uploaded := e.stats.uploads()
	writeJSON(w, http.StatusOK, map[string]any{
		"total": total, "requests": rows, "rateLimits": e.RateStats().wire(),
		"uploads":    map[string]any{"bytes": uploaded, "videos": perVideo},
		"deliveries": e.DeliveryStats(),
	})
}

// sourceWire is the control API's report of a video's source.
type sourceWire struct {
	VideoID  string  `json:"videoId"`
	Complete bool    `json:"complete"`
	Size     *int64  `json:"size"`
	SHA256   *string `json:"sha256"`
	// CompletedAt is when an upload made the source complete, in nanoseconds, so that a
	// benchmark takes an upload's span from it and the first upload request (GET /_emulator/stats)
	// instead of polling while the upload runs, which costs the CPU it measures.
	CompletedAt *string `json:"completedAt"`
}

func (e *Emulator) ctlVideoSource(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	src, ok := e.videoSource(id)
	if !ok {
		writeError(w, e.notFound(videos.idName))
		return
	}
	out := sourceWire{VideoID: id, Complete: src.SourceSHA256 != ""}
	if out.Complete {
		out.Size, out.SHA256 = &src.SourceSize, &src.SourceSHA256
	}
	if !src.SourceCompletedAt.IsZero() {
		at := src.SourceCompletedAt.Format(time.RFC3339Nano)
		out.CompletedAt = &at
	}
	writeJSON(w, http.StatusOK, out)
}

// VideoSource reports the size and lowercase hex SHA-256 of video id's source once it is
// complete (uploaded or copied); ok is false when the video does not exist.
func (e *Emulator) VideoSource(id string) (size int64, sha256 string, complete, ok bool) {
	src, ok := e.videoSource(id)
	return src.SourceSize, src.SourceSHA256, src.SourceSHA256 != "", ok
}

// videoSource is a copy of what video id holds of its source; ok is false when the video does
// not exist.
func (e *Emulator) videoSource(id string) (src videoMedia, ok bool) {
	videos.read(e, func() {
		if i := videos.find(&e.st, id); i >= 0 {
			src, ok = e.st.Videos[i].videoMedia, true
		}
	})
	return src, ok
}
