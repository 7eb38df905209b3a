package emulator

import (
	"sync"
)

// faultState holds the injected faults. Shares are drawn deterministically: each request adds
// the rate to an accumulator and fails when it reaches 1, so a rate of 0.5 fails exactly every
// second request and 0.25 every fourth, which keeps tests reproducible without a random seed.
type faultState struct {
	mu            sync.Mutex
	f             Faults
	errorAcc      float64
	commitAcc     float64
	burstLeft     int
	injected500   int
	injected429   int
	commitThen500 int
}

func (s *faultState) set(f Faults) {
	f.ErrorRate = clampShare(f.ErrorRate)
	f.CommitThen500Rate = clampShare(f.CommitThen500Rate)
	f.Latency = max(f.Latency, 0)
	f.Burst429 = max(f.Burst429, 0)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.f = f
	s.errorAcc, s.commitAcc = 0, 0
	s.burstLeft = f.Burst429
}

func (s *faultState) get() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.f
	f.Burst429 = s.burstLeft
	return f
}

// draw advances an accumulator by rate and reports whether this request is the one to fail.
func draw(acc *float64, rate float64) bool {
	if rate <= 0 {
		return false
	}
	*acc += rate
	if *acc >= 1-1e-9 {
		*acc--
		return true
	}
	return false
}

func (s *faultState) takeError() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if draw(&s.errorAcc, s.f.ErrorRate) {
		s.injected500++
		return true
	}
	return false
}

func (s *faultState) takeCommitThen500() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if draw(&s.commitAcc, s.f.CommitThen500Rate) {
		s.commitThen500++
		return true
	}
	return false
}

func (s *faultState) take429() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.burstLeft > 0 {
		s.burstLeft--
		s.injected429++
		return true
	}
	return false
}

// SetFaults replaces the injected faults (and restarts the 429 burst with f.Burst429).
func (e *Emulator) SetFaults(f Faults) {
	e.faults.set(f)
}

// CurrentFaults returns the injected faults; Burst429 is what is left of the burst.
func (e *Emulator) CurrentFaults() Faults { return e.faults.get() }

// clampShare keeps a share within 0..1 (NaN becomes 0).
func clampShare(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, 1)
}
