//go:build !unix

package main

import (
	"os"
	"syscall"
)

// newProcessGroup leaves a started service in the demo's group where there are no process
// groups to make.
func newProcessGroup() *syscall.SysProcAttr { return nil }

// signalGroup stops p where processes take no TERM: it is killed, gracefully or not.
func signalGroup(p *os.Process, _ bool) { _ = p.Kill() }
