package provider_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/localfile/localfiletest"
)

// TestAccFileAttributesRefuseNonRegular: every attribute that names a file refuses a named
// pipe, a socket, /dev/zero and a directory at plan time, on the attribute, at once (a pipe
// used to hang the plan of a watermark or a logo), and nothing reaches the service.
func TestAccFileAttributesRefuseNonRegular(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	configs := []struct {
		config       func(file string) string
		summary, dir string // the diagnostic's summary, and what it says of a directory
	}{
		{func(f string) string {
			return env.ProviderConfig("") + acctest.ResourceBlock("videohost_video", "clip", "title", acctest.Hcl(env.Name("pipe")), "source_file", acctest.Hcl(f))
		}, "Invalid Source File", `is\s+a\s+directory`},
		{func(f string) string { return acctest.TrackConfig(env, "caption", "vi0000000000000000000001", "en", f) }, "Unusable Source File", `it\s+is\s+a\s+directory`},
		{func(f string) string { return acctest.TrackConfig(env, "chapter", "vi0000000000000000000001", "en", f) }, "Unusable Source File", `it\s+is\s+a\s+directory`},
		{func(f string) string {
			return env.ProviderConfig("") + acctest.ResourceBlock("videohost_watermark", "test", "source_file", acctest.Hcl(f))
		}, "Invalid Image File", `it\s+is\s+a\s+directory`},
		{func(f string) string {
			return env.ProviderConfig("") + acctest.ResourceBlock("videohost_player_theme", "brand", "name", acctest.Hcl(env.Name("brand")), "logo_file", acctest.Hcl(f))
		}, "Invalid Image File", `it\s+is\s+a\s+directory`},
	}
	var steps []resource.TestStep
	for _, c := range configs {
		for kind, file := range localfiletest.SpecialFiles(t) {
			want := `not\s+a\s+regular\s+file\s+\(it\s+is\s+a\s+` + strings.ReplaceAll(kind, " ", `\s+`) + `\)`
			if kind == "directory" {
				want = c.dir
			}
			steps = append(steps, resource.TestStep{
				Config:      c.config(file),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)` + c.summary + `.*` + regexp.QuoteMeta(filepath.Base(file)) + `.*` + want),
			})
		}
	}
	acctest.AccTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
	for _, p := range []string{"/videos", "/watermarks", "/players"} {
		if n := env.RequestCount("", p); n != 0 {
			t.Errorf("%d requests reached %s; every file was refused at plan time", n, p)
		}
	}
}

// TestAccDanglingLinkSaysSo: a source_file that is a symbolic link to a missing file is refused
// at plan time as such, naming the link's target, not as a path that does not exist.
func TestAccDanglingLinkSaysSo(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	link := filepath.Join(dir, "clip.mp4")
	if err := os.Symlink(filepath.Join(dir, "moved-away.mp4"), link); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`(?s)symbolic\s+link\s+to\s+".*moved-away\.mp4",\s+which\s+does\s+not\s+exist`)
	acctest.AccTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: []resource.TestStep{
		{Config: env.ProviderConfig("") + acctest.ResourceBlock("videohost_video", "clip", "title", acctest.Hcl(env.Name("link")), "source_file", acctest.Hcl(link)),
			PlanOnly: true, ExpectError: want},
		{Config: acctest.TrackConfig(env, "caption", "vi0000000000000000000001", "en", link), PlanOnly: true, ExpectError: want},
	}})
}
