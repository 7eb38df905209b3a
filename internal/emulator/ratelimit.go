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

// requestClass puts every request whose body is multipart/form-data into the uploads class (the
// contract's decision: source chunks, thumbnails, captions, chapters, watermarks, logos), and the
// others by their method. The control API's simulated upload does not consume the service's
// budget.
func requestClass(r *http.Request) rateClass {
	if isMultipart(r) {
		return classUploads
	}
	return classOf(r.Method)
}

// classOf puts reads (GET and HEAD) and writes (every other method) into their classes.
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
// after the previous one closed and lasts RateWindow. It also keeps the statistics of
// RateStats, since it is the one place that sees every rate-limited request and every 429 it
// writes together with its subject and class.
type rateLimiter struct {
	mu       sync.Mutex
	limits   [3]int
	window   time.Duration
	buckets  map[bucketKey]*bucket
	counters [3]classCounters
}

type bucketKey struct {
	subject string
	class   rateClass
}

type bucket struct {
	start time.Time
	used  int

	// recent are the 429s of this bucket written less than EarlyGrace ago, oldest first: a
	// request arriving now may have been sent before the client read them.
	recent []refusal
	// retryUntil is the latest end of a Retry-After among the older 429s: a request arriving
	// before it is early.
	retryUntil time.Time
}

// refusal is one 429 of the rate limiter: when it was written and when its
// X-RateLimit-Retry-After elapses.
type refusal struct {
	at, until time.Time
}

// maxRecentRefusals bounds the 429s a bucket remembers within EarlyGrace; beyond it the newest
// one takes over the latest Retry-After end, which can only excuse requests, never accuse one.
const maxRecentRefusals = 64

// classCounters are the statistics of one rate class, over every subject.
type classCounters struct {
	requests, refused, early int
	first, last              time.Time
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
	early := b.early(now)
	limit := l.limits[class]
	d := rateDecision{limit: limit}
	if consume && b.used < limit {
		b.used++
		d.allowed = true
	}
	d.remaining = limit - b.used
	left := b.start.Add(l.window).Sub(now)
	d.retryAfter = max(1, int(ceilSeconds(left)/time.Second))
	// Every caller of take answers 429 when the request is not allowed; peek serves injected
	// 429s, which are the fault injection's and not the limiter's, so they are not recorded.
	refused := consume && !d.allowed
	if refused {
		b.refuse(refusal{at: now, until: now.Add(time.Duration(d.retryAfter) * time.Second)})
	}
	l.counters[class].add(now, refused, early)
	return d
}

// early reports whether a request arriving at now comes before the Retry-After of a 429 this
// bucket wrote at least EarlyGrace ago has elapsed, after moving the 429s that reached that age
// out of recent.
func (b *bucket) early(now time.Time) bool {
	n := 0
	for _, r := range b.recent {
		if now.Before(r.at.Add(EarlyGrace)) {
			break
		}
		if r.until.After(b.retryUntil) {
			b.retryUntil = r.until
		}
		n++
	}
	if n > 0 {
		b.recent = append(b.recent[:0], b.recent[n:]...)
	}
	return now.Before(b.retryUntil)
}

func (b *bucket) refuse(r refusal) {
	if k := len(b.recent); k >= maxRecentRefusals {
		last := &b.recent[k-1]
		last.at = r.at
		if r.until.After(last.until) {
			last.until = r.until
		}
		return
	}
	b.recent = append(b.recent, r)
}

func (c *classCounters) add(now time.Time, refused, early bool) {
	if c.requests == 0 || now.Before(c.first) {
		c.first = now
	}
	if c.requests == 0 || now.After(c.last) {
		c.last = now
	}
	c.requests++
	if refused {
		c.refused++
	}
	if early {
		c.early++
	}
}

// counts returns a copy of the statistics of every class.
func (l *rateLimiter) counts() [3]classCounters {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.counters
}

func setRateHeaders(w http.ResponseWriter, d rateDecision) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(d.limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(d.remaining))
	h.Set("X-RateLimit-Retry-After", strconv.Itoa(d.retryAfter))
}
