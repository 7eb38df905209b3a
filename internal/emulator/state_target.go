package emulator

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
)

// -state names a file that the emulator replaces on every change (state_file.go). Three ways
// that went wrong, handled here: a directory where no file can be made let the emulator start
// and lose every change at its restart; a -state that is a symbolic link was replaced by a
// regular file, the link's target keeping the old state; and a write that failed later was
// only logged, while the request that made the change was answered as if it were kept.

// maxStateLinks bounds the symbolic links followed from -state, as the kernel bounds them.
const maxStateLinks = 40

// statePathTarget is the file that path names once every symbolic link is followed, whether
// or not that file exists yet: a link to a file not yet written is written through too.
func statePathTarget(path string) (string, error) {
	for range maxStateLinks {
		if !isSymlink(path) {
			return path, nil
		}
		link, err := os.Readlink(path)
		if err != nil {
			return "", fmt.Errorf("the state file %s: %w", path, err)
		}
		if !filepath.IsAbs(link) {
			link = filepath.Join(filepath.Dir(path), link)
		}
		path = link
	}
	return "", fmt.Errorf("the state file %s: too many levels of symbolic links", path)
}

// isSymlink reports whether path is a symbolic link. A path that cannot be examined is taken
// for none: checkStateWritable then says why its directory cannot be written.
func isSymlink(path string) bool {
	fi, err := os.Lstat(path)
	return err == nil && fi.Mode()&fs.ModeSymlink != 0
}

// probeDir makes a file in dir and removes it: what every save of the state does there.
func probeDir(dir string) error {
	f, err := os.CreateTemp(dir, ".videohost-emulator-probe.*.tmp")
	if err != nil {
		return err
	}
	name := f.Name()
	return errors.Join(f.Close(), os.Remove(name))
}

// checkStateWritable refuses a state file that could not be saved: each save makes a file in
// the directory of target (what path names, links followed) and renames it over target, so
// probe must be able to make a file there. The error says where and why, and what to do.
func checkStateWritable(path, target string, probe func(dir string) error) error {
	dir := filepath.Dir(target)
	if err := probe(dir); err != nil {
		where := "the state file " + path
		if target != path {
			where += " (a link to " + target + ")"
		}
		return fmt.Errorf("%s cannot be saved: each save writes a new file in %s and renames it over the old one, "+
			"and making a file there failed: %w; choose a -state in a directory that this process can write", where, dir, err)
	}
	return nil
}

// changes reports whether a request of method may change the state.
func changes(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions:
		return false
	}
	return true
}

// keptWriter answers a request that changed the state 500 instead of its success when the
// state file could not be written after the change: every handler saves before it answers,
// and the last save then held the change (its snapshot came after it), so a failed last save
// means that a restart would lose it. The change stays in memory, as a create that is stored
// and answered 500 does on the service; a client settles it as such.
type keptWriter struct {
	http.ResponseWriter
	e       *Emulator
	decided bool
	refused bool
}

func (k *keptWriter) WriteHeader(code int) {
	if k.decided {
		return
	}
	k.decided = true
	if code < 300 && k.e.saveFailed.Load() {
		k.refused = true
		a := k.e.serverError()
		a.Detail = "The change was made but the emulator could not write its state file (-state), so a restart would lose it; see its log."
		writeError(k.ResponseWriter, a)
		return
	}
	k.ResponseWriter.WriteHeader(code)
}

func (k *keptWriter) Write(b []byte) (int, error) {
	if !k.decided {
		k.WriteHeader(http.StatusOK)
	}
	if k.refused {
		return len(b), nil
	}
	return k.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (k *keptWriter) Unwrap() http.ResponseWriter { return k.ResponseWriter }
