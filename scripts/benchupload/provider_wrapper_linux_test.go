package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestProviderWrapperRecords runs this test binary as the wrapper (linked under the provider's
// name) of a child that reads a file of known size: the wrapper passes the arguments and the exit
// status through and records a peak RSS and at least the bytes the child read.
func TestProviderWrapperRecords(t *testing.T) {
	dir := t.TempDir()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, wrapperName)
	if err := os.Symlink(self, link); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "data.bin")
	const size = 3 << 20
	if err := os.WriteFile(data, make([]byte, size), 0o600); err != nil {
		t.Fatal(err)
	}
	records := filepath.Join(dir, "records")
	if err := os.Mkdir(records, 0o700); err != nil {
		t.Fatal(err)
	}
	// The provider here is sh, which reads the file through cat's children and exits 3.
	cmd := exec.Command(link, "-c", `cat "$0" > /dev/null; exit 3`, data)
	cmd.Env = append(os.Environ(), wrapperProviderEnv+"=/bin/sh", wrapperDirEnv+"="+records)
	if err := cmd.Run(); cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 3 {
		t.Fatalf("the wrapper's exit: %v, want exit status 3", err)
	}
	pid := strconv.Itoa(cmd.Process.Pid)
	reads, ok := readNumber(filepath.Join(records, "io."+pid+".end"))
	t.Logf("bytes read %d for a file of %d", reads, size)
	// sh and cat read their own libraries too, well under 1 MiB.
	if !ok || reads < size || reads > size+1<<20 {
		t.Errorf("bytes read %d (recorded: %v), want about %d", reads, ok, size)
	}
	rss, ok := readNumber(filepath.Join(records, "rss."+pid))
	if !ok || rss <= 0 {
		t.Errorf("peak RSS %d KiB (recorded: %v)", rss, ok)
	}
}

// TestMain lets this test binary be the provider wrapper, as the bench's own binary is.
func TestMain(m *testing.M) {
	if isProviderWrapper() {
		os.Exit(wrapProvider())
	}
	os.Exit(m.Run())
}
