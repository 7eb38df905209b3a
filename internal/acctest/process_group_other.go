//go:build unix && !linux

package acctest

// becomeSubreaper does nothing where the system has no subreapers: the killed orphans of a
// process group are init's to reap.
func becomeSubreaper() {}
