package framework_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// privateRecords is a private state that holds one record of source_file.
type privateRecords map[string][]byte

func (p privateRecords) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

func withPrivateRecord(t *testing.T, r localfile.Record) privateRecords {
	t.Helper()
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return privateRecords{framework.HashRecordKey("source_file"): raw}
}

// TestPrivateRecordIsNotOverruledByTheDisk: a record on disk that disagrees with the private
// state's for the same identity of the file is ignored, however new it says it is; one of
// another identity (the file changed since) that is newer is taken; a record from the future is
// taken from nowhere.
func TestPrivateRecordIsNotOverruledByTheDisk(t *testing.T) {
	ctx := t.Context()
	name := filepath.Join(t.TempDir(), "clip.mp4")
	id := localfile.Identity{Size: 10, ModNano: 1, ChgNano: 1, Inode: 42, Device: 1}
	hour := time.Now().Add(-time.Hour).UnixNano()
	kept := localfile.Record{Identity: id, SHA256: acctest.Sha256Hex("planned"), HashedAt: hour}
	private := withPrivateRecord(t, kept)

	framework.FileHashes.Recent.Forget(name)
	disk := localfile.Record{Identity: id, SHA256: acctest.Sha256Hex("forged"), HashedAt: hour + int64(time.Minute)}
	if why := framework.FileHashes.Disk.Store(name, disk); why != "" {
		t.Fatal(why)
	}
	if got := framework.LoadHashRecord(ctx, private, "source_file", name); got != kept {
		t.Errorf("a record on disk that disagrees for the same identity was taken: %+v", got)
	}

	changed := disk
	changed.Identity.Size = 11
	framework.FileHashes.Disk.Store(name, changed)
	if got := framework.LoadHashRecord(ctx, private, "source_file", name); got != changed {
		t.Errorf("a newer record of the file as it is now was not taken: %+v", got)
	}

	future := kept
	future.HashedAt = time.Now().Add(time.Hour).UnixNano()
	if got := framework.LoadHashRecord(ctx, withPrivateRecord(t, future), "source_file", name); got != changed {
		t.Errorf("a record from the future was taken: %+v", got)
	}
}

// TestCacheRefusalIsLoggedOnce: a cache directory that others may write is not used, and the
// provider says why in one INFO line, however many plans look at it.
func TestCacheRefusalIsLoggedOnce(t *testing.T) {
	shared := filepath.Join(t.TempDir(), "shared")
	if err := os.Mkdir(shared, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, os.ModeSticky|0o777); err != nil {
		t.Fatal(err)
	}
	before := framework.FileHashes.Disk
	framework.FileHashes.Disk = localfile.NewCache(shared)
	t.Cleanup(func() { framework.FileHashes.Disk = before })
	var out bytes.Buffer
	ctx := tflogtest.RootLogger(t.Context(), &out)
	name := filepath.Join(t.TempDir(), "clip.mp4")
	acctest.WriteFile(t, name, "content")
	for range 3 {
		framework.KeepHashRecord(ctx, name, localfile.Record{Identity: localfile.Identity{Size: 7, Inode: 1}, SHA256: acctest.Sha256Hex("content"), HashedAt: time.Now().UnixNano()})
		framework.LoadHashRecord(ctx, nil, "source_file", name)
	}
	lines, err := tflogtest.MultilineJSONDecode(&out)
	if err != nil {
		t.Fatal(err)
	}
	var refusals int
	for _, l := range lines {
		if reason, _ := l["reason"].(string); strings.Contains(reason, "may be written by other users") && l["@level"] == "info" {
			refusals++
		}
	}
	if refusals != 1 {
		t.Errorf("%d INFO lines say why the shared directory is not used, want 1: %v", refusals, lines)
	}
	entries, err := os.ReadDir(shared)
	if err != nil || len(entries) != 0 {
		t.Errorf("the shared directory holds %d entries (%v)", len(entries), err)
	}
}
