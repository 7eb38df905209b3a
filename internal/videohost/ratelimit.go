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
//
// Other processes may spend the same key (parallel pipelines on one account), and they can only
// be seen in the headers: Remaining falls by more than this limiter sent. Three rules keep such
// processes out of each other's way without any shared file or daemon:
//
//   - the first window is paced: half of its budget at once, the rest spread over the first half
//     of the window, and its last places (leftToOthers) kept for most of the window (see
//     release), so that a process starting a moment later finds room for its first request
//     instead of a 429;
//   - once others are seen (or a 429 says so), the limiter shares: one request of the class in
//     flight at a time, so that every answer's Remaining is fresh when the next request leaves;
//   - a sharing limiter whose first answer of a window counted no request of others opened the
//     window (it is the window's leader: its estimate of the reset was the earliest). It leaves
//     the window's last places (leftToOthers) to the first requests of the others, which start
//     the window a moment later, and takes what they left after releaseAfter. The others send
//     their first request of the window into those places, and more only while the window has
//     plenty of room. So no process sends into a window that others have spent: a 429 would
//     not only cost its own Retry-After, but make the others' next requests early for the
//     service, since each process learns the reset only in whole seconds.
//
// The uploads class (lasting) bends the first two rules, because each of its requests lasts
// seconds (a chunk of tens of MiB over a long path), so that holding one back costs a whole
// chunk's transfer on an idle connection, and because the chunks in flight already bound how
// fast it sends. Its first window keeps the places left to others but is not spread: 8 chunks
// in flight under 40 a minute waited 15 s for the 21st chunk of 1 GiB, which the window had
// room for; and after the release, only those places are taken back one at a time (see
// takingBack). And the requests of others that a window counted before this limiter's first
// answer of it only lower its budget: they are most often those of the run before (a
// minute-long window outlives an apply that uploaded a moment ago), and taking them for another
// process sent a whole upload one chunk at a time. Another process that is sending shows itself
// within one chunk, as the window's count of others growing between two answers; the limiter
// then shares as the other classes do.
type limiter struct {
	class string
	now   func() time.Time
	// waits measures how long callers are held, for RateLimitWaits.
	waits waitMeter

	mu    sync.Mutex
	until time.Time // closed by a 429 (or a spent window with no known limit) until this instant
	limit int       // the last X-RateLimit-Limit seen; 0 while unknown
	// headerless is set when the service answered the class without rate headers before
	// any limit was learned: there is nothing to keep a budget of, so only 429s gate.
	headerless bool
	// blind is how many requests may be out together while the limit is unknown (1 unless
	// New sets more); probing counts those out, and blindSent those sent before the limit was
	// learned.
	blind, probing, blindSent int
	gen                       uint64    // the window that requests are sent in now
	left                      int       // requests the window still accepts, counted at send
	reset                     time.Time // the earliest reset the window's answers announced; zero while unknown
	inflight                  int       // requests of this window sent and not answered
	changed                   chan struct{}

	// out counts the requests sent and not answered, of every window.
	out int
	// span is the longest Retry-After seen: the window's length, rounded up to the second.
	span time.Duration
	// opened is when the current window started to be spent; first is set while it is the
	// first window this limiter knows of.
	opened time.Time
	first  bool
	// own counts the requests sent in the current window, the probe included.
	own int
	// sharedTill is the last window in which the limiter shares: two windows after the last
	// sign of another user of the key.
	sharedTill uint64
	shared     bool
	// answered is set once the current window has answered this limiter; leader is set when
	// that first answer counted no request of others: this limiter opened the window, and the
	// others' first requests of it are still to come.
	answered, leader bool
	// lasting is set for a class whose requests last seconds (uploads; see above).
	lasting bool
	// othersBefore bounds the requests of others that the current window held when its
	// earlier answers were written (the least of the bounds they give; see othersSending), -1
	// before its first answer; only a lasting limiter keeps it.
	othersBefore int
	// settled counts the requests of every window that were answered or forgotten; a ticket
	// keeps its value at the send, so that an answer knows how many of this limiter's requests
	// ended while it was out (see othersSending).
	settled uint64
}

// releaseAfter is how long after its start a window's leader keeps the places it leaves to
// the others' first requests. Every process estimates the reset from a Retry-After in whole
// seconds, rounded up, so the others start their window less than a second after the leader.
const releaseAfter = 1100 * time.Millisecond

// maxLeftToOthers is the most places of a window its leader leaves to the first requests of the
// other processes that share the key, until releaseAfter: one each for up to that many.
const maxLeftToOthers = 4

// sharingWindows is how many windows the limiter keeps sharing after the last sign of another
// user of the key.
const sharingWindows = 2

// ticket is one admitted request: the window it was sent in, and how many of the limiter's
// requests had settled when it was sent.
type ticket struct {
	gen     uint64
	probe   bool
	settled uint64
}

func newLimiter(class string) *limiter {
	return &limiter{class: class, now: time.Now, changed: make(chan struct{}), othersBefore: -1}
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
		return admission{ok: true, t: ticket{gen: l.gen, settled: l.settled}}
	case l.limit == 0:
		// Nothing known yet: one request (or blind ones) finds out the limit and the window
		// before a parallel burst could overrun an unknown, possibly small, budget.
		if l.probing >= max(l.blind, 1) {
			return admission{changed: l.changed, reason: "learning the limit"}
		}
		l.probing++
		l.blindSent++
		return admission{ok: true, t: ticket{gen: l.gen, probe: true, settled: l.settled}}
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
	if l.sharing() || l.takingBack(now) {
		if l.out > 0 {
			return admission{changed: l.changed, reason: "sharing the window: one request at a time"}
		}
		if l.left <= l.reserve(now) {
			// The last places of the window go to the requests of others that may be on the
			// wire or about to start their window: taking one as well could draw a 429.
			d := l.reset.Sub(now)
			if release := l.release(); l.leader && release.Before(l.reset) && release.After(now) {
				d = release.Sub(now)
			}
			if !l.reset.IsZero() && d > 0 {
				return admission{d: d, reason: "sharing the window: its last places are left to others"}
			}
		}
	}
	if d := l.paceWait(now); d > 0 {
		return admission{d: d, reason: "pacing the first window"}
	}
	l.left--
	l.inflight++
	l.out++
	l.own++
	return admission{ok: true, t: ticket{gen: l.gen, settled: l.settled}}
}

// takingBack reports whether the limiter takes back, one request at a time, the places of its
// first window that it left to others; the caller holds l.mu. That is once the release has come
// with requests out; for a lasting limiter only when those places are all that is left: its
// first window may be most of an upload (or the end of a window that an earlier run opened, so
// that the release comes a few seconds in), and one chunk at a time through the rest of it ran
// a second upload in a row at one connection's speed.
func (l *limiter) takingBack(now time.Time) bool {
	if !l.first || l.out == 0 || now.Before(l.release()) {
		return false
	}
	return !l.lasting || l.left <= l.leftToOthers()
}

// reserve is how many places of the window a sharing limiter leaves to others; the caller
// holds l.mu. A leader leaves the others' first requests their places until releaseAfter, then
// takes what they left, one request at a time, each sent on the Remaining of the answer before.
// The others send their first request of the window into those places, and more only while the
// window has plenty of room.
func (l *limiter) reserve(now time.Time) int {
	switch {
	case l.leader && now.Before(l.release()):
		return l.leftToOthers()
	case l.leader:
		return 0
	case !l.answered:
		return 0
	}
	return 2*l.leftToOthers() - 1
}

// release is when a leader takes back the places it left to others: releaseAfter into the
// window, and three quarters into the first one, since processes started together may begin
// to send seconds apart (terraform's start-up is not the same for all). The caller holds l.mu.
func (l *limiter) release() time.Time {
	if l.first {
		return l.opened.Add(max(releaseAfter, l.span*3/4))
	}
	return l.opened.Add(releaseAfter)
}

// leftToOthers is how many places of a window a leader leaves to the others' first requests:
// none when the window is too short to take them back after releaseAfter, and at most a
// quarter of the window. The caller holds l.mu.
func (l *limiter) leftToOthers() int {
	if l.span < releaseAfter+releaseAfter/2 {
		return 0
	}
	return min(maxLeftToOthers, l.limit/4)
}

// sharing reports whether others were seen spending the key lately; the caller holds l.mu.
func (l *limiter) sharing() bool { return l.shared && l.gen <= l.sharedTill }

// paceWait is how long a request must wait for its place in the first window: half the budget
// is sent at once and the rest spread over the first half of the window. The caller holds l.mu.
func (l *limiter) paceWait(now time.Time) time.Duration {
	if !l.first || l.span <= 0 || l.limit <= 1 {
		return 0
	}
	half := l.span / 2
	elapsed := now.Sub(l.opened)
	if !now.Before(l.release()) || !l.leader {
		return 0
	}
	// Until the release, the places of the first requests of processes that start a moment
	// later stay free, as a sharing leader leaves them.
	if l.own >= l.limit-l.leftToOthers() {
		return l.release().Sub(now)
	}
	allowed := max((l.limit+1)/2, int(int64(l.limit)*int64(elapsed)/int64(half))+1)
	if l.lasting || l.own < allowed || elapsed >= half {
		return 0
	}
	next := l.opened.Add(time.Duration(int64(half) * int64(l.own) / int64(l.limit)))
	return max(next.Sub(now), time.Millisecond)
}

// newWindow starts the budget of a window that has reset. Requests still in flight from the
// old one may land in the new one, so they are counted against it.
func (l *limiter) newWindow() {
	l.gen++
	l.left = l.limit - l.inflight
	l.own = l.inflight
	l.inflight = 0
	l.reset = time.Time{}
	l.opened = l.now()
	l.first = false
	l.answered, l.leader = false, false
	l.othersBefore = -1
}

// othersSeen marks the key as shared with another process for this window and the next ones;
// the caller holds l.mu.
func (l *limiter) othersSeen() {
	l.shared = true
	l.sharedTill = l.gen + sharingWindows
}

// wait returns a ticket when a caller of the class may send, or the context's error. Waits of
// a known length are logged at Info with the class and the duration.
func (l *limiter) wait(ctx context.Context, log Logger, method, path string) (ticket, error) {
	held := false
	defer func() {
		if held {
			l.waits.end(l.now())
		}
	}()
	for {
		a := l.admit()
		if a.ok {
			return a.t, nil
		}
		if !held {
			held = true
			l.waits.begin(l.now())
		}
		if a.d > 0 {
			l.waits.holdUntil(l.now().Add(a.d))
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

// observe learns from the headers of the response to a request sent with t.
func (l *limiter) observe(t ticket, r rateHeaders) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.notify()
	now := l.now()
	// The requests of this limiter that settled while t was out: the service may have counted
	// them after it wrote t's answer, and they are no longer out when t's answer is read.
	endedMeanwhile := int(l.settled - t.settled)
	l.settled++
	current := l.settle(t)
	if r.hasRetryAfter {
		l.span = max(l.span, time.Duration(r.retryAfter)*time.Second)
	}
	if l.learnLimit(r, now, current) {
		l.learnWindow(r, now, endedMeanwhile)
	}
}

// settle gives back the place t held among the requests in flight and reports whether t was
// sent in the current window.
func (l *limiter) settle(t ticket) (current bool) {
	if t.probe && l.probing > 0 {
		l.probing--
	}
	current = t.gen == l.gen
	if current && !t.probe && l.inflight > 0 {
		l.inflight--
	}
	if l.out > 0 && !t.probe {
		l.out--
	}
	return current
}

// learnLimit takes the limit from r and reports whether r speaks of the current window of a
// known limit, so that its other headers are news of that window.
func (l *limiter) learnLimit(r rateHeaders, now time.Time, current bool) bool {
	switch {
	case !r.hasLimit || r.limit == 0:
		if l.limit == 0 {
			if !r.any() {
				l.headerless = true
				return false
			}
			// A Remaining without a Limit: no budget to keep, but a spent window still waits.
			if r.hasRemaining && r.remaining == 0 {
				l.closeUntil(now.Add(r.retryAfterOr(time.Second)))
			}
		}
		return current && l.limit != 0
	case l.limit == 0:
		// The first limit learned: this response is the newest news of a new window, in which
		// the probes were this limiter's requests so far; those still out spend it too.
		l.limit, l.headerless = r.limit, false
		l.newWindow()
		l.first, l.own = true, l.blindSent
		l.left -= l.probing
		// The probe's response is the window's first: it tells whether this limiter opened it;
		// learnWindow, which follows, marks the key shared when it did not.
		l.answered, l.leader = true, !r.hasRemaining || r.limit-r.remaining <= l.blindSent
		return true
	default:
		l.limit = r.limit
		return current
	}
}

// learnWindow takes what is left of the current window and when it resets from r, the answer
// to a request during which endedMeanwhile others of this limiter settled.
func (l *limiter) learnWindow(r rateHeaders, now time.Time, endedMeanwhile int) {
	if r.hasRemaining && r.remaining < l.left {
		// The service counts what it has seen; requests still in flight are already counted
		// here, so only a lower figure (another user of the key) is news.
		l.left = r.remaining
	}
	if r.hasRemaining {
		others := l.limit - r.remaining - l.own
		if !l.answered {
			l.answered, l.leader = true, others <= 0
		}
		if l.othersSending(others, endedMeanwhile) {
			// The service counted more requests of this window than this limiter sent.
			l.othersSeen()
		}
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

// othersSending reports whether an answer that counted others requests of others in the
// current window shows another process sending; the caller holds l.mu. Any request of others
// does, except for a lasting limiter, where only more of them than an earlier answer of the
// window can have counted does (see the limiter's comment). An answer counts fewer than there
// were by as many of this limiter's requests as the service had not counted when it wrote it
// (the count is at arrival, or at the end of the body), never more. Those are among the ones
// still out and the endedMeanwhile ones that settled while it was out: answers of chunks sent
// together come back in any order, so a request counted after this answer was written may be
// answered before it is read. So an answer that counted others says the window held at most
// others+out+endedMeanwhile of them then, and a later answer that counts more proves that
// another process sent since.
func (l *limiter) othersSending(others, endedMeanwhile int) bool {
	if !l.lasting {
		return others > 0
	}
	before := l.othersBefore
	most := max(0, others+l.out+l.probing+endedMeanwhile)
	if before < 0 || most < before {
		l.othersBefore = most
	}
	return before >= 0 && others > before
}

// forget gives back the place of a request that got no answer: it may or may not have been
// counted, so its budget stays spent.
func (l *limiter) forget(t ticket) {
	l.mu.Lock()
	defer l.mu.Unlock()
	defer l.notify()
	l.settled++
	if t.probe && l.probing > 0 {
		l.probing--
	}
	if t.gen == l.gen && !t.probe && l.inflight > 0 {
		l.inflight--
	}
	if l.out > 0 && !t.probe {
		l.out--
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
	// A 429 when the budget said there was room: someone else spends the key.
	l.othersSeen()
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
