package acctest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"time"
)

// Phases of a request in which slowService holds it.
const (
	// HoldBeforeHandling holds the request after it arrived and before the service acts on it:
	// the request is in flight.
	HoldBeforeHandling = "before handling"
	// HoldInBody holds the response after its headers and the first half of its body: the
	// service has acted, and the response is being read.
	HoldInBody = "in the body"
	// HoldOnTheWay holds the request on its way to the service, as a slow link does: the
	// service acts on it once the hold ends, and never if its client hung up meanwhile.
	HoldOnTheWay = "on the way"
)

// SlowService slows the requests that match, in one phase, the way a slow service does: it
// goes on with a request whose client has hung up (the emulator alone would stop at once), so a
// create that was sent is stored whether or not its client waits for the response. Each request
// that reaches the hold is announced on arrived (never blocking: a full channel drops it).
type SlowService struct {
	next    http.Handler
	match   func(r *http.Request) bool
	phase   string
	hold    time.Duration
	arrived chan string
}

func NewSlowService(next http.Handler, phase string, hold time.Duration, match func(r *http.Request) bool) *SlowService {
	return &SlowService{next: next, match: match, phase: phase, hold: hold, arrived: make(chan string, 1000)}
}

// IsWebhooks matches the requests of /webhooks (a create or a list) with the method.
func IsWebhooks(method string) func(r *http.Request) bool {
	return func(r *http.Request) bool { return r.Method == method && r.URL.Path == "/webhooks" }
}

func (s *SlowService) announce(r *http.Request) {
	select {
	case s.arrived <- r.Method + " " + r.URL.Path:
	default:
	}
}

func (s *SlowService) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.match(r) {
		s.next.ServeHTTP(w, r)
		return
	}
	hungUp := r.Context().Done()
	r = r.WithContext(context.WithoutCancel(r.Context()))
	switch s.phase {
	case HoldOnTheWay:
		s.announce(r)
		select {
		case <-time.After(s.hold):
			s.next.ServeHTTP(w, r)
		case <-hungUp:
		}
	case HoldBeforeHandling:
		s.announce(r)
		time.Sleep(s.hold)
		s.next.ServeHTTP(w, r)
	case HoldInBody:
		rec := httptest.NewRecorder()
		s.next.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		body := rec.Body.Bytes()
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body[:len(body)/2])
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
		s.announce(r)
		time.Sleep(s.hold)
		_, _ = w.Write(body[len(body)/2:])
	default:
		panic("slowService: unknown phase " + s.phase)
	}
}

// Await waits at most d for n requests to reach the hold, and reports whether they did.
func (s *SlowService) Await(n int, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	for range n {
		select {
		case <-s.arrived:
		case <-deadline.C:
			return false
		}
	}
	return true
}
