package videohost

import (
	"fmt"
	"sync"
	"time"
)

// RateLimitWaits is what one rate-limit class of a client has cost its callers so far: how
// long, in wall-clock time, at least one caller was held by the limiter (waiting for a window
// to reset, for a 429's Retry-After, or for its turn while another process shares the key),
// how many calls were held, and the limit the waits kept to, as the service's headers told it.
type RateLimitWaits struct {
	Class string
	// Waited counts overlapping waits once: ten calls held together for 8 s add 8 s. It is
	// the wall time the class held the run.
	Waited time.Duration
	// WaitedSum adds every call's own wait: ten calls held together for 8 s add 80 s. It is
	// what the calls waited in total, which exceeds Waited whenever calls wait together.
	WaitedSum time.Duration
	// Waits is how many calls were held at least once, and Waiting how many are held now.
	Waits, Waiting int
	// Limit is the last X-RateLimit-Limit seen and Window the window it applies to (the
	// longest Retry-After seen, rounded up to the second); 0 while unknown.
	Limit  int
	Window time.Duration
}

// RateLimitWaits returns the waits of each class (reads, writes, then uploads) since the client
// was made. Safe for concurrent use; cheap enough to call after every operation.
func (c *Client) RateLimitWaits() []RateLimitWaits {
	out := make([]RateLimitWaits, 0, len(c.limiters))
	for _, class := range RateLimitClasses() {
		if l, ok := c.limiters[class]; ok {
			out = append(out, l.waitStats())
		}
	}
	return out
}

// waitMeter measures how long the callers of one limiter are held.
type waitMeter struct {
	mu      sync.Mutex
	waiters int       // callers held now
	since   time.Time // when the first of them began to wait
	waited  time.Duration
	waits   int
	// summed is the sum of every caller's wait up to changed, when waiters last changed.
	summed  time.Duration
	changed time.Time
	release time.Time // when the wait of known length holding callers now ends; zero while unknown
}

// begin marks a caller held by the limiter; end must follow.
func (m *waitMeter) begin(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.addHeld(now)
	if m.waiters == 0 {
		m.since = now
	}
	m.waiters++
	m.waits++
}

// end marks a held caller let through (or gone).
func (m *waitMeter) end(now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.addHeld(now)
	m.waiters--
	if m.waiters == 0 {
		m.waited += now.Sub(m.since)
		m.release = time.Time{}
	}
}

// addHeld adds the waits of the callers held since the last change to summed; the caller holds
// m.mu and changes waiters right after.
func (m *waitMeter) addHeld(now time.Time) {
	if m.waiters > 0 {
		m.summed += time.Duration(m.waiters) * now.Sub(m.changed)
	}
	m.changed = now
}

// summedAt is the sum of every caller's wait so far, the waits in progress included.
func (m *waitMeter) summedAt(now time.Time) time.Duration {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.summed + time.Duration(m.waiters)*now.Sub(m.changed)
}

// holdUntil marks the callers held until t at least: a wait of known length has begun.
func (m *waitMeter) holdUntil(t time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.waiters > 0 && t.After(m.release) {
		m.release = t
	}
}

// hold is the time waited so far, the wait in progress included, and what is left of the wait
// in progress (0 when none, or of unknown length).
func (m *waitMeter) hold(now time.Time) (waited, left time.Duration) {
	waited, _, waiting := m.total(now)
	m.mu.Lock()
	defer m.mu.Unlock()
	if waiting > 0 && m.release.After(now) {
		left = m.release.Sub(now)
	}
	return waited, left
}

// total is the time waited so far, the wait in progress included, the number of waits and of
// callers held now.
func (m *waitMeter) total(now time.Time) (waited time.Duration, waits, waiting int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	waited = m.waited
	if m.waiters > 0 {
		waited += now.Sub(m.since)
	}
	return waited, m.waits, m.waiters
}

// waitStats is the RateLimitWaits of l.
func (l *limiter) waitStats() RateLimitWaits {
	w := RateLimitWaits{Class: l.class}
	now := l.now()
	w.Waited, w.Waits, w.Waiting = l.waits.total(now)
	w.WaitedSum = l.waits.summedAt(now)
	l.mu.Lock()
	defer l.mu.Unlock()
	w.Limit, w.Window = l.limit, l.span
	return w
}

// learnedWindow is the window of the learned limit, 0 while unknown.
func (l *limiter) learnedWindow() time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.span
}

// RatePer says a limit with its window in words: "8 per 2 s", "40 per minute", "8 per window"
// while the window is unknown.
func RatePer(limit int, window time.Duration) string {
	switch {
	case window <= 0:
		return fmt.Sprintf("%d per window", limit)
	case window == time.Minute:
		return fmt.Sprintf("%d per minute", limit)
	case window%time.Minute == 0:
		return fmt.Sprintf("%d per %d minutes", limit, int(window/time.Minute))
	}
	return fmt.Sprintf("%d per %s", limit, Seconds(window))
}

// Seconds says a duration in whole seconds, or tenths below ten seconds: "2 s", "9.8 s", "75 s".
func Seconds(d time.Duration) string {
	if d < 10*time.Second && d%time.Second != 0 {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return fmt.Sprintf("%d s", int(d.Round(time.Second)/time.Second))
}

// uploadsHeld is how an upload's progress learns the waits of the uploads class (waitMeter.hold);
// nil when the client has no limiter for the class.
func (c *Client) uploadsHeld() func(time.Time) (time.Duration, time.Duration) {
	l, ok := c.limiters[ClassUploads]
	if !ok {
		return nil
	}
	return l.waits.hold
}
