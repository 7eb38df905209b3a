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

	service *http.ServeMux // the service API's routes (serviceRoutes)
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
	e.service = e.newServiceMux()
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

// ServeHTTP serves the service API, on the routes of serviceRoutes, and the control API.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if e.opts.StatePath != "" && changes(r.Method) {
		w = &keptWriter{ResponseWriter: w, e: e}
	}
	path := r.URL.Path
	if path == controlPrefix || strings.HasPrefix(path, controlPrefix+"/") {
		e.serveControl(w, r)
		return
	}
	routed, ok := routable(r)
	if !ok {
		e.serveUnknownPath(w, r)
		return
	}
	e.service.ServeHTTP(w, routed)
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
