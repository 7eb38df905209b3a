package emulator

import (
	"strings"
	"sync"
	"time"
)

// maxStatsKeys bounds the distinct method and path pairs that are counted one by one; later
// new pairs are counted under "<METHOD> (other)" so that random paths cannot grow memory.
const maxStatsKeys = 100000

// requestStats counts the service API requests (control API requests are not counted).
type requestStats struct {
	mu     sync.Mutex
	counts map[string]int // "<METHOD> <path>"
	total  int
	// uploadBytes counts the bytes of source files received per video (refused and cut chunks
	// included: they were sent), uploadTotal over every video.
	uploadBytes map[string]int64
	uploadTotal int64
}

// addUploadBytes counts n bytes of a source file of video id ("" when the video is not known
// yet: a request of /upload counts its bytes in the total as they arrive, and against its
// video with creditVideo once it knows it).
func (s *requestStats) addUploadBytes(id string, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.uploadTotal += n
	s.creditLocked(id, n)
}

// creditVideo counts n bytes, already in the total, against video id.
func (s *requestStats) creditVideo(id string, n int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.creditLocked(id, n)
}

func (s *requestStats) creditLocked(id string, n int64) {
	if id == "" {
		return
	}
	if s.uploadBytes == nil {
		s.uploadBytes = map[string]int64{}
	}
	if _, ok := s.uploadBytes[id]; ok || len(s.uploadBytes) < maxStatsKeys {
		s.uploadBytes[id] += n
	}
}

// uploads is a copy of the byte counts of the sources, per video and in all.
func (s *requestStats) uploads() (map[string]int64, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int64, len(s.uploadBytes))
	for k, v := range s.uploadBytes {
		out[k] = v
	}
	return out, s.uploadTotal
}

// UploadedBytes is how many bytes of source files reached the API for video id so far
// (chunks refused, cut or sent again included); "" counts every video.
func (e *Emulator) UploadedBytes(id string) int64 {
	per, total := e.stats.uploads()
	if id == "" {
		return total
	}
	return per[id]
}

func (s *requestStats) count(method, path string) {
	k := method + " " + path
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.counts[k]; !ok && len(s.counts) >= maxStatsKeys {
		k = method + " (other)"
	}
	s.counts[k]++
	s.total++
}

func (s *requestStats) snapshot() (map[string]int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make(map[string]int, len(s.counts))
	for k, v := range s.counts {
		out[k] = v
	}
	return out, s.total
}

// RequestCount is how many requests of method whose path starts with pathPrefix reached the
// API so far (control API requests are not counted); method "" counts every method.
func (e *Emulator) RequestCount(method, pathPrefix string) int {
	e.stats.mu.Lock()
	defer e.stats.mu.Unlock()
	n := 0
	for k, c := range e.stats.counts {
		m, p, _ := strings.Cut(k, " ")
		if (method == "" || m == method) && strings.HasPrefix(p, pathPrefix) {
			n += c
		}
	}
	return n
}

// EarlyGrace is how long after a 429 a request of the same subject and class may still arrive
// without counting as early: it was already on the wire when the 429 was written, so its client
// could not have read the Retry-After yet. Loopback round trips are well under it, and a
// client's concurrent requests are sent within it of each other.
const EarlyGrace = 100 * time.Millisecond

// RateStats are the rate limiter's statistics since the emulator started.
type RateStats struct {
	Uploads, Writes, Reads ClassRateStats
	// EarlyGrace is the grace that ClassRateStats.Early applies.
	EarlyGrace time.Duration
}

// ClassRateStats are the statistics of one rate-limit class, over every key and address.
type ClassRateStats struct {
	// Requests is how many requests of the class reached the rate limiter, allowed or not
	// (the /auth/ endpoints, unknown paths and the control API do not).
	Requests int
	// TooManyRequests is how many of them the rate limiter answered 429 because their window
	// was used up. Injected 429s (Faults.Burst429) are not counted: they are the fault
	// injection's, not the limit's.
	TooManyRequests int
	// Early is how many requests arrived after a 429 of the rate limiter to the same key (or
	// address) and class, more than EarlyGrace after it and before its X-RateLimit-Retry-After
	// seconds had elapsed: requests of a client that did not wait as it was told.
	Early int
	// First and Last are the emulator's clock when the first and the last of the Requests
	// arrived; zero when there was none.
	First, Last time.Time
}

// RateStats returns the rate limiter's statistics: requests, 429s and early requests per class.
func (e *Emulator) RateStats() RateStats {
	c := e.limiter.counts()
	conv := func(k classCounters) ClassRateStats {
		return ClassRateStats{Requests: k.requests, TooManyRequests: k.refused, Early: k.early, First: k.first, Last: k.last}
	}
	return RateStats{
		Uploads:    conv(c[classUploads]),
		Writes:     conv(c[classWrites]),
		Reads:      conv(c[classReads]),
		EarlyGrace: EarlyGrace,
	}
}

// classRateWire is the control API's form of ClassRateStats; first and last are null when the
// class had no request.
type classRateWire struct {
	Requests        int     `json:"requests"`
	TooManyRequests int     `json:"tooManyRequests"`
	Early           int     `json:"early"`
	First           *string `json:"first"`
	Last            *string `json:"last"`
}

// rateStatsWire is the "rateLimits" member of GET /_emulator/stats.
type rateStatsWire struct {
	EarlyGraceMs int64         `json:"earlyGraceMs"`
	Uploads      classRateWire `json:"uploads"`
	Writes       classRateWire `json:"writes"`
	Reads        classRateWire `json:"reads"`
}

func (s RateStats) wire() rateStatsWire {
	conv := func(c ClassRateStats) classRateWire {
		w := classRateWire{Requests: c.Requests, TooManyRequests: c.TooManyRequests, Early: c.Early}
		if c.Requests > 0 {
			// Nanoseconds, so that a script can take the span between first and last.
			f, l := c.First.UTC().Format(time.RFC3339Nano), c.Last.UTC().Format(time.RFC3339Nano)
			w.First, w.Last = &f, &l
		}
		return w
	}
	return rateStatsWire{
		EarlyGraceMs: s.EarlyGrace.Milliseconds(),
		Uploads:      conv(s.Uploads),
		Writes:       conv(s.Writes),
		Reads:        conv(s.Reads),
	}
}
