//go:build unix

package main

import (
	"os"
	"syscall"
)

// newProcessGroup makes a started service the leader of a new process group.
func newProcessGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true}
}

// signalGroup sends TERM, or KILL when kill is set, to the process group that p leads, so that
// whatever p started stops too; p itself when that fails.
func signalGroup(p *os.Process, kill bool) {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		_ = p.Signal(sig)
	}
}
