package videohost

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// UploadProgress is where an upload stands.
type UploadProgress struct {
	Sent, Total int64   // bytes the service has acknowledged, of the file
	Rate        float64 // bytes a second acknowledged by this upload while the uploads class did not hold it
	// Left is the time the upload should still take: what is left of a wait of the uploads
	// rate-limit class holding it, then the bytes left at Rate; while the upload is held it
	// counts down from the estimate of the last acknowledgement, rather than climbing as an
	// average over the wait would. 0 while unknown.
	Left time.Duration
	// Held is what is left of the wait of the uploads class that holds the upload now (a spent
	// window, a 429's Retry-After); 0 when it is not held.
	Held time.Duration
}

// progressEvery bounds how often an upload's progress is logged and reported.
const progressEvery = 2 * time.Second

const logProgress = "videohost upload progress"

// progress reports an upload's acknowledged bytes through the logger (Info) and a callback,
// every few seconds while it runs, and once at the end; the callback is never called twice
// at once.
type progress struct {
	log     Logger
	videoID string
	fn      func(UploadProgress)
	now     func() time.Time
	every   time.Duration

	// held says how long the uploads class has held its callers since the client was made,
	// and what is left of the wait holding them now (waitMeter.hold); nil: never held.
	held func(now time.Time) (waited, left time.Duration)

	mu          sync.Mutex
	total, base int64 // base: what the service had when this upload began
	sent        int64
	start       time.Time
	waited0     time.Duration // held's waited when the upload began
	lastAck     time.Time     // when bytes were last acknowledged
	leftAtAck   time.Duration // the time left estimated then
}

func newProgress(log Logger, every time.Duration, videoID string, total, base int64, fn func(UploadProgress),
	held func(time.Time) (time.Duration, time.Duration),
) *progress {
	p := &progress{log: log, every: every, videoID: videoID, fn: fn, now: time.Now, total: total, base: base, sent: base, held: held}
	p.start = p.now()
	p.waited0, _ = p.holding(p.start)
	return p
}

// holding is held's answer, or nothing without held.
func (p *progress) holding(now time.Time) (waited, left time.Duration) {
	if p.held == nil {
		return 0, 0
	}
	return p.held(now)
}

// add counts n more bytes acknowledged, and estimates the time left at this instant from the
// upload's average rate, waits included: the waits of a rate-limited upload recur.
func (p *progress) add(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent += n
	now := p.now()
	if secs := now.Sub(p.start).Seconds(); secs > 0 && p.sent > p.base {
		p.lastAck = now
		p.leftAtAck = time.Duration(float64(p.total-p.sent) / (float64(p.sent-p.base) / secs) * float64(time.Second))
	}
}

// tick reports every p.every until the returned stop is called, so that a slow chunk
// still shows the upload alive and its rate falling.
func (p *progress) tick(ctx context.Context) (stop func()) {
	t := time.NewTicker(p.every)
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for {
			select {
			case <-done:
				return
			case <-t.C:
				p.mu.Lock()
				st := p.state(p.now())
				p.mu.Unlock()
				p.report(ctx, st, false)
			}
		}
	}()
	return func() {
		t.Stop()
		close(done)
		<-ended
	}
}

// finish reports where the upload ended.
func (p *progress) finish(ctx context.Context) {
	p.mu.Lock()
	st := p.state(p.now())
	p.mu.Unlock()
	p.report(ctx, st, true)
}

// state is where the upload stands at now. The rate is taken over the time the uploads class
// did not hold the upload, so that a wait does not pull it down; the time left is the wait's
// rest plus the bytes left at that rate, or the estimate of the last acknowledgement counted
// down since, whichever is longer: during a wait it counts down instead of climbing.
func (p *progress) state(now time.Time) UploadProgress {
	st := UploadProgress{Sent: p.sent, Total: p.total}
	waited, held := p.holding(now)
	st.Held = held
	moving := now.Sub(p.start) - (waited - p.waited0)
	if moving <= 0 || p.sent <= p.base {
		st.Left = held.Round(time.Second)
		return st
	}
	st.Rate = float64(p.sent-p.base) / moving.Seconds()
	left := held + time.Duration(float64(p.total-p.sent)/st.Rate*float64(time.Second))
	if p.sent < p.total {
		left = max(left, p.leftAtAck-now.Sub(p.lastAck))
	}
	st.Left = left.Round(time.Second)
	return st
}

func (p *progress) report(ctx context.Context, st UploadProgress, end bool) {
	if p.fn != nil {
		p.fn(st)
	}
	p.log.Info(ctx, logProgress, progressFields(p.videoID, st, end))
}

// progressFields are the fields of a progress line: whole numbers whose unit is in their name,
// and the same figures for a reader in one field, progress. Each number is written as its
// decimal digits, a string: Terraform reads a provider's log lines as JSON, where every number
// is a float, and would print 62914560 bytes as 6.291456e+07.
func progressFields(videoID string, st UploadProgress, end bool) map[string]any {
	whole := func(n int64) string { return strconv.FormatInt(n, 10) }
	percent := st.Sent * 100 / max(st.Total, 1)
	rate := int64(st.Rate)
	return map[string]any{
		"video_id":         videoID,
		"sent_bytes":       whole(st.Sent),
		"total_bytes":      whole(st.Total),
		"percent":          whole(percent),
		"rate_bytes_per_s": whole(rate),
		"left_s":           whole(int64(st.Left.Seconds())),
		"held_s":           whole(int64(st.Held.Round(time.Second).Seconds())),
		"progress": fmt.Sprintf("%s of %s (%d%%), %s/s, %s left", mebibytes(st.Sent), mebibytes(st.Total), percent,
			mebibytes(rate), st.Left.Round(time.Second)),
		"end": end,
	}
}

// mebibytes is n bytes in MiB, to one decimal.
func mebibytes(n int64) string {
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
