package videohost

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Rate-limit headers of every response.
const (
	headerLimit      = "X-RateLimit-Limit"
	headerRemaining  = "X-RateLimit-Remaining"
	headerRetryAfter = "X-RateLimit-Retry-After"
)

// limiter is the gate of one rate-limit class, shared by every goroutine of a client. The
// service tells, on every answer, how many requests the current window still accepts and when
// it resets; the limiter keeps a budget of the window from that, counts each request against
// it when it is sent (so that parallel callers do not overrun it before the answers come
// back), and holds callers at the reset once it is spent. So a run sends as fast as the limit
// allows, whatever the window's length, and meets a 429 only when something else spends the
// same key. A 429 closes the gate for every caller of the class until its Retry-After.
//
// Answers are matched to the window they were sent in (a generation): an answer from a window
// that has since reset says nothing about the new one, and must not close it.
type limiter struct {
	class string
	now   func() time.Time

	mu    sync.Mutex
	until time.Time // closed by a 429 (or a spent window with no known limit) until this instant
	limit int       // the last X-RateLimit-Limit seen; 0 while unknown
	// headerless is set when the service answered the class without rate headers before
	// any limit was learned: there is nothing to keep a budget of, so only 429s gate.
	headerless bool
	probing    bool      // the one request sent while the limit is unknown is out
	gen        uint64    // the window that requests are sent in now
	left       int       // requests the window still accepts, counted at send
	reset      time.Time // the earliest reset the window's answers announced; zero while unknown
	inflight   int       // requests of this window sent and not answered
	changed    chan struct{}
}

// ticket is one admitted request: the window it was sent in.
type ticket struct {
	gen   uint64
	probe bool
}

func newLimiter(class string) *limiter {
	return &limiter{class: class, now: time.Now, changed: make(chan struct{})}
}

// rateHeaders are the three rate-limit headers of one response.
type rateHeaders struct {
	limit, remaining, retryAfter int
	hasLimit, hasRemaining       bool
	hasRetryAfter                bool
}

func readRateHeaders(h http.Header) rateHeaders {
	var r rateHeaders
	r.limit, r.hasLimit = headerInt(h, headerLimit)
	r.remaining, r.hasRemaining = headerInt(h, headerRemaining)
	r.retryAfter, r.hasRetryAfter = headerInt(h, headerRetryAfter)
	return r
}

func headerInt(h http.Header, name string) (int, bool) {
	v := h.Get(name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// any reports whether the response carried a rate-limit header at all.
func (r rateHeaders) any() bool { return r.hasLimit || r.hasRemaining || r.hasRetryAfter }

// retryAfterOr is the wait the headers ask for, or def when they do not say.
func (r rateHeaders) retryAfterOr(def time.Duration) time.Duration {
	if !r.hasRetryAfter {
		return def
	}
	return time.Duration(r.retryAfter) * time.Second
}

// admission is what the gate decides for one caller at one instant: go with the ticket, wait
// d, or (d == 0 and !ok) wait for an answer to tell more.
type admission struct {
	ok      bool
	t       ticket
	d       time.Duration
	reason  string
	changed chan struct{}
}

// admit decides for a caller at the current instant; the caller holds no lock.
func (l *limiter) admit() admission {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	if d := l.until.Sub(now); d > 0 {
		return admission{d: d, reason: "window spent"}
	}
	switch {
	case l.headerless:
		return admission{ok: true, t: ticket{gen: l.gen}}
	case l.limit == 0:
		// Nothing known yet: one request finds out the limit and the window before a
		// parallel burst could overrun an unknown, possibly small, budget.
		if l.probing {
			return admission{changed: l.changed, reason: "learning the limit"}
		}
		l.probing = true
		return admission{ok: true, t: ticket{gen: l.gen, probe: true}}
	}
	if !l.reset.IsZero() && !now.Before(l.reset) {
		l.newWindow()
	}
	if l.left <= 0 {
		if !l.reset.IsZero() {
			return admission{d: l.reset.Sub(now), reason: "window spent"}
		}
		if l.inflight == 0 {
			// Spent, with no answer in flight to tell when it resets: the answers were lost
			// (transport errors), so try a new window; a 429 will correct a wrong guess.
			l.newWindow()
		} else {
			return admission{changed: l.changed, reason: "window spent, waiting for an answer"}
		}
	}
	l.left--
	l.inflight++
	return admission{ok: true, t: ticket{gen: l.gen}}
}

// newWindow starts the budget of a window that has reset. Requests still in flight from the
// old one may land in the new one, so they are counted against it.
func (l *limiter) newWindow() {
	l.gen++
	l.left = l.limit - l.inflight
	l.inflight = 0
	l.reset = time.Time{}
}

// wait returns a ticket when a caller of the class may send, or the context's error. Waits of
// a known length are logged at Info with the class and the duration.
func (l *limiter) wait(ctx context.Context, log Logger, method, path string) (ticket, error) {
	for {
		a := l.admit()
		if a.ok {
			return a.t, nil
		}
		if a.d > 0 {
			log.Info(ctx, logRateWait, map[string]any{
				"class": l.class, "duration_ms": a.d.Milliseconds(), "reason": a.reason,
				"method": method, "path": path,
			})
			if err := sleep(ctx, a.d); err != nil {
				return ticket{}, err
			}
			continue
		}
		log.Debug(ctx, logRateWait, map[string]any{
			"class": l.class, "reason": a.reason, "method": method, "path": path,
		})
		select {
		case <-ctx.Done():
			return ticket{}, ctx.Err()
		case <-a.changed:
		}
	}
}

// observe learns from the headers of the answer to a request sent with t.
func (l *limiter) observe(t ticket, r rateHeaders) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.notify()
	now := l.now()
	if t.probe {
		l.probing = false
	}
	current := t.gen == l.gen
	if current && !t.probe && l.inflight > 0 {
		l.inflight--
	}
	if !r.hasLimit || r.limit == 0 {
		if l.limit == 0 {
			if !r.any() {
				l.headerless = true
				return
			}
			// A Remaining without a Limit: no budget to keep, but a spent window still waits.
			if r.hasRemaining && r.remaining == 0 {
				l.closeUntil(now.Add(r.retryAfterOr(time.Second)))
			}
		}
		if !current || l.limit == 0 {
			return
		}
	} else if l.limit == 0 {
		// The first limit learned: this answer is the newest news of the window.
		l.limit, l.headerless = r.limit, false
		l.gen++
		l.left = r.limit
		l.inflight = 0
		l.reset = time.Time{}
		current = true
	} else {
		l.limit = r.limit
	}
	if !current {
		return
	}
	if r.hasRemaining && r.remaining < l.left {
		// The service counts what it has seen; requests still in flight are already counted
		// here, so only a lower figure (another user of the key) is news.
		l.left = r.remaining
	}
	if r.hasRetryAfter {
		// Retry-After is whole seconds rounded up, so the earliest estimate of the window is
		// the closest to the truth, and never before it.
		if est := now.Add(time.Duration(r.retryAfter) * time.Second); l.reset.IsZero() || est.Before(l.reset) {
			l.reset = est
		}
	} else if l.left <= 0 && l.reset.IsZero() {
		l.reset = now.Add(time.Second)
	}
}

// forget gives back the place of a request that got no answer: it may or may not have been
// counted, so its budget stays spent.
func (l *limiter) forget(t ticket) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.notify()
	if t.probe {
		l.probing = false
	}
	if t.gen == l.gen && !t.probe && l.inflight > 0 {
		l.inflight--
	}
}

// notify wakes the callers waiting for an answer; the caller holds l.mu.
func (l *limiter) notify() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// closeUntil keeps the gate closed at least until t; the caller holds l.mu.
func (l *limiter) closeUntil(t time.Time) {
	if t.After(l.until) {
		l.until = t
	}
}

// block closes the gate for every caller of the class after a 429: at least min, plus a small
// jitter so that the waiting callers do not all come back in the same millisecond.
func (l *limiter) block(d, minWait time.Duration) time.Duration {
	d = max(d, minWait)
	d += time.Duration(rand.Int64N(int64(100 * time.Millisecond)))
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	l.closeUntil(now.Add(d))
	if l.limit > 0 {
		// The window is spent, whatever the budget said: the next one starts after the wait.
		l.left = 0
		if l.reset.IsZero() || l.reset.Before(l.until) {
			l.reset = l.until
		}
	}
	return d
}

// learnedLimit is the last X-RateLimit-Limit seen, 0 while unknown.
func (l *limiter) learnedLimit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit
}

// sleep waits for d or until ctx is done, whichever comes first.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
