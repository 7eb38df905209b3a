package video_test

import (
	"os"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// TestAccVideoPlanTrustsRecordedHash: once a video is uploaded, a refreshing plan over its
// unchanged source reads none of it (the record kept in the private state is trusted); the
// file rewritten with the same size and its modification time restored is read again and
// planned as a new source.
func TestAccVideoPlanTrustsRecordedHash(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	file, _ := acctest.WriteRandomFile(t, dir, "clip.mp4", 6<<20)
	// The record is trusted only when the file was last written localfile.RacyWindow before it was hashed.
	time.Sleep(localfile.RacyWindow + 100*time.Millisecond)
	config := videoConfig(env, "title", acctest.Hcl(env.Name("trusted")), "source_file", acctest.Hcl(file))
	var mtime time.Time
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					forgetHashesOf(file) // as a new process with no cache: only the private state holds the record
				},
				Config:   config,
				PlanOnly: true,
			},
			{
				PreConfig: func() {
					// The provider keeps every record it makes: a read of the file would have left one.
					if r := framework.FileHashes.Recent.Get(file); r.SHA256 != "" {
						t.Errorf("a plan over the unchanged source read it again (a new record, hashed at %d)", r.HashedAt)
					}
					fi, err := os.Stat(file)
					if err != nil {
						t.Fatal(err)
					}
					mtime = fi.ModTime()
					forgetHashesOf(file)
					rewritten, _ := acctest.WriteRandomFile(t, dir, "clip.mp4", 6<<20)
					if err := os.Chtimes(rewritten, mtime, mtime); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("videohost_video.clip", plancheck.ResourceActionReplace),
				}},
			},
		},
	})
}

// forgetHashesOf forgets the records of path that this process made and that the cache on disk
// holds, as a new provider process with an empty cache would start.
func forgetHashesOf(path string) {
	framework.FileHashes.Recent.Forget(path)
	if name := framework.FileHashes.Disk.RecordFile(path); name != "" {
		_ = os.Remove(name)
	}
}
