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
	readErrorAcc  float64
	commitAcc     float64
	burstLeft     int
	injected500   int
	injectedRead  int
	injected429   int
	commitThen500 int
	uploadAcc     float64
	cutsLeft      int
	uploadCommit  int
	uploadCut     int
}

// FaultCounts are the faults injected since the emulator started; SetFaults does not reset
// them, so a test can read them once at the end of a run that changed the faults many times.
type FaultCounts struct {
	// Error500 counts the 500s drawn by ErrorRate (any method).
	Error500 int
	// ReadError500 counts the 500s drawn by ReadErrorRate (GET and HEAD only).
	ReadError500 int
	// Burst429 counts the 429s answered by Burst429.
	Burst429 int
	// CommitThen500 counts the creates and updates that were stored and answered 500.
	CommitThen500 int
	// UploadCommitThen500 counts the source chunks that were stored and answered 500.
	UploadCommitThen500 int
	// UploadCut counts the source chunks whose connection was cut.
	UploadCut int
}

func (s *faultState) set(f Faults) {
	f.ErrorRate = clampShare(f.ErrorRate)
	f.ReadErrorRate = clampShare(f.ReadErrorRate)
	f.CommitThen500Rate = clampShare(f.CommitThen500Rate)
	f.Latency = max(f.Latency, 0)
	f.Burst429 = max(f.Burst429, 0)
	f.UploadCommitThen500Rate = clampShare(f.UploadCommitThen500Rate)
	f.UploadCuts = max(f.UploadCuts, 0)
	if f.UploadCutAfterBytes <= 0 {
		f.UploadCutAfterBytes = chunkCutDefaultAfter
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// A share restarts only when its rate changes: a run that changes other faults often (a
	// soak arming one 429 burst after another) still fails exactly its share of requests,
	// which it would not if each change started the sums from 0 again.
	if f.ErrorRate != s.f.ErrorRate {
		s.errorAcc = 0
	}
	if f.ReadErrorRate != s.f.ReadErrorRate {
		s.readErrorAcc = 0
	}
	if f.CommitThen500Rate != s.f.CommitThen500Rate {
		s.commitAcc = 0
	}
	if f.UploadCommitThen500Rate != s.f.UploadCommitThen500Rate {
		s.uploadAcc = 0
	}
	s.f = f
	s.burstLeft = f.Burst429
	s.cutsLeft = f.UploadCuts
}

func (s *faultState) get() Faults {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.f
	f.Burst429 = s.burstLeft
	f.UploadCuts = s.cutsLeft
	return f
}

// draw advances an accumulator by rate and reports whether this request is the one to fail,
// which it counts in injected.
func draw(acc *float64, rate float64, injected *int) bool {
	if rate <= 0 {
		return false
	}
	*acc += rate
	if *acc >= 1-1e-9 {
		*acc--
		*injected++
		return true
	}
	return false
}

// takeError reports whether this rate-limited API request is answered 500: ErrorRate draws
// for every method, then ReadErrorRate for reads (GET and HEAD) that ErrorRate let through.
// Each rate has its own accumulator so that one does not shift the other's pattern.
func (s *faultState) takeError(method string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return draw(&s.errorAcc, s.f.ErrorRate, &s.injected500) ||
		classOf(method) == classReads && draw(&s.readErrorAcc, s.f.ReadErrorRate, &s.injectedRead)
}

func (s *faultState) counts() FaultCounts {
	s.mu.Lock()
	defer s.mu.Unlock()
	return FaultCounts{
		Error500: s.injected500, ReadError500: s.injectedRead, Burst429: s.injected429, CommitThen500: s.commitThen500,
		UploadCommitThen500: s.uploadCommit, UploadCut: s.uploadCut,
	}
}

// takeUploadCommitThen500 reports whether this stored chunk is answered 500.
func (s *faultState) takeUploadCommitThen500() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return draw(&s.uploadAcc, s.f.UploadCommitThen500Rate, &s.uploadCommit)
}

// takeUploadCut reports whether this chunk's connection is cut, and after how many bytes of
// its file.
func (s *faultState) takeUploadCut() (int64, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cutsLeft <= 0 {
		return 0, false
	}
	s.cutsLeft--
	s.uploadCut++
	return s.f.UploadCutAfterBytes, true
}

func (s *faultState) takeCommitThen500() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return draw(&s.commitAcc, s.f.CommitThen500Rate, &s.commitThen500)
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

// SetFaults replaces the injected faults and restarts the 429 burst with f.Burst429 and the
// upload cuts with f.UploadCuts. The
// draw of a rate restarts only when that rate changes.
func (e *Emulator) SetFaults(f Faults) {
	e.faults.set(f)
}

// FaultCounts returns the faults injected so far, by kind.
func (e *Emulator) FaultCounts() FaultCounts { return e.faults.counts() }

// CurrentFaults returns the injected faults; Burst429 is what is left of the burst.
func (e *Emulator) CurrentFaults() Faults { return e.faults.get() }

// clampShare keeps a share within 0..1 (NaN becomes 0).
func clampShare(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	return min(v, 1)
}
