package localfile

import (
	"errors"
	"testing"
	"time"
)

// TestHashEveryPlanCatchesAWriteThatMovedNoTime: a write through a shared memory mapping can
// change a file without moving its modification or change time (tmpfs; ext4 before
// writeback), so the file's identity is the one its record holds while its content is not.
// The test makes that state without relying on a file system that shows it: the file holds
// content B, and its record holds the SHA-256 of content A (of the same size) with the identity
// the file has now, which is what such a write leaves behind. Without HashEveryPlanEnv the plan trusts the
// record and misses the change; with it, the plan and the apply read the file and see it.
func TestHashEveryPlanCatchesAWriteThatMovedNoTime(t *testing.T) {
	name := tempFile(t, t.TempDir(), "clip.mp4", "content B")
	planned := sha256Hex("content A")
	f, id, err := OpenRegular(name)
	if err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	// The record must not be racy: its read began more than RacyWindow after the last write.
	time.Sleep(RacyWindow + 100*time.Millisecond)
	rec := Record{Identity: id, SHA256: planned, HashedAt: time.Now().UnixNano()}

	t.Setenv(HashEveryPlanEnv, "")
	if got, problem := InspectSource(name, 1<<20, rec); problem != "" || got.SHA256 != planned {
		t.Fatalf("without %s the record was not trusted (%+v, %q): the test no longer shows the limit", HashEveryPlanEnv, got, problem)
	}
	for _, v := range []string{"1", "true", "yes"} {
		t.Setenv(HashEveryPlanEnv, v)
		if got, problem := InspectSource(name, 1<<20, rec); problem != "" || got.SHA256 != sha256Hex("content B") {
			t.Errorf("%s=%s: the plan took %s, not the file's SHA-256 (%q)", HashEveryPlanEnv, v, got.SHA256, problem)
		}
		fh, _, _, err := OpenPlanned(name, planned, rec)
		if ce := (*ChangedError)(nil); !errors.As(err, &ce) {
			t.Errorf("%s=%s: the apply did not see the change: %v", HashEveryPlanEnv, v, err)
		}
		if fh != nil {
			_ = fh.Close()
		}
	}
	for _, v := range []string{"0", "false"} {
		t.Setenv(HashEveryPlanEnv, v)
		if _, ok := rec.Trusted(id); !ok {
			t.Errorf("%s=%s turned records off", HashEveryPlanEnv, v)
		}
	}
}
