//go:build unix

package acctest

// What a test starts outside the provider (a doc block's bash, make) runs in a process group of
// its own, bounded by a deadline: when it ends, or its time runs out, the whole group is killed
// and reaped, whatever it left in the background, so that nothing it started outlives the test
// and nothing holds the test's output open. A command stopped for time is reported with what it
// was still waiting on: the processes left in its group and the last lines it printed.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// GroupResult is how a command run by RunInGroup ended.
type GroupResult struct {
	Output   []byte // its standard output and error, interleaved
	Err      error  // its exit error, or the context's when its time ran out
	TimedOut bool   // stopped because ctx's deadline passed
	Waiting  string // when it timed out: the processes of its group still running then
}

// RunInGroup runs cmd in a process group of its own within ctx, its output into a file rather
// than a pipe (a process left in the background cannot keep the test waiting on the pipe). When
// the command ends, or ctx is done, the group is killed and its processes reaped; a process of
// the group still there after that fails the test.
func RunInGroup(ctx context.Context, t *testing.T, cmd *exec.Cmd) GroupResult {
	t.Helper()
	becomeSubreaper()
	out, err := os.CreateTemp(t.TempDir(), "output-*")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = out.Close() }()
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var res GroupResult
	cmd.Cancel = func() error {
		res.TimedOut = errors.Is(ctx.Err(), context.DeadlineExceeded)
		res.Waiting = GroupProcesses(cmd.Process.Pid)
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", cmd.Path, err)
	}
	res.Err = cmd.Wait()
	if left := StopGroup(cmd.Process.Pid); left != "" {
		t.Errorf("%s left processes that outlived SIGKILL:\n%s", cmd.Path, left)
	}
	res.Output, _ = os.ReadFile(out.Name())
	return res
}

// StopGroup kills the process group pgid and reaps its processes (those the test binary is the
// parent or subreaper of); it returns the processes of the group still there after a few
// seconds, "" when none is.
func StopGroup(pgid int) string {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	for range 50 {
		for {
			pid, err := syscall.Wait4(-pgid, nil, syscall.WNOHANG, nil)
			if pid <= 0 || err != nil {
				break
			}
		}
		if err := syscall.Kill(-pgid, 0); errors.Is(err, syscall.ESRCH) {
			return ""
		}
		time.Sleep(100 * time.Millisecond)
	}
	return GroupProcesses(pgid)
}

// GroupProcesses lists the processes of the group pgid, one a line with its pid, state and
// command line, as /proc shows them ("" where there is no /proc or no such process).
func GroupProcesses(pgid int) string {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var b strings.Builder
	for _, stat := range stats {
		raw, err := os.ReadFile(stat)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...: comm may hold spaces, so read after its last ')'.
		s := string(raw)
		fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(fields) < 3 || fields[2] != strconv.Itoa(pgid) {
			continue
		}
		dir := filepath.Dir(stat)
		cmdline, _ := os.ReadFile(filepath.Join(dir, "cmdline"))
		fmt.Fprintf(&b, "  pid %s (state %s, parent %s): %s\n", filepath.Base(dir), fields[0], fields[1],
			strings.TrimSpace(strings.ReplaceAll(string(cmdline), "\x00", " ")))
	}
	return b.String()
}

// Describe says how the command ended, for a test's failure: its error, and when its time ran out
// what it was waiting on, then its output's last lines.
func (r GroupResult) Describe(limit time.Duration) string {
	var b strings.Builder
	if r.TimedOut {
		fmt.Fprintf(&b, "stopped after %s, its deadline; ", limit)
		if r.Waiting == "" {
			b.WriteString("no process of its group was left, so it was waiting on its output's readers\n")
		} else {
			b.WriteString("it was waiting on these processes of its group:\n" + r.Waiting)
		}
	} else {
		fmt.Fprintf(&b, "%v\n", r.Err)
	}
	lines := strings.Split(strings.TrimRight(string(r.Output), "\n"), "\n")
	if len(lines) > 60 {
		lines = lines[len(lines)-60:]
	}
	b.WriteString("---- the last lines of its output ----\n" + strings.Join(lines, "\n"))
	return b.String()
}
