package framework

// The records of the SHA-256 of the files that attributes name (internal/localfile says when a
// record is trusted), kept in three places: the resource's private state under the attribute's
// name, this process's last record of each path, and the cache on disk. Terraform hands the
// private state a plan wrote to an update but not to a create; the plan of an apply runs in the
// same process just before its create, and in another process than the plan the user approved,
// which the cache on disk serves.

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
)

// FileHashes are the records this process keeps outside the private state.
var FileHashes = struct {
	Recent localfile.Recent
	Disk   *localfile.Cache
}{Disk: localfile.NewCache(localfile.DefaultCacheDir())}

// HashRecordKey is the private state key of the record of the file named by attr.
func HashRecordKey(attr string) string { return "file_sha256:" + attr }

// PrivateReader and privateWriter are the private state of a request and of a response.
type PrivateReader interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type PrivateWriter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// PrivateState is the private state of a response that an apply both reads and writes.
type PrivateState interface {
	PrivateReader
	PrivateWriter
}

// LoadHashRecord is the record to trust for the file path named by attr: the newest of the one
// kept in the private state, the one this process made last for path, and the one kept on disk,
// none from the future. The private state's is never overruled by a record on disk that
// disagrees with it for the same identity of the file: the disk's is then ignored. A record that
// cannot be read (written by another version) is no record: the file is read again.
func LoadHashRecord(ctx context.Context, p PrivateReader, attr, path string) localfile.Record {
	kept := privateHashRecord(ctx, p, attr)
	disk, refused := FileHashes.Disk.Load(path)
	logCacheRefusal(ctx, refused)
	if disk.Identity == kept.Identity && kept.SHA256 != "" && disk.SHA256 != kept.SHA256 {
		disk = localfile.Record{}
	}
	now := time.Now().UnixNano()
	var r localfile.Record
	for _, c := range []localfile.Record{kept, FileHashes.Recent.Get(path), disk} {
		if c.HashedAt > r.HashedAt && c.HashedAt <= now {
			r = c
		}
	}
	return r
}

// privateHashRecord is the record of the file named by attr kept in the private state p, or no
// record.
func privateHashRecord(ctx context.Context, p PrivateReader, attr string) localfile.Record {
	var kept localfile.Record
	if p == nil {
		return kept
	}
	raw, diags := p.GetKey(ctx, HashRecordKey(attr))
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &kept) != nil {
		return localfile.Record{}
	}
	return kept
}

// loggedRefusals are the reasons this process gave for not using the cache on disk: each is
// logged once, at INFO, since the cache refuses the same directory at every plan.
var loggedRefusals sync.Map

// logCacheRefusal logs why the cache on disk was not used, once per reason; "" logs nothing.
func logCacheRefusal(ctx context.Context, why string) {
	if why == "" {
		return
	}
	if _, seen := loggedRefusals.LoadOrStore(why, true); !seen {
		tflog.Info(ctx, "not using the cache of files' SHA-256 on disk: files are read again instead", map[string]any{
			"reason": why, "setting": localfile.CacheDirEnv,
		})
	}
}

// KeepHashRecord keeps rec, the new record of the file path that this process just hashed, for
// the plans to come: in this process, and on disk for the next.
func KeepHashRecord(ctx context.Context, path string, rec localfile.Record) {
	FileHashes.Recent.Keep(path, rec)
	logCacheRefusal(ctx, FileHashes.Disk.Store(path, rec))
}

// KeepNewHashRecord keeps rec as keepHashRecord does when it is not prior, the record that
// spared the file's read (and is kept already).
func KeepNewHashRecord(ctx context.Context, path string, prior, rec localfile.Record) {
	if rec != prior && rec.SHA256 != "" {
		KeepHashRecord(ctx, path, rec)
	}
}

// StoreHashRecord keeps r for attr in the private state p; an empty record removes it.
func StoreHashRecord(ctx context.Context, p PrivateWriter, attr string, r localfile.Record, diags *diag.Diagnostics) {
	var raw []byte
	if r.SHA256 != "" {
		var err error
		if raw, err = json.Marshal(r); err != nil {
			diags.AddError("Unable to Record a File's SHA-256", err.Error())
			return
		}
	}
	diags.Append(p.SetKey(ctx, HashRecordKey(attr), raw)...)
}
