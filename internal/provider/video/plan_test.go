package video_test

// Tests of the video's plan: bad input refused at plan time.

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccVideoBadInput plans configurations that the service could not take: each is refused
// at plan time on the attribute it concerns, and no request reaches the videos.
func TestAccVideoBadInput(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	file, _ := acctest.WriteRandomFile(t, dir, "ok.mp4", 1024)
	empty := filepath.Join(dir, "empty.mp4")
	acctest.WriteFile(t, empty, "")
	huge := filepath.Join(dir, "huge.mp4")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	// Sparse: no disk holds it.
	if err := f.Truncate(videohost.MaxSourceSize + 1); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	// Unreadable even by root, whom permission bits do not stop: a symbolic link that loops.
	loop := filepath.Join(dir, "loop.mp4")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}

	title := []string{"title", acctest.Hcl(env.Name("bad-input"))}
	with := func(attrs ...string) string { return videoConfig(env, append(title, attrs...)...) }
	steps := []resource.TestStep{
		{Config: with("source_file", acctest.Hcl(filepath.Join(dir, "missing.mp4"))), ExpectError: regexp.MustCompile(`(?s)Invalid Source File.*does\s+not\s+exist`)},
		{Config: with("source_file", acctest.Hcl(empty)), ExpectError: regexp.MustCompile(`(?s)Invalid Source File.*is\s+empty`)},
		{Config: with("source_file", acctest.Hcl(dir)), ExpectError: regexp.MustCompile(`(?s)Invalid Source File.*is\s+a\s+directory`)},
		{Config: with("source_file", acctest.Hcl("/dev/null")), ExpectError: regexp.MustCompile(`(?s)Invalid Source File.*not\s+a\s+regular\s+file`)},
		{Config: with("source_file", acctest.Hcl(loop)), ExpectError: regexp.MustCompile(`(?s)Invalid Source File.*cannot\s+be\s+read.*symbolic\s+links`)},
		{Config: with("source_file", acctest.Hcl(huge)), ExpectError: regexp.MustCompile(`(?s)Invalid Source File.*more\s+than\s+the\s+30\s+GiB\s+the\s+service\s+takes`)},
		{Config: with(), ExpectError: regexp.MustCompile(`(?s)Missing Video Source.*source_file.*source_url.*source_video_id`)},
		{
			Config:      with("source_file", acctest.Hcl(file), "source_url", acctest.Hcl("https://media.example.test/a.mp4")),
			ExpectError: regexp.MustCompile(`(?s)Conflicting Video Sources.*source_file\s+and\s+source_url`),
		},
		{Config: with("source_file", acctest.Hcl(file), "thumbnail_timecode", acctest.Hcl("1:02")), ExpectError: regexp.MustCompile(`(?s)thumbnail_timecode.*HH:MM:SS`)},
		{
			Config:      with("source_file", acctest.Hcl(file), "clip", `{ start_timecode = "00:00:01", end_timecode = "00:61:00" }`),
			ExpectError: regexp.MustCompile(`(?s)end_timecode.*HH:MM:SS`),
		},
		{Config: with("source_file", acctest.Hcl(file), "watermark", `{ top = "10px" }`), ExpectError: regexp.MustCompile(`(?s)watermark.*\bid\b.*required`)},
		{Config: with("source_url", acctest.Hcl("ftp://media.example.test/a.mp4")), ExpectError: regexp.MustCompile(`source_url`)},
		{Config: with("source_file", acctest.Hcl(file), "language", acctest.Hcl("english")), ExpectError: regexp.MustCompile(`(?s)Invalid Language Tag.*language.*did\s+you\s+mean\s+"en"\?`)},
		{Config: with("source_file", acctest.Hcl(file), "language", acctest.Hcl("en_US")), ExpectError: regexp.MustCompile(`(?s)Invalid Language Tag.*did\s+you\s+mean\s+"en-US"\?`)},
		{Config: with("source_file", acctest.Hcl(file), "language", acctest.Hcl("fr-BE")), ExpectError: regexp.MustCompile(`(?s)Invalid Language Tag.*not\s+one\s+of\s+the\s+languages.*did\s+you\s+mean\s+"fr"\?`)},
		{Config: with("source_file", acctest.Hcl(file), "language", acctest.Hcl("sw")), ExpectError: regexp.MustCompile(`(?s)Invalid Language Tag.*"sw"\s+is\s+not\s+one\s+of`)},
		{Config: with("source_file", acctest.Hcl(file), "wait_for", acctest.Hcl("done")), ExpectError: regexp.MustCompile(`(?s)wait_for.*uploaded.*playable.*encoded`)},
		{
			Config:      env.ProviderConfig("upload_chunk_size_mib = 4") + "resource \"videohost_video\" \"clip\" {\n" + acctest.HclAttrs(append(title, "source_file", acctest.Hcl(file))...) + "}\n",
			ExpectError: regexp.MustCompile(`(?s)upload_chunk_size_mib.*between\s+5\s+and\s+200`),
		},
		{
			Config:      env.ProviderConfig("upload_chunks_in_flight = 17") + "resource \"videohost_video\" \"clip\" {\n" + acctest.HclAttrs(append(title, "source_file", acctest.Hcl(file))...) + "}\n",
			ExpectError: regexp.MustCompile(`(?s)upload_chunks_in_flight.*between\s+1\s+and\s+16`),
		},
	}
	for i := range steps {
		steps[i].PlanOnly = true
	}
	// The last step plans a good configuration after all the bad ones: nothing reached the
	// videos before it.
	steps = append(steps, resource.TestStep{
		PreConfig:          acctest.NoRequestsTo(t, env, "/videos", "every configuration was refused at plan time"),
		Config:             with("source_file", acctest.Hcl(file)),
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
	})
	acctest.AccTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}
