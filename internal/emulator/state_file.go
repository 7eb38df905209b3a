package emulator

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"time"
)

// stateFile is the JSON document that -state persists. Tokens, rate-limit windows and
// deliveries are not kept: a restart signs with a new key, so clients authenticate again.
type stateFile struct {
	Version            int   `json:"version"`
	ClockOffsetSeconds int64 `json:"clockOffsetSeconds"`
	store
}

const stateVersion = 1

// loadState reads StatePath when it is set and exists; false when there was nothing to load.
// It pins what StatePath names (state_target.go): every save writes that file and no other.
func (e *Emulator) loadState() (bool, error) {
	if e.opts.StatePath == "" {
		return false, nil
	}
	pin, err := resolveStatePath(e.opts.StatePath)
	if err != nil {
		return false, err
	}
	if err := checkStateWritable(pin, probeDir); err != nil {
		return false, err
	}
	if err := pin.pinDir(); err != nil {
		return false, err
	}
	if why := pin.check(); why != "" {
		return false, pin.refusedAtStart(why)
	}
	e.statePin = pin
	removeStaleTemps(pin.target)
	b, err := readStateFile(pin)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading the state file %s: %w", pin.where(), err)
	}
	var sf stateFile
	if err := json.Unmarshal(b, &sf); err != nil {
		return false, fmt.Errorf("decoding the state file %s: %w", e.opts.StatePath, err)
	}
	if sf.Version != stateVersion {
		return false, fmt.Errorf("the state file %s has version %d; this emulator reads version %d", e.opts.StatePath, sf.Version, stateVersion)
	}
	e.clockOffset.Store(sf.ClockOffsetSeconds * int64(time.Second))
	e.mu.Lock()
	e.st = sf.store
	e.mu.Unlock()
	return true, nil
}

// saveState writes the state atomically: a temporary file in the same directory is written,
// synced, renamed over the file StatePath named at the start, and the directory synced, so that
// a crash or a SIGKILL at any moment leaves the old file or the new one, never half of one, and
// a rename that was made survives a power cut too. It first checks that the links and the
// directory are still those of the start, and this user's alone (statePin.check).
func (e *Emulator) saveState() error {
	if e.opts.StatePath == "" {
		return nil
	}
	e.saveMu.Lock()
	defer e.saveMu.Unlock()
	// The snapshot is taken under saveMu, so the last write always holds the latest state.
	e.mu.RLock()
	sf := stateFile{
		Version:            stateVersion,
		ClockOffsetSeconds: e.clockOffset.Load() / int64(time.Second),
		store:              e.st,
	}
	b, err := json.MarshalIndent(sf, "", "  ")
	e.mu.RUnlock()
	if err != nil {
		return fmt.Errorf("encoding the state: %w", err)
	}
	pin := e.statePin
	if why := pin.check(); why != "" {
		e.saveFailed.Store(true)
		return pin.refusedAtSave(why)
	}
	err = writeStateFile(pin, append(b, '\n'))
	e.saveFailed.Store(err != nil)
	if err != nil {
		return fmt.Errorf("writing the state file %s: %w", pin.where(), err)
	}
	return nil
}

// tempPattern names the temporary files of path's writes: hidden, beside it, so that the rename
// stays within one file system.
func tempPattern(path string) string {
	return "." + filepath.Base(path) + ".*.tmp"
}

// removeStaleTemps removes the temporary files that a write killed before its rename left
// beside path; they hold nothing that the state file does not.
func removeStaleTemps(path string) {
	stale, err := filepath.Glob(filepath.Join(filepath.Dir(path), tempPattern(path)))
	if err != nil {
		return // The pattern is well formed; Glob fails on nothing else.
	}
	for _, f := range stale {
		if err := os.Remove(f); err != nil {
			log.Printf("videohost-emulator: removing a temporary state file left by an interrupted write: %v", err)
		}
	}
}

// saveStateLogged saves after a change. A failure is logged as an error; the request that made
// the change, if any, is then answered 500 rather than as kept (see keptWriter), since a
// restart would lose the change.
func (e *Emulator) saveStateLogged() {
	if err := e.saveState(); err != nil {
		log.Printf("videohost-emulator: ERROR: %v; the change is in memory only and a restart loses it", err)
	}
}
