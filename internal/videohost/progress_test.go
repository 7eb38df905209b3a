package videohost

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestUploadProgressWhileHeld: while the uploads class holds an upload (a 429 that says to
// wait 3 s), the progress says it is held and for how long, and its time left counts down with
// the wait instead of climbing as an average rate over the wait would make it.
func TestUploadProgressWhileHeld(t *testing.T) {
	s, f := uploadEnv(t)
	s.fault = func(n int, w http.ResponseWriter, r *http.Request, commit func()) bool {
		if n == 2 {
			rateHeadersOf(w, 5, 0, 3)
			writeJSON(w, http.StatusTooManyRequests, tooMany)
			return true
		}
		return false
	}
	c, log, opt, reported := progressClient(t, f, 100*time.Millisecond)
	_, src := randomFile(t, 15*mib)
	if _, err := c.UploadVideoSource(t.Context(), vid, src, opt); err != nil {
		t.Fatal(err)
	}
	var held []UploadProgress
	for _, p := range reported() {
		if p.Held > 0 {
			held = append(held, p)
		}
	}
	if len(held) < 5 {
		t.Fatalf("%d reports said the upload was held: %+v", len(held), reported())
	}
	for i, p := range held {
		if p.Sent != 5*mib || p.Left < p.Held.Truncate(time.Second) {
			t.Fatalf("held report %d: %+v: want 5 MiB sent and at least the wait left", i, p)
		}
		if i > 0 && p.Left > held[i-1].Left {
			t.Fatalf("the time left climbed while the upload was held: %+v then %+v", held[i-1], p)
		}
	}
	var lines int
	for _, l := range log.all() {
		if h, ok := l.fields["held_s"].(string); l.msg == logProgress && ok && h != "0" {
			lines++
		}
	}
	if lines == 0 {
		t.Fatal("no progress line said the upload was held")
	}
}

// progressClient is a client of f that logs to the returned logger and reports progress every
// every, with five-MiB chunks one at a time; reported returns the reports so far.
func progressClient(t *testing.T, f *fakeService, every time.Duration) (*Client, *captureLogger, UploadOptions, func() []UploadProgress) {
	log := &captureLogger{}
	c := f.client(t, func(cfg *Config) { cfg.Logger = log })
	c.progressEvery = every
	var (
		mu      sync.Mutex
		reports []UploadProgress
	)
	opt := fiveMiB
	opt.Progress = func(p UploadProgress) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, p)
	}
	return c, log, opt, func() []UploadProgress {
		mu.Lock()
		defer mu.Unlock()
		return append([]UploadProgress(nil), reports...)
	}
}

// TestProgressFieldsAreWholeNumbers: a progress line's numbers are whole, in the units their
// names give, and stay so as Terraform prints them. Terraform reads a provider's log line as
// JSON, where a number is a float that it prints as 6.291456e+07; the test takes the fields
// through the same round trip and reads them as Terraform's log would show them.
func TestProgressFieldsAreWholeNumbers(t *testing.T) {
	st := UploadProgress{Sent: 40 * mib, Total: 60 * mib, Rate: 391971334.7, Left: 2500 * time.Millisecond, Held: 1400 * time.Millisecond}
	raw, err := json.Marshal(progressFields("vi1", st, false))
	if err != nil {
		t.Fatal(err)
	}
	var decoded map[string]any // as Terraform decodes a provider's log line
	if err := json.Unmarshal(raw, &decoded); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"sent_bytes": "41943040", "total_bytes": "62914560", "percent": "66", "rate_bytes_per_s": "391971334",
		"left_s": "2", "held_s": "1", "video_id": "vi1", "end": "false",
		"progress": "40.0 MiB of 60.0 MiB (66%), 373.8 MiB/s, 3s left",
	}
	for k, v := range want {
		if got := fmt.Sprint(decoded[k]); got != v {
			t.Errorf("%s reads %q in Terraform's log, want %q", k, got, v)
		}
	}
	if len(decoded) != len(want) {
		t.Errorf("the progress line has fields %v, want exactly those of %v", decoded, want)
	}
	// A percent is never rounded up to 100 before the last byte is acknowledged.
	if got := progressFields("vi1", UploadProgress{Sent: 999, Total: 1000}, false)["percent"]; got != "99" {
		t.Errorf("999 of 1000 bytes read %v percent, want 99", got)
	}
}
