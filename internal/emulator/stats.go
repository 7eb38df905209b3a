package emulator

import (
	"strings"
	"sync"
)

// maxStatsKeys bounds the distinct method and path pairs that are counted one by one; later
// new pairs are counted under "<METHOD> (other)" so that random paths cannot grow memory.
const maxStatsKeys = 100000

// requestStats counts the service API requests (control API requests are not counted).
type requestStats struct {
	mu     sync.Mutex
	counts map[string]int // "<METHOD> <path>"
	total  int
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
