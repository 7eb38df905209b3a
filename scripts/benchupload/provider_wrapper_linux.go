package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// The provider wrapper: terraform finds this program, linked under the provider's name, through
// the dev_overrides of the bench's CLI configuration, and it runs the provider built for the
// bench (wrapperProviderEnv) as its child. Once the provider has ended it writes, to the
// directory of wrapperDirEnv, the provider's peak RSS in KiB (rss.<pid>: its rusage's ru_maxrss,
// what GNU time's %M prints) and the bytes it read (io.<pid>.end: rchar of /proc/PID/io, files
// and sockets alike). Meanwhile, every 50 ms, it writes the provider's rchar to io.<pid>.0 and
// io.<pid>.1 in turn (one is whole while the other is rewritten), for when terraform kills the
// wrapper before the provider's end. <pid> is the wrapper's. The sampler starts no process:
// started every 50 ms, commands took CPU from the uploads measured.
const (
	wrapperName        = "terraform-provider-videohost"
	wrapperProviderEnv = "BENCH_UPLOAD_PROVIDER"
	wrapperDirEnv      = "BENCH_UPLOAD_PROVIDER_RECORDS"
)

// isProviderWrapper says whether this process was started as the provider.
func isProviderWrapper() bool { return filepath.Base(os.Args[0]) == wrapperName }

func wrapProvider() int {
	real, dir := os.Getenv(wrapperProviderEnv), os.Getenv(wrapperDirEnv)
	if real == "" || dir == "" {
		fmt.Fprintf(os.Stderr, "benchupload: started as the provider without %s and %s\n", wrapperProviderEnv, wrapperDirEnv)
		return 1
	}
	me := os.Getpid()
	// The provider ignores Ctrl-C, as a plugin does (terraform stops it), and so does its
	// wrapper; a TERM is passed on.
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	before, own, _ := rchar("/proc/self/io")
	cmd := exec.Command(real, os.Args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "benchupload: starting the provider:", err)
		return 1
	}
	go func() {
		for s := range sig {
			if s == syscall.SIGTERM {
				_ = cmd.Process.Signal(s)
			}
		}
	}()
	// The sampler's own reads of /proc count in the wrapper's rchar: they are taken off.
	var sampled atomic.Int64
	stop := make(chan struct{})
	go func() {
		path := fmt.Sprintf("/proc/%d/io", cmd.Process.Pid)
		for i := 0; ; i++ {
			v, n, err := rchar(path)
			sampled.Add(int64(n))
			if err == nil {
				_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("io.%d.%d", me, i%2)), []byte(strconv.FormatInt(v, 10)+"\n"), 0o600)
			}
			select {
			case <-stop:
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	_ = cmd.Wait()
	close(stop)
	if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("rss.%d", me)), []byte(strconv.FormatInt(u.Maxrss, 10)+"\n"), 0o600)
	}
	// A reaped child's reads count in its parent's rchar: the wrapper's own, less its reads
	// before the provider started and the sampler's, is what the provider read.
	if after, _, err := rchar("/proc/self/io"); err == nil {
		v := after - before - int64(own) - sampled.Load()
		_ = os.WriteFile(filepath.Join(dir, fmt.Sprintf("io.%d.end", me)), []byte(strconv.FormatInt(v, 10)+"\n"), 0o600)
	}
	if code := cmd.ProcessState.ExitCode(); code >= 0 {
		return code
	}
	return 1
}

// rchar reads the rchar line of a /proc/PID/io file; n is how many bytes that read took.
func rchar(path string) (v int64, n int, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, len(b), err
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte("rchar: ")); ok {
			v, err = strconv.ParseInt(string(bytes.TrimSpace(rest)), 10, 64)
			return v, len(b), err
		}
	}
	return 0, len(b), fmt.Errorf("%s has no rchar", path)
}
