package acctest

import (
	"sync"
	"syscall"
)

// prSetChildSubreaper is prctl's PR_SET_CHILD_SUBREAPER: the orphans of the test binary's
// children are given to it rather than to init, so that it can reap them itself.
const prSetChildSubreaper = 36

var subreaperOnce sync.Once

// becomeSubreaper makes the test binary the subreaper of its descendants.
func becomeSubreaper() {
	subreaperOnce.Do(func() {
		_, _, _ = syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
	})
}
