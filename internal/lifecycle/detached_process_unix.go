//go:build unix

package lifecycle

import "syscall"

// detachedProcess starts a process in a session of its own: a signal to Terraform's process
// group (a CI system cancelling the job) does not reach it.
func detachedProcess() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }
