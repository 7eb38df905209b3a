package emulator

import (
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
)

// -state names a file that the emulator replaces on every change (state_file.go). The ways that
// went wrong, handled here: a directory where no file can be made let the emulator start and
// lose every change at its restart; a -state that is a symbolic link was replaced by a regular
// file, the link's target keeping the old state; a write that failed later was only logged,
// while the request that made the change was answered as if it were kept; and, in a directory
// that other users may write (/tmp), another user could plant a state file of hers before the
// first start (her upload token was then accepted without the victim's key), or own the link
// and repoint it at one of the victim's files (~/.bashrc), which the next save replaced with
// state JSON, since every save followed the link anew.
//
// So the path is resolved once, at the start, into a statePin: every link followed and the
// directory that holds the file. Each save writes the file the pin names and no other, and
// first checks that nothing changed: a link that points elsewhere, or was replaced, stops the
// save rather than being followed. At the start and at each save, the links, the file and the
// directories that hold them must be this user's, as the hash cache of internal/localfile
// requires of its records (state_trust_unix.go says exactly what is refused).

// maxStateLinks bounds the symbolic links followed from -state, as the kernel bounds them.
const maxStateLinks = 40

// statePin is what -state named when the emulator started.
type statePin struct {
	path   string       // -state as given
	target string       // the file that path named, every link followed; it may not exist yet
	links  []pinnedLink // the links followed from path, in order
	dir    fileID       // the directory that holds target
}

// pinnedLink is one symbolic link followed from -state: where it is, what it held, and which
// file it was, so that a link removed and made again is seen as changed too.
type pinnedLink struct {
	path, dest string
	id         fileID
}

// fileID tells one file from another on one machine: device and inode (zero where the system
// gives none).
type fileID struct{ dev, ino uint64 }

// resolveStatePath follows the symbolic links from path to the file it names, whether or not
// that file exists yet: a link to a file not yet written is written through too. It judges
// nothing: statePin.check does.
func resolveStatePath(path string) (*statePin, error) {
	pin := &statePin{path: path}
	cur := path
	for range maxStateLinks {
		fi, lerr := os.Lstat(cur)
		if lerr != nil || fi.Mode()&fs.ModeSymlink == 0 {
			// A path that cannot be examined (lerr) is taken for a file, not refused here:
			// checkStateWritable then says why its directory cannot be written.
			pin.target = cur
			return pin, nil //nolint:nilerr // the error is reported by checkStateWritable.
		}
		dest, err := os.Readlink(cur)
		if err != nil {
			return nil, fmt.Errorf("the state file %s: %w", path, err)
		}
		pin.links = append(pin.links, pinnedLink{path: cur, dest: dest, id: fileIDOf(fi)})
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(cur), dest)
		}
		cur = dest
	}
	return nil, fmt.Errorf("the state file %s: too many levels of symbolic links", path)
}

// where names the state file for a message: the path, and the file it leads to when that is
// another.
func (p *statePin) where() string {
	if p.target != p.path {
		return p.path + " (a link to " + p.target + ")"
	}
	return p.path
}

// pinDir records which directory holds the target, once checkStateWritable accepted it.
func (p *statePin) pinDir() error {
	fi, err := os.Stat(filepath.Dir(p.target))
	if err != nil {
		return fmt.Errorf("the state file %s: %w", p.where(), err)
	}
	p.dir = fileIDOf(fi)
	return nil
}

// check says why the state file may not be read or written now ("" when it may): a link that
// changed since the start, or a link, a file or a directory on the way that another user owns
// or may write.
func (p *statePin) check() string {
	for _, l := range p.links {
		if why := l.changed(); why != "" {
			return why
		}
		fi, _ := os.Lstat(l.path)
		if why := untrustedOwner(fi, "the symbolic link "+l.path); why != "" {
			return why
		}
		if why := untrustedDirOf(l.path); why != "" {
			return why
		}
	}
	if why := untrustedDirOf(p.target); why != "" {
		return why
	}
	dir := filepath.Dir(p.target)
	fi, err := os.Stat(dir)
	switch {
	case err == nil && !fi.IsDir():
		return fmt.Sprintf("%s, which held the state file at the start, is not a directory now", dir)
	case err == nil && fileIDOf(fi) != p.dir:
		return fmt.Sprintf("the directory %s is no longer the one that held the state file at the start "+
			"(it was replaced or moved)", dir)
	}
	if fi, err := os.Lstat(p.target); err == nil {
		return untrustedFile(fi, "the state file "+p.target)
	}
	return ""
}

// changed says how the link differs from what it was at the start, "" when it does not.
func (l pinnedLink) changed() string {
	was := fmt.Sprintf("the symbolic link %s, which pointed to %s when the emulator started,", l.path, l.dest)
	fi, err := os.Lstat(l.path)
	switch {
	case err != nil:
		return fmt.Sprintf("%s cannot be examined now (%v)", was, err)
	case fi.Mode()&fs.ModeSymlink == 0:
		return was + " is no longer a link"
	}
	dest, err := os.Readlink(l.path)
	switch {
	case err != nil:
		return fmt.Sprintf("%s cannot be read now (%v)", was, err)
	case fileIDOf(fi) != l.id:
		// A link removed and made again may or may not get its old inode back, so where it
		// points is said either way.
		return fmt.Sprintf("%s was replaced by another link, which points to %s", was, dest)
	case dest != l.dest:
		return fmt.Sprintf("%s now points to %s", was, dest)
	}
	return ""
}

// untrustedDirOf says why the directory that holds path may not hold the state, "" when it may.
func untrustedDirOf(path string) string {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	if err != nil {
		return "" // checkStateWritable, or the write, says why it cannot be used
	}
	return untrustedDir(fi, dir)
}

// refusedAtStart is the error that stops the start on a state file that check refused.
func (p *statePin) refusedAtStart(why string) error {
	return fmt.Errorf("the state file %s is refused: %s. Another user could have put their own state there "+
		"(its upload tokens would be accepted) or made it a link to one of your files, which each save would "+
		"overwrite; choose a -state in a directory that is yours and that no one else may write "+
		"(mkdir -m 700 DIR)", p.where(), why)
}

// refusedAtSave is the error of a save that check refused.
func (p *statePin) refusedAtSave(why string) error {
	return fmt.Errorf("the state file %s was not saved: %s; the emulator writes only the file that -state named "+
		"when it started, through links and directories of this user alone: put things back as they were, or "+
		"restart the emulator on a -state of yours", p.where(), why)
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
// the directory of the pin's target (what -state names, links followed) and renames it over
// the target, so probe must be able to make a file there. The error says where and why, and
// what to do.
func checkStateWritable(pin *statePin, probe func(dir string) error) error {
	dir := filepath.Dir(pin.target)
	if err := probe(dir); err != nil {
		return fmt.Errorf("the state file %s cannot be saved: each save writes a new file in %s and renames it over "+
			"the old one, and making a file there failed: %w; choose a -state in a directory that this process can write",
			pin.where(), dir, err)
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
