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
func (e *Emulator) loadState() (bool, error) {
	if e.opts.StatePath == "" {
		return false, nil
	}
	b, err := os.ReadFile(e.opts.StatePath)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading the state file: %w", err)
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
// synced and renamed over StatePath, so a crash leaves the old or the new file, never half.
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
	dir := filepath.Dir(e.opts.StatePath)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(e.opts.StatePath)+".*.tmp")
	if err != nil {
		return fmt.Errorf("writing the state: %w", err)
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // Harmless after the rename.
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing the state: %w", err)
	}
	if err := tmp.Sync(); err != nil {
		_ = tmp.Close()
		return fmt.Errorf("writing the state: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing the state: %w", err)
	}
	if err := os.Rename(tmp.Name(), e.opts.StatePath); err != nil {
		return fmt.Errorf("writing the state: %w", err)
	}
	return nil
}

// saveStateLogged saves after a change made by a request; the request has succeeded already,
// so a failure to persist is logged rather than answered.
func (e *Emulator) saveStateLogged() {
	if err := e.saveState(); err != nil {
		log.Printf("videohost-emulator: %v", err)
	}
}
