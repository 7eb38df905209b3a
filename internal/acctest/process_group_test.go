//go:build unix

package acctest

import (
	"context"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunInGroupStopsWhatTheCommandLeft: a command that leaves a process in the background
// holding its output returns when it ends (not when the orphan does), and the orphan is killed
// and reaped with its group.
func TestRunInGroupStopsWhatTheCommandLeft(t *testing.T) {
	cmd := exec.CommandContext(t.Context(), "bash", "-c", `sleep 600 & echo "orphan $!"; exit 3`)
	res := RunInGroup(t.Context(), t, cmd)
	if res.Err == nil || res.TimedOut {
		t.Fatalf("the command's exit 3 is not reported: %+v", res)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(res.Output), "orphan ")))
	if err != nil {
		t.Fatalf("the output %q does not hold the orphan's pid", res.Output)
	}
	if err := syscall.Kill(pid, 0); err == nil {
		t.Errorf("the background sleep (pid %d) outlived its command", pid)
	}
}

// TestRunInGroupSaysWhatATimedOutCommandWaitedFor: a command stopped by its deadline is
// reported as such, with the processes of its group it was waiting on.
func TestRunInGroupSaysWhatATimedOutCommandWaitedFor(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-c", `echo waiting; sleep 600 & wait`)
	res := RunInGroup(ctx, t, cmd)
	if !res.TimedOut {
		t.Fatalf("not reported as timed out: %+v", res)
	}
	got := res.Describe(time.Second)
	for _, want := range []string{"stopped after 1s", "sleep 600", "waiting"} {
		if !strings.Contains(got, want) {
			t.Errorf("the report does not say %q:\n%s", want, got)
		}
	}
}

// TestInFlightSaysWhatATestWaitsOn: the message of a test past its deadline names the requests
// still in flight, or says none was and which was answered last.
func TestInFlightSaysWhatATestWaitsOn(t *testing.T) {
	var f inFlight
	if got := f.String(); !strings.Contains(got, "no request to the service was in flight") || !strings.Contains(got, "none") {
		t.Errorf("with nothing sent: %s", got)
	}
	f.begin("GET /videos/vi1")
	f.begin("POST /videos")
	f.end("POST /videos")
	got := f.String()
	if !strings.Contains(got, "the service's answer to GET /videos/vi1") || !strings.Contains(got, "the last answered: POST /videos") {
		t.Errorf("with a GET in flight and a POST answered: %s", got)
	}
}
