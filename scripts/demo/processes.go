package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"time"
)

// process is a service the demo started (the emulator, the receiver), with its standard
// output in <name>.out and its errors in <name>.err of the temporary directory.
type process struct {
	name string
	cmd  *exec.Cmd
	// done is closed once the process has exited and been waited for.
	done chan struct{}
	// first receives the first complete line of the process's standard output, its address.
	first chan string
}

// start runs a service in the background, in a process group of its own: Ctrl-C at the
// terminal reaches the demo alone, which stops the service itself, group and all.
func (d *demo) start(name string, args ...string) (*process, error) {
	out, err := os.Create(filepath.Join(d.tmp, name+".out"))
	if err != nil {
		return nil, err
	}
	errFile, err := os.Create(filepath.Join(d.tmp, name+".err"))
	if err != nil {
		out.Close()
		return nil, err
	}
	p := &process{name: name, done: make(chan struct{}), first: make(chan string, 1)}
	p.cmd = exec.Command(args[0], args[1:]...)
	p.cmd.Stdout = io.MultiWriter(out, &firstLineWriter{line: p.first})
	p.cmd.Stderr = errFile
	p.cmd.SysProcAttr = newProcessGroup()
	if err := p.cmd.Start(); err != nil {
		out.Close()
		errFile.Close()
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	d.procs = append(d.procs, p)
	go func() {
		_ = p.cmd.Wait()
		out.Close()
		errFile.Close()
		close(p.done)
	}()
	return p, nil
}

// address waits at most 15 s for the first line of a service's output, its address; it fails
// when the service exits first.
func (p *process) address(ctx context.Context, tmp string) (string, error) {
	select {
	case line := <-p.first:
		return line, nil
	case <-p.done:
		return "", fmt.Errorf("%s exited before printing its address: %s", p.name, lastLines(filepath.Join(tmp, p.name+".err"), 5))
	case <-time.After(15 * time.Second):
		return "", fmt.Errorf("%s printed no address within 15 s", p.name)
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// stopAll stops every service the demo started: TERM to its group, up to 5 s of grace, then
// KILL.
func (d *demo) stopAll() {
	for _, p := range d.procs {
		signalGroup(p.cmd.Process, false)
		select {
		case <-p.done:
			continue
		case <-time.After(5 * time.Second):
		}
		signalGroup(p.cmd.Process, true)
		<-p.done
	}
	d.procs = nil
}

// firstLineWriter passes the first complete line written to it, without its newline, to line;
// it takes the rest and keeps nothing.
type firstLineWriter struct {
	mu   sync.Mutex
	buf  []byte
	sent bool
	line chan<- string
}

func (w *firstLineWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.sent {
		w.buf = append(w.buf, b...)
		if i := bytes.IndexByte(w.buf, '\n'); i >= 0 {
			w.line <- string(w.buf[:i])
			w.sent, w.buf = true, nil
		}
	}
	return len(b), nil
}

// waitHTTP waits (at most 5 s) until a GET of the URL answers 200.
func waitHTTP(ctx context.Context, url string) error {
	client := &http.Client{Timeout: 2 * time.Second}
	for range 50 {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return errors.New("nothing answers at " + url)
}

// sleep waits for d, or less when the run is cancelled, which it returns.
func sleep(ctx context.Context, d time.Duration) error {
	select {
	case <-time.After(d):
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
