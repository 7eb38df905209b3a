package emulator

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

var _ http.Handler = (*Emulator)(nil)

// Emulator is one service instance; safe for concurrent use.
type Emulator struct {
	opts Options

	keys      []string
	keyFP     map[string]string // API key to its fingerprint, the rate-limit and token subject
	otherKeys map[string]bool
	jwtSecret []byte

	mu sync.RWMutex // guards st
	st store

	clockOffset atomic.Int64 // nanoseconds added to Options.Now by AdvanceClock

	control *http.ServeMux // the control API's routes

	tokens   tokenState
	limiter  *rateLimiter
	faults   faultState
	stats    requestStats
	delivery deliveryState
	uploads  uploadRegistry
	encoder  encoderState

	saveMu     sync.Mutex  // serialises state file writes
	saveFailed atomic.Bool // the last write of the state file failed
	statePin   *statePin   // the file that StatePath named at the start (state_target.go)
}

// New builds an emulator (loading StatePath when it exists).
func New(opts Options) (*Emulator, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	e := &Emulator{
		opts:      opts,
		keyFP:     map[string]string{},
		otherKeys: map[string]bool{},
		jwtSecret: make([]byte, 32),
	}
	_, _ = rand.Read(e.jwtSecret)
	e.keys = slices.Clone(opts.APIKeys)
	if len(e.keys) == 0 {
		e.keys = []string{randomID("", 43)}
	}
	for _, k := range e.keys {
		e.keyFP[k] = fingerprint(k)
	}
	for _, k := range opts.OtherEnvironmentKeys {
		e.otherKeys[k] = true
	}
	e.tokens.refresh = map[string]refreshGrant{}
	e.limiter = newRateLimiter(opts.Limits, opts.RateWindow)
	e.faults.set(opts.Faults)
	e.stats.counts = map[string]int{}
	e.delivery.init(opts)
	e.encoder.init()
	e.control = e.newControlMux()

	loaded, err := e.loadState()
	if err != nil {
		return nil, err
	}
	if !loaded {
		e.seed(opts.SeedVideos, opts.SeedLiveStreams)
		if err := e.saveState(); err != nil {
			return nil, err
		}
	}
	e.resumeEncodings()
	return e, nil
}

// fingerprint names a key without revealing it: tokens and rate-limit buckets carry it.
func fingerprint(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:8])
}

// now is the emulator's clock: Options.Now plus every AdvanceClock so far.
func (e *Emulator) now() time.Time {
	return e.opts.Now().Add(time.Duration(e.clockOffset.Load()))
}

// Now returns the emulator's current time (Options.Now plus every AdvanceClock so far).
func (e *Emulator) Now() time.Time { return e.now() }

// maxClockOffset keeps the sum of every AdvanceClock far from the overflow of time.Duration.
const maxClockOffset = 100 * 365 * 24 * time.Hour

// AdvanceClock moves the emulator's clock forward by d (negative values are ignored; the total
// is capped at 100 years): tokens, rate-limit windows and sandbox expiry all follow it.
func (e *Emulator) AdvanceClock(d time.Duration) {
	if d <= 0 {
		return
	}
	for {
		old := e.clockOffset.Load()
		next := min(time.Duration(old)+min(d, maxClockOffset), maxClockOffset)
		if e.clockOffset.CompareAndSwap(old, int64(next)) {
			break
		}
	}
	e.mu.Lock()
	e.purgeExpiredLocked(e.now())
	e.mu.Unlock()
	// The offset is part of the saved state, so the file is written even when nothing expired.
	e.saveStateLogged()
}

// APIKeys returns the keys of this environment (the generated one when none was given).
func (e *Emulator) APIKeys() []string { return slices.Clone(e.keys) }

// Environment is sandbox or production.
func (e *Emulator) Environment() string { return e.opts.Environment }

// Close stops the encodings and the pending deliveries, deletes the chunks of unfinished
// uploads, and saves state when StatePath is set.
func (e *Emulator) Close() error {
	e.encoder.close()
	e.delivery.close()
	return errors.Join(e.uploads.close(), e.saveState())
}

// ServeHTTP serves the service API and the control API.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e.opts.StatePath != "" && changes(r.Method) {
		w = &keptWriter{ResponseWriter: w, e: e}
	}
	path := r.URL.Path
	if path == controlPrefix || strings.HasPrefix(path, controlPrefix+"/") {
		e.serveControl(w, r)
		return
	}
	if e.serveCORS(w, r) {
		return
	}
	e.stats.count(r.Method, path)
	if !e.injectLatency(r.Context()) {
		return
	}
	// The service dates its answers by its own clock, which AdvanceClock moves: a client that
	// judges an expiry by the service's Date sees the time that expired the token.
	w.Header().Set("Date", e.now().UTC().Format(http.TimeFormat))
	switch path {
	case "/auth/api-key":
		e.serveAuthEndpoint(w, r, e.handleAuthAPIKey)
		return
	case "/auth/refresh":
		e.serveAuthEndpoint(w, r, e.handleAuthRefresh)
		return
	case "/upload":
		e.serveTokenUpload(w, r)
		return
	}
	rt, id, ok := matchRoute(path)
	if !ok {
		writeError(w, e.newError(http.StatusNotFound, slugUnrecognizedURL, titleUnrecognizedURL))
		return
	}
	class := requestClass(r)
	subject, aerr := e.authenticate(r)
	if aerr != nil {
		// Without a key, the caller's address is the bucket: the 401 carries true rate-limit
		// headers, and hammering with bad credentials ends in 429 like anything else.
		subject = anonymousSubject(r)
	} else if e.faults.take429() {
		d := e.limiter.peek(subject, class, e.now())
		d.remaining = 0
		setRateHeaders(w, d)
		writeError(w, e.tooManyRequests())
		return
	}
	d := e.limiter.take(subject, class, e.now())
	setRateHeaders(w, d)
	if !d.allowed {
		writeError(w, e.tooManyRequests())
		return
	}
	if aerr != nil {
		writeError(w, *aerr)
		return
	}
	h := rt.handler(r.Method)
	if h == nil {
		w.Header().Set("Allow", rt.allow())
		writeError(w, e.newError(http.StatusMethodNotAllowed, slugMethodNotAllowed, titleMethodNotAllowed))
		return
	}
	if e.faults.takeError(r.Method) {
		writeError(w, e.serverError())
		return
	}
	if e.refuseLargeJSONBody(w, r) {
		return
	}
	h(e, w, r.WithContext(context.WithValue(r.Context(), subjectKey{}, subject)), id)
}

// subjectKey keys the request's subject (its key's fingerprint) in the context of a handler.
type subjectKey struct{}

// requestSubject is the fingerprint of the key that r was authenticated with.
func requestSubject(r *http.Request) string {
	s, _ := r.Context().Value(subjectKey{}).(string)
	return s
}

// anonymousSubject is the rate-limit bucket of a request without valid credentials: its remote
// address (host only, so that each new connection does not get a fresh bucket).
func anonymousSubject(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "addr:" + host
}

// injectLatency waits for the configured latency; false when the request was cancelled first.
func (e *Emulator) injectLatency(ctx context.Context) bool {
	d := e.faults.get().Latency
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// apiHandler serves one method of one route; id is the path's identifier, if any.
type apiHandler func(e *Emulator, w http.ResponseWriter, r *http.Request, id string)

// route is one path of the service API (the table of routes is collections, in collections.go):
// its methods, in the order the Allow header lists them.
type route []routeMethod

// routeMethod is one method of a route and the handler that serves it.
type routeMethod struct {
	method  string
	handler apiHandler
}

// handler is the route's handler of method, or nil when the route does not take it.
func (rt route) handler(method string) apiHandler {
	for _, m := range rt {
		if m.method == method {
			return m.handler
		}
	}
	return nil
}

// allow lists the route's methods for the Allow header of a 405.
func (rt route) allow() string {
	methods := make([]string, 0, len(rt))
	for _, m := range rt {
		methods = append(methods, m.method)
	}
	return strings.Join(methods, ", ")
}

// matchRoute finds the route of path: a collection (/webhooks), one item (/webhooks/{id}), or
// a route under an item (/videos/{id}/source, /videos/{id}/captions/{language}: the handler
// reads the language from the path with lastSegment).
func matchRoute(path string) (route, string, bool) {
	rest, ok := strings.CutPrefix(path, "/")
	if !ok {
		return nil, "", false
	}
	segs := strings.Split(rest, "/")
	if slices.Contains(segs[1:], "") || len(segs) > 4 {
		return nil, "", false
	}
	if rt, id, ok := matchNestedRoute(segs); ok {
		return rt, id, true
	}
	routes, ok := collections[segs[0]]
	if !ok {
		return nil, "", false
	}
	switch len(segs) {
	case 1:
		return routes[0], "", true
	case 2:
		// A collection without items of its own (tags) has no route under it.
		return routes[1], segs[1], routes[1] != nil
	}
	name := segs[0] + "/" + segs[2]
	if len(segs) == 4 {
		name += "/*"
	}
	sub, ok := subroutes[name]
	return sub, segs[1], ok
}

// lastSegment is the last segment of r's path: the language of a caption or chapter route.
func lastSegment(r *http.Request) string {
	return r.URL.Path[strings.LastIndex(r.URL.Path, "/")+1:]
}
