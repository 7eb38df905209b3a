//go:build !unix

package lifecycle

import "syscall"

// detachedProcess: Terraform stops a provider on this system by ending its process alone, so
// the cleaner needs nothing more to outlive it.
func detachedProcess() *syscall.SysProcAttr { return nil }
