package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"time"
)

// envBurn makes the command a CPU load instead: one busy loop, until its standard input ends or
// the number of seconds it names have passed.
const envBurn = "VIDEOHOST_FLAKES_BURN"

// cpuLoad is the busy loops that load the machine while the loaded runs go: each one a process
// of its own (this command started again), so that the tests compete with other processes as on
// a shared machine, not with goroutines of their own binary.
type cpuLoad struct {
	procs []*exec.Cmd
	pipes []io.WriteCloser
}

// startLoad starts n busy loops that stop by themselves after bound: also when this command is
// killed before it stops them, since each ends when its standard input (a pipe from this
// command) closes.
func startLoad(n int, bound time.Duration) (*cpuLoad, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("finding this command to start the load: %w", err)
	}
	l := &cpuLoad{}
	for range n {
		cmd := exec.Command(self)
		cmd.Env = append(os.Environ(), envBurn+"="+strconv.Itoa(int(bound.Seconds())+1))
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		in, err := cmd.StdinPipe()
		if err != nil {
			l.stop()
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			l.stop()
			return nil, fmt.Errorf("starting a busy loop: %w", err)
		}
		l.procs, l.pipes = append(l.procs, cmd), append(l.pipes, in)
	}
	return l, nil
}

// stop ends every busy loop and waits for it; it may be called more than once.
func (l *cpuLoad) stop() {
	if l == nil {
		return
	}
	for _, p := range l.pipes {
		_ = p.Close()
	}
	for _, cmd := range l.procs {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	l.procs, l.pipes = nil, nil
}

// burn is the body of one busy loop (envBurn set): it spins on one core until its standard
// input ends or seconds have passed.
func burn(seconds string) {
	s, err := strconv.Atoi(seconds)
	if err != nil || s <= 0 {
		fmt.Fprintf(os.Stderr, "flakes: %s=%q, want a number of seconds\n", envBurn, seconds)
		os.Exit(2)
	}
	runtime.GOMAXPROCS(2)
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(done)
	}()
	deadline := time.After(time.Duration(s) * time.Second)
	for n := 0; ; n++ {
		if n%1_000_000 == 0 {
			select {
			case <-done:
				return
			case <-deadline:
				return
			default:
			}
		}
	}
}
