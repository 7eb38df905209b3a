package provider_test

import (
	"os/exec"
	"syscall"
)

// On Linux the Toxiproxy of the network soak dies with the test binary even when the binary
// ends without running its cleanups (go test's -timeout, a signal).
func init() {
	toxiproxyProcess = func(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
}
