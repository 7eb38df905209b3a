package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// processes starts every process of the bench as the leader of a process group of its own, so
// that stopping it also stops whatever it started, and stops them all on every exit: success,
// failure and Ctrl-C. Each one's stdout and stderr go to <dir>/<name>.out and .err.
type processes struct {
	dir    string
	mu     sync.Mutex
	live   map[*process]struct{}
	closed bool
}

// process is one started process; done is closed once it has been waited for.
type process struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
	err  error
}

func newProcesses(dir string) *processes {
	return &processes{dir: dir, live: map[*process]struct{}{}}
}

// start runs argv with extra variables added to the bench's environment.
func (ps *processes) start(name string, env []string, argv ...string) (*process, error) {
	out, err := os.Create(filepath.Join(ps.dir, name+".out"))
	if err != nil {
		return nil, err
	}
	defer out.Close()
	errf, err := os.Create(filepath.Join(ps.dir, name+".err"))
	if err != nil {
		return nil, err
	}
	defer errf.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = out, errf
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	ps.mu.Lock()
	defer ps.mu.Unlock()
	// Once stopAll has run (Ctrl-C), nothing new starts.
	if ps.closed {
		return nil, errors.New("stopping: no new process")
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", argv[0], err)
	}
	p := &process{name: name, cmd: cmd, done: make(chan struct{})}
	ps.live[p] = struct{}{}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// wait waits for a process to end by itself and returns its exit status.
func (ps *processes) wait(p *process) int {
	<-p.done
	ps.forget(p)
	return p.cmd.ProcessState.ExitCode()
}

func (ps *processes) forget(p *process) {
	ps.mu.Lock()
	delete(ps.live, p)
	ps.mu.Unlock()
}

// running says whether the process has not ended yet.
func (p *process) running() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// stop stops a process's group: TERM, up to 5 s of grace, then KILL.
func (ps *processes) stop(p *process) {
	pid := p.cmd.Process.Pid
	if p.running() {
		_ = syscall.Kill(-pid, syscall.SIGTERM)
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
		}
	}
	// What the leader started may outlive it: the group gets a KILL in any case.
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	<-p.done
	ps.forget(p)
}

// stopAll stops every process that was neither waited for nor stopped, and refuses new ones.
func (ps *processes) stopAll() {
	ps.mu.Lock()
	ps.closed = true
	live := make([]*process, 0, len(ps.live))
	for p := range ps.live {
		live = append(live, p)
	}
	ps.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range live {
		wg.Go(func() { ps.stop(p) })
	}
	wg.Wait()
}
