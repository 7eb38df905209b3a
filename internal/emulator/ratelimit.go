package emulator

import (
	"net/http"
	"strconv"
	"sync"
	"time"
)

// rateClass is one of the specification's rate-limit classes.
type rateClass int

const (
	classUploads rateClass = iota
	classWrites
	classReads
)

// classOf puts reads (GET and HEAD) and writes (every other method) into their classes. The
// uploads class is reserved for upload endpoints, which the specification does not list; the
// control API's simulated upload does not consume the service's budget either.
func classOf(method string) rateClass {
	if method == http.MethodGet || method == http.MethodHead {
		return classReads
	}
	return classWrites
}

// rateDecision is the outcome of one request against its bucket.
type rateDecision struct {
	allowed    bool
	limit      int
	remaining  int
	retryAfter int // whole seconds until the window resets, at least 1
}

// rateLimiter keeps one fixed window per key and class. A window opens at the first request
// after the previous one closed and lasts RateWindow.
type rateLimiter struct {
	mu      sync.Mutex
	limits  [3]int
	window  time.Duration
	buckets map[bucketKey]*bucket
}

type bucketKey struct {
	subject string
	class   rateClass
}

type bucket struct {
	start time.Time
	used  int
}

func newRateLimiter(l Limits, window time.Duration) *rateLimiter {
	return &rateLimiter{
		limits:  [3]int{classUploads: l.Uploads, classWrites: l.Writes, classReads: l.Reads},
		window:  window,
		buckets: map[bucketKey]*bucket{},
	}
}

// take counts one request when the window has room and reports the headers' values.
func (l *rateLimiter) take(subject string, class rateClass, now time.Time) rateDecision {
	return l.decide(subject, class, now, true)
}

// peek reports the headers' values without counting a request.
func (l *rateLimiter) peek(subject string, class rateClass, now time.Time) rateDecision {
	return l.decide(subject, class, now, false)
}

func (l *rateLimiter) decide(subject string, class rateClass, now time.Time, consume bool) rateDecision {
	l.mu.Lock()
	defer l.mu.Unlock()
	k := bucketKey{subject, class}
	b := l.buckets[k]
	if b == nil {
		b = &bucket{start: now}
		l.buckets[k] = b
	}
	if !now.Before(b.start.Add(l.window)) || now.Before(b.start) {
		b.start, b.used = now, 0
	}
	limit := l.limits[class]
	d := rateDecision{limit: limit}
	if consume && b.used < limit {
		b.used++
		d.allowed = true
	}
	d.remaining = limit - b.used
	left := b.start.Add(l.window).Sub(now)
	d.retryAfter = int((left + time.Second - 1) / time.Second)
	if d.retryAfter < 1 {
		d.retryAfter = 1
	}
	return d
}

func setRateHeaders(w http.ResponseWriter, d rateDecision) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(d.remaining))
	h.Set("X-RateLimit-Retry-After", strconv.Itoa(d.retryAfter))
}
