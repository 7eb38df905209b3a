package videohost

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rate-limit headers of every response.
const (
	headerLimit      = "X-RateLimit-Limit"
	headerRemaining  = "X-RateLimit-Remaining"
	headerRetryAfter = "X-RateLimit-Retry-After"
)

// limiter is the gate of one rate-limit class, shared by every goroutine of a client. It has
// two parts: a gate that the headers close (Remaining reached 0, or a 429) until the window
// resets, which is what keeps parallel callers from stampeding into 429s, and a token bucket
// learned from X-RateLimit-Limit that spreads calls over the minute once the limit is known.
type limiter struct {
	class string

	mu    sync.Mutex
	until time.Time // no caller of the class sends before this instant
	limit int       // the last X-RateLimit-Limit seen; 0 while unknown
	pace  *rate.Limiter
}

func newLimiter(class string) *limiter {
	return &limiter{class: class, pace: rate.NewLimiter(rate.Inf, 1)}
}

// rateHeaders are the three rate-limit headers of one response; ok is false when the response
// carried none of them.
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

// retryAfterOr is the wait the headers ask for, or def when they do not say.
func (r rateHeaders) retryAfterOr(def time.Duration) time.Duration {
	if !r.hasRetryAfter {
		return def
	}
	return time.Duration(r.retryAfter) * time.Second
}

// observe learns from the headers of one response of this class.
func (l *limiter) observe(r rateHeaders) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if r.hasLimit && r.limit > 0 && r.limit != l.limit {
		l.limit = r.limit
		// A per-minute limit, spent evenly, with the whole window as burst: the bucket only
		// slows callers down once they try to go faster than the window allows. A new bucket
		// starts full; the header gate below covers a window already partly spent.
		l.pace = rate.NewLimiter(rate.Limit(float64(r.limit)/60), r.limit)
	}
	if r.hasRemaining && r.remaining == 0 {
		l.closeUntil(time.Now().Add(r.retryAfterOr(time.Second)))
	}
}

// closeUntil keeps the gate closed at least until t.
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
	l.closeUntil(time.Now().Add(d))
	l.mu.Unlock()
	return d
}

// learnedLimit is the last X-RateLimit-Limit seen, 0 while unknown.
func (l *limiter) learnedLimit() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.limit
}

// wait returns when a caller of the class may send, or with the context's error. Each wait is
// logged at Info with the class and the duration.
func (l *limiter) wait(ctx context.Context, log Logger, method, path string) error {
	for {
		l.mu.Lock()
		d := time.Until(l.until)
		pace := l.pace
		l.mu.Unlock()
		if d <= 0 {
			return l.waitPace(ctx, log, pace, method, path)
		}
		log.Info(ctx, logRateWait, map[string]any{
			"class": l.class, "duration_ms": d.Milliseconds(), "reason": "window spent",
			"method": method, "path": path,
		})
		if err := sleep(ctx, d); err != nil {
			return err
		}
	}
}

// waitPace takes one token of the learned bucket, waiting for it when callers go faster than
// the limit allows.
func (l *limiter) waitPace(ctx context.Context, log Logger, pace *rate.Limiter, method, path string) error {
	res := pace.Reserve()
	d := res.Delay()
	if d == 0 {
		return nil
	}
	log.Info(ctx, logRateWait, map[string]any{
		"class": l.class, "duration_ms": d.Milliseconds(), "reason": "pacing",
		"method": method, "path": path,
	})
	if err := sleep(ctx, d); err != nil {
		res.Cancel()
		return err
	}
	return nil
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
