package videocaption_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// captionOnService is a service check of the caption of language of videoID.
func captionOnService(c *videohost.Client, videoID, language string, check func(videohost.Caption) error) acctest.ServiceCheckFunc {
	return func(ctx context.Context) error {
		got, err := c.GetCaption(ctx, videoID, language)
		if err != nil {
			return err
		}
		return check(got)
	}
}

// captionGone is a CheckDestroy: the service has no caption of language for videoID.
func captionGone(c *videohost.Client, videoID, language string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if _, err := c.GetCaption(context.Background(), videoID, language); !errors.Is(err, videohost.ErrNotFound) {
			return fmt.Errorf("caption %s of %s after destroy: %v, want not found", language, videoID, err)
		}
		return nil
	}
}

// TestAccVideoCaption_lifecycle: a caption is uploaded; default changes in place without an
// upload; a changed file is uploaded again in place and the service holds the new content
// (default kept); the caption imports by videoId/language; destroy deletes it.
func TestAccVideoCaption_lifecycle(t *testing.T) {
	env, rec := acctest.NewTrackEnv(t)
	c := acctest.ServiceClient(t, env)
	videoID := acctest.NewTestVideo(t, env)
	file := filepath.Join(t.TempDir(), "en.vtt")
	first, second := acctest.WebVTT("Hello."), acctest.WebVTT("Hello again, with new words.")
	acctest.WriteFile(t, file, first)
	path := acctest.TrackPath(videoID, "captions", "en")
	isDefault := func(want bool) acctest.ServiceCheckFunc {
		return captionOnService(c, videoID, "en", func(got videohost.Caption) error {
			if got.Default != want {
				return fmt.Errorf("default on the service %t, want %t", got.Default, want)
			}
			return nil
		})
	}

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             captionGone(c, videoID, "en"),
		Steps: []resource.TestStep{
			{
				Config: acctest.TrackConfig(env, "caption", videoID, "en", file),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("id"), knownvalue.StringExact(videoID+"/en")),
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(first))),
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("language_name"), knownvalue.StringExact("English")),
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("default"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`/captions/en\.vtt\?v=1$`))),
					acctest.HoldsUpload(env, rec, path, first, 1),
					isDefault(false),
				},
			},
			{
				Config: acctest.TrackConfig(env, "caption", videoID, "en", file, "default", "true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctest.TestCaptionAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`v=1$`))),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("default"), knownvalue.Bool(true)),
					acctest.HoldsUpload(env, rec, path, first, 1), // no upload for a default
					isDefault(true),
				},
			},
			{
				PreConfig: func() { acctest.WriteFile(t, file, second) },
				Config:    acctest.TrackConfig(env, "caption", videoID, "en", file, "default", "true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctest.TestCaptionAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(second))),
					plancheck.ExpectUnknownValue(acctest.TestCaptionAddr, tfjsonpath.New("src")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(second))),
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`v=2$`))),
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("default"), knownvalue.Bool(true)),
					acctest.HoldsUpload(env, rec, path, second, 2),
					isDefault(true),
				},
			},
			{
				ResourceName:            acctest.TestCaptionAddr,
				ImportState:             true,
				ImportStateId:           videoID + "/en",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"source_file", "source_sha256"},
			},
		},
	})
}

// TestAccVideoCaption_importUploadsInPlace: a caption made outside Terraform is adopted by an
// import block; the service keeps no hash of the file, so the plan is one upload in place,
// never a replacement, and after it the service holds the configuration's file and the next
// plan is empty.
func TestAccVideoCaption_importUploadsInPlace(t *testing.T) {
	env, rec := acctest.NewTrackEnv(t)
	c := acctest.ServiceClient(t, env)
	videoID := acctest.NewTestVideo(t, env)
	outside := acctest.WebVTT("Bonjour (uploaded outside Terraform).")
	if _, err := c.UploadCaption(t.Context(), videoID, "fr", videohost.UploadSource{
		Name: "fr.vtt", Reader: strings.NewReader(outside), Size: int64(len(outside)),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetCaptionDefault(t.Context(), videoID, "fr", true); err != nil {
		t.Fatal(err)
	}
	ours := acctest.WebVTT("Bonjour.")
	file := acctest.TempFile(t, t.TempDir(), "fr.vtt", ours)
	config := acctest.TrackConfig(env, "caption", videoID, "fr", file, "default", "true")
	importBlock := fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n", acctest.TestCaptionAddr, videoID+"/fr")

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             captionGone(c, videoID, "fr"),
		Steps: []resource.TestStep{
			{
				Config: config + importBlock,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(acctest.TestCaptionAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(ours))),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(ours))),
					statecheck.ExpectKnownValue(acctest.TestCaptionAddr, tfjsonpath.New("language_name"), knownvalue.StringExact("Français")),
					// One upload outside Terraform, then one in place.
					acctest.HoldsUpload(env, rec, acctest.TrackPath(videoID, "captions", "fr"), ours, 2),
				},
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
		},
	})
}

// TestAccVideoCaption_existingNotTakenOver: creating a caption for a language that the video
// already has is refused on language, with the import to use, and the file is not replaced.
func TestAccVideoCaption_existingNotTakenOver(t *testing.T) {
	env, rec := acctest.NewTrackEnv(t)
	c := acctest.ServiceClient(t, env)
	videoID := acctest.NewTestVideo(t, env)
	outside := acctest.WebVTT("Made elsewhere.")
	if _, err := c.UploadCaption(t.Context(), videoID, "de", videohost.UploadSource{
		Name: "de.vtt", Reader: strings.NewReader(outside), Size: int64(len(outside)),
	}); err != nil {
		t.Fatal(err)
	}
	file := acctest.TempFile(t, t.TempDir(), "de.vtt", acctest.WebVTT("Ours."))
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      acctest.TrackConfig(env, "caption", videoID, "de", file),
				ExpectError: acctest.OnAttribute("Video Caption Already Exists", acctest.TestCaptionAddr, "language", "Import it to manage it"),
			},
			{
				PreConfig: func() {
					if got := rec.Content(acctest.TrackPath(videoID, "captions", "de")); got != outside {
						t.Errorf("the caption made outside Terraform was replaced by %q", got)
					}
				},
				Config:             acctest.TrackConfig(env, "caption", videoID, "de", file),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccVideoCaption_badInput: each mistake in a caption's or chapter's configuration is an
// error on its attribute when the plan is made, before any request for a caption or chapter.
func TestAccVideoCaption_badInput(t *testing.T) {
	env, _ := acctest.NewTrackEnv(t)
	videoID := acctest.NewTestVideo(t, env)
	dir := t.TempDir()
	good := acctest.TempFile(t, dir, "good.vtt", acctest.WebVTT("Fine."))
	empty := acctest.TempFile(t, dir, "empty.vtt", "")
	srt := acctest.TempFile(t, dir, "subtitles.srt", "1\n00:00:00,000 --> 00:00:02,000\nHello.\n")
	almost := acctest.TempFile(t, dir, "almost.vtt", "WEBVTTX\n")
	arrow := acctest.TempFile(t, dir, "arrow.vtt", "WEBVTT\n\n00:00:01.000 -> 00:00:02.000\nBroken arrow.\n")
	digit := acctest.TempFile(t, dir, "digit.vtt", "WEBVTT\n\n1\n00:00:0x.000 --> 00:00:02.000\nBad digit.\n")
	missing := filepath.Join(dir, "missing.vtt")
	sub := filepath.Join(dir, "a-directory.vtt")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	const chapterAddr = "videohost_video_chapter.test"
	step := func(config string, want *regexp.Regexp) resource.TestStep {
		return resource.TestStep{Config: config, PlanOnly: true, ExpectError: want}
	}
	steps := []resource.TestStep{
		step(acctest.TrackConfig(env, "caption", videoID, "en", missing),
			acctest.OnAttribute("Unusable Source File", acctest.TestCaptionAddr, "source_file", "does not exist")),
		step(acctest.TrackConfig(env, "caption", videoID, "en", empty),
			acctest.OnAttribute("Unusable Source File", acctest.TestCaptionAddr, "source_file", "is empty; a WebVTT file starts with the line WEBVTT")),
		step(acctest.TrackConfig(env, "caption", videoID, "en", sub),
			acctest.OnAttribute("Unusable Source File", acctest.TestCaptionAddr, "source_file", "is not a regular file (it is a directory)")),
		step(acctest.TrackConfig(env, "caption", videoID, "en", srt),
			acctest.OnAttribute("Unusable Source File", acctest.TestCaptionAddr, "source_file", "is not WebVTT")),
		step(acctest.TrackConfig(env, "caption", videoID, "en", almost),
			acctest.OnAttribute("Unusable Source File", acctest.TestCaptionAddr, "source_file", "is not WebVTT")),
		step(acctest.TrackConfig(env, "caption", videoID, "en", arrow),
			acctest.OnAttribute("Unusable Source File", acctest.TestCaptionAddr, "source_file", `is not valid WebVTT: line 3, "00:00:01.000 -> 00:00:02.000"`)),
		step(acctest.TrackConfig(env, "chapter", videoID, "en", digit),
			acctest.OnAttribute("Unusable Source File", chapterAddr, "source_file", `line 4, "00:00:0x.000 --> 00:00:02.000", is not a cue timing`)),
		step(acctest.TrackConfig(env, "caption", videoID, "en_US", good),
			acctest.OnAttribute("Invalid Language Tag", acctest.TestCaptionAddr, "language", "it must contain only letters and dashes")),
		step(acctest.TrackConfig(env, "caption", videoID, "english", good),
			acctest.OnAttribute("Invalid Language Tag", acctest.TestCaptionAddr, "language", `"english" is not a known language; did you mean "en"?`)),
		step(acctest.TrackConfig(env, "chapter", videoID, "xx", good),
			acctest.OnAttribute("Invalid Language Tag", chapterAddr, "language", `"xx" is not a known language`)),
		step(acctest.TrackConfig(env, "caption", videoID, "fr-", good),
			acctest.OnAttribute("Invalid Language Tag", acctest.TestCaptionAddr, "language", "letters and dashes")),
		step(acctest.TrackConfig(env, "caption", "../players", "en", good),
			acctest.OnAttribute("Invalid ID", acctest.TestCaptionAddr, "video_id", "")),
		step(acctest.TrackConfig(env, "chapter", videoID, "en", srt),
			acctest.OnAttribute("Unusable Source File", chapterAddr, "source_file", "is not WebVTT")),
		step(acctest.TrackConfig(env, "chapter", videoID, "e n", good),
			acctest.OnAttribute("Invalid Language Tag", chapterAddr, "language", "letters and dashes")),
	}
	if os.Geteuid() != 0 { // root reads a file whatever its mode
		unreadable := acctest.TempFile(t, dir, "unreadable.vtt", acctest.WebVTT("Secret."))
		if err := os.Chmod(unreadable, 0); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, step(acctest.TrackConfig(env, "caption", videoID, "en", unreadable),
			acctest.OnAttribute("Unusable Source File", acctest.TestCaptionAddr, "source_file", "cannot be read")))
	}
	// After every refusal: nothing reached the captions or chapters of the video.
	steps = append(steps, resource.TestStep{
		PreConfig: func() {
			acctest.NoRequestsTo(t, env, "/videos/"+videoID+"/captions", "every mistake must be caught at plan time")()
			acctest.NoRequestsTo(t, env, "/videos/"+videoID+"/chapters", "every mistake must be caught at plan time")()
			if n := env.RequestCount(http.MethodPost, "/videos"); n != 1 { // the test's own video
				t.Errorf("%d POST requests reached /videos, want only the test video's", n)
			}
		},
		Config:             acctest.TrackConfig(env, "caption", videoID, "en", good),
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
	})
	acctest.AccTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
}

// TestAccVideoCaption_serviceRefusals: what only the service can refuse (a language it does not
// know, a video that does not exist) comes back as an error on the attribute at fault, and
// nothing is recorded.
func TestAccVideoCaption_serviceRefusals(t *testing.T) {
	env, _ := acctest.NewTrackEnv(t)
	videoID := acctest.NewTestVideo(t, env)
	file := acctest.TempFile(t, t.TempDir(), "xx.vtt", acctest.WebVTT("?"))
	const chapterAddr = "videohost_video_chapter.test"
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Klingon and Swahili are in the registry, so the plan takes them, but not in the
				// service's list.
				Config:      acctest.TrackConfig(env, "caption", videoID, "tlh", file),
				ExpectError: acctest.OnAttribute("Unable to Create Video Caption", acctest.TestCaptionAddr, "language", `The "language" attribute is not valid.`),
			},
			{
				Config:      acctest.TrackConfig(env, "chapter", videoID, "sw-KE", file),
				ExpectError: acctest.OnAttribute("Unable to Create Video Chapter", chapterAddr, "language", `The "language" attribute is not valid.`),
			},
			{
				Config:      acctest.TrackConfig(env, "caption", "vi0000000000000000000000", "en", file),
				ExpectError: acctest.OnAttribute("Unable to Create Video Caption", acctest.TestCaptionAddr, "video_id", "has no such object in this workspace"),
			},
		},
	})
}

// TestAccVideoCaptionFileChangedAfterSavedPlan: a caption file rewritten between a saved plan
// and its apply is caught by Terraform's second plan, with its own "inconsistent final plan"
// message that the provider cannot word; nothing is uploaded, and the caption and chapter pages
// show the message as the user sees it.
func TestAccVideoCaptionFileChangedAfterSavedPlan(t *testing.T) {
	env, _ := acctest.NewTrackEnv(t)
	videoID := acctest.NewTestVideo(t, env)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cli := acctest.NewCLIWorkdir(ctx, t, "1.0.0")
	file := acctest.TempFile(t, t.TempDir(), "en.vtt", acctest.WebVTT("First."))
	cli.WriteConfig(env, "", `
resource "videohost_video_caption" "en" {
  video_id    = "`+videoID+`"
  language    = "en"
  source_file = `+acctest.Hcl(file)+`
}
`)
	cli.Run("apply", "-no-color", "-auto-approve")
	acctest.WriteFile(t, file, acctest.WebVTT("Second, as planned."))
	cli.Run("plan", "-no-color", "-out=saved.tfplan")
	acctest.WriteFile(t, file, acctest.WebVTT("Third, never planned."))
	uploads := env.RequestCount(http.MethodPost, "/videos/"+videoID+"/captions/")
	out := strings.Join(strings.Fields(cli.RunFailing("apply", "-no-color", "saved.tfplan")), " ")
	for _, want := range []string{"Error: Provider produced inconsistent final plan",
		"produced an invalid new value for .source_sha256: was cty.StringVal(\"" + acctest.Sha256Hex(acctest.WebVTT("Second, as planned.")),
		"but now cty.StringVal(\"" + acctest.Sha256Hex(acctest.WebVTT("Third, never planned."))} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply of the saved plan does not say %q:\n%s", want, out)
		}
	}
	if n := env.RequestCount(http.MethodPost, "/videos/"+videoID+"/captions/") - uploads; n != 0 {
		t.Errorf("%d uploads of a file the plan did not show", n)
	}
	for _, page := range []string{"video_caption.md", "video_chapter.md"} {
		doc := strings.Join(strings.Fields(acctest.ReadText(t, filepath.Join(acctest.RepoRoot(t), "docs", "resources", page))), " ")
		for _, want := range []string{"Error: Provider produced inconsistent final plan",
			"produced an invalid new value for .source_sha256: was cty.StringVal(", "It is not a bug"} {
			if !strings.Contains(doc, want) {
				t.Errorf("docs/resources/%s does not show %q", page, want)
			}
		}
	}
}

// TestAccVideoCaptionTwoDefaults: two captions of one video that both set default = true take
// the default from each other at every apply; the plan after the apply says so, naming both,
// instead of only showing the one that lost it changing back.
func TestAccVideoCaptionTwoDefaults(t *testing.T) {
	env, _ := acctest.NewTrackEnv(t)
	videoID := acctest.NewTestVideo(t, env)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cli := acctest.NewCLIWorkdir(ctx, t, "1.0.0")
	dir := t.TempDir()
	en, fr := acctest.TempFile(t, dir, "en.vtt", acctest.WebVTT("Hello.")), acctest.TempFile(t, dir, "fr.vtt", acctest.WebVTT("Bonjour."))
	cli.WriteConfig(env, "", `
resource "videohost_video_caption" "en" {
  video_id    = "`+videoID+`"
  language    = "en"
  source_file = `+acctest.Hcl(en)+`
  default     = true
}

resource "videohost_video_caption" "fr" {
  video_id    = "`+videoID+`"
  language    = "fr"
  source_file = `+acctest.Hcl(fr)+`
  default     = true
}
`)
	cli.Run("apply", "-no-color", "-auto-approve")
	out := strings.Join(strings.Fields(cli.Run("plan", "-no-color")), " ")
	if !strings.Contains(out, "Warning: Another Caption Took the Default") ||
		!regexp.MustCompile(`caption (en|fr) of video `+videoID+` the default, but when the plan was made the service showed caption (en|fr) as the default`).MatchString(out) ||
		!strings.Contains(out, "set default = true on one caption of the video only") {
		t.Fatalf("the plan after an apply of two default captions does not say why one changes back:\n%s", out)
	}
	// With one default caption, the plan is quiet once applied.
	cli.Write("main.tf", strings.Replace(acctest.ReadText(t, filepath.Join(cli.Dir, "main.tf")), "default     = true\n}\n", "default     = false\n}\n", 1))
	cli.Run("apply", "-no-color", "-auto-approve")
	if out := cli.Run("plan", "-no-color"); strings.Contains(out, "Another Caption Took the Default") {
		t.Errorf("the plan warns with one default caption:\n%s", out)
	}
}
