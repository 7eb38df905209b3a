package acctest

// Each acceptance test is bounded by a deadline of its own, far below go test's: a test still
// running when it passes stops the test binary with a message that names the test, how long it
// ran and what it was waiting for (against a real endpoint, the requests it had in flight and
// its last answer), rather than leaving the run to go test's timeout and its stack dump.

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// envTestDeadline overrides testDeadline (a Go duration).
const envTestDeadline = "VIDEOHOST_TEST_DEADLINE"

// testDeadline bounds one acceptance test: the slowest, under a sandbox's rate limits, take a
// few minutes.
const testDeadline = 15 * time.Minute

// watchDeadline stops the test binary when t outlives its deadline, saying what waiting shows.
func watchDeadline(t *testing.T, waiting func() string) {
	limit := testDeadline
	if d, err := time.ParseDuration(os.Getenv(envTestDeadline)); err == nil && d > 0 {
		limit = d
	}
	name, start := t.Name(), time.Now()
	timer := time.AfterFunc(limit, func() {
		panic(fmt.Sprintf("%s ran for %s, past its deadline of %s (%s sets it): it was waiting for %s",
			name, time.Since(start).Round(time.Second), limit, envTestDeadline, waiting()))
	})
	t.Cleanup(func() { timer.Stop() })
}

// inFlight keeps the requests a test's proxy has sent and not yet seen answered, and its last
// answer, for the message of a test stopped by its deadline.
type inFlight struct {
	mu      sync.Mutex
	pending map[string]time.Time
	last    string
}

func (f *inFlight) begin(what string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pending == nil {
		f.pending = map[string]time.Time{}
	}
	f.pending[what] = time.Now()
}

func (f *inFlight) end(what string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.pending, what)
	f.last = what + " at " + time.Now().UTC().Format(time.TimeOnly)
}

// String says what the test waits on: its requests in flight, or that it had none (it waits on
// terraform or on itself) and its last answer.
func (f *inFlight) String() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	var lines []string
	for what, since := range f.pending {
		lines = append(lines, fmt.Sprintf("%s, sent %s ago", what, time.Since(since).Round(time.Second)))
	}
	sort.Strings(lines)
	last := f.last
	if last == "" {
		last = "none"
	}
	if len(lines) == 0 {
		return "no request to the service was in flight (so terraform or the test itself); the last answered: " + last
	}
	return "the service's answer to " + strings.Join(lines, "; ") + "; the last answered: " + last
}
