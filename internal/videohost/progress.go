package videohost

import (
	"context"
	"sync"
	"time"
)

// UploadProgress is where an upload stands.
type UploadProgress struct {
	Sent, Total int64         // bytes the service has acknowledged, of the file
	Rate        float64       // bytes a second acknowledged by this upload
	Left        time.Duration // estimated from Rate; 0 while unknown
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

	mu          sync.Mutex
	total, base int64 // base: what the service had when this upload began
	sent        int64
	start       time.Time
}

func newProgress(log Logger, every time.Duration, videoID string, total, base int64, fn func(UploadProgress)) *progress {
	p := &progress{log: log, every: every, videoID: videoID, fn: fn, now: time.Now, total: total, base: base, sent: base}
	p.start = p.now()
	return p
}

// add counts n more bytes acknowledged.
func (p *progress) add(n int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.sent += n
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

func (p *progress) state(now time.Time) UploadProgress {
	st := UploadProgress{Sent: p.sent, Total: p.total}
	if secs := now.Sub(p.start).Seconds(); secs > 0 && p.sent > p.base {
		st.Rate = float64(p.sent-p.base) / secs
		st.Left = time.Duration(float64(p.total-p.sent) / st.Rate * float64(time.Second)).Round(time.Second)
	}
	return st
}

func (p *progress) report(ctx context.Context, st UploadProgress, end bool) {
	if p.fn != nil {
		p.fn(st)
	}
	p.log.Info(ctx, logProgress, map[string]any{
		"video_id": p.videoID, "sent_bytes": st.Sent, "total_bytes": st.Total,
		"percent": float64(st.Sent) * 100 / float64(max(st.Total, 1)), "rate_bytes_per_s": int64(st.Rate),
		"left_s": int64(st.Left.Seconds()), "end": end,
	})
}
