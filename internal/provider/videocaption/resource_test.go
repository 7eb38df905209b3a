package provider

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

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// captionOnService is a service check of the caption of language of videoID.
func captionOnService(c *videohost.Client, videoID, language string, check func(videohost.Caption) error) serviceCheckFunc {
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
	env, rec := newTrackEnv(t)
	c := serviceClient(t, env)
	videoID := newTestVideo(t, env)
	file := filepath.Join(t.TempDir(), "en.vtt")
	first, second := webVTT("Hello."), webVTT("Hello again, with new words.")
	writeFile(t, file, first)
	path := trackPath(videoID, "captions", "en")
	isDefault := func(want bool) serviceCheckFunc {
		return captionOnService(c, videoID, "en", func(got videohost.Caption) error {
			if got.Default != want {
				return fmt.Errorf("default on the service %t, want %t", got.Default, want)
			}
			return nil
		})
	}

	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             captionGone(c, videoID, "en"),
		Steps: []resource.TestStep{
			{
				Config: trackConfig(env, "caption", videoID, "en", file),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("id"), knownvalue.StringExact(videoID+"/en")),
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sha256Hex(first))),
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("language_name"), knownvalue.StringExact("English")),
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("default"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`/captions/en\.vtt\?v=1$`))),
					holdsUpload(env, rec, path, first, 1),
					isDefault(false),
				},
			},
			{
				Config: trackConfig(env, "caption", videoID, "en", file, "default", "true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testCaptionAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`v=1$`))),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("default"), knownvalue.Bool(true)),
					holdsUpload(env, rec, path, first, 1), // no upload for a default
					isDefault(true),
				},
			},
			{
				PreConfig: func() { writeFile(t, file, second) },
				Config:    trackConfig(env, "caption", videoID, "en", file, "default", "true"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testCaptionAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sha256Hex(second))),
					plancheck.ExpectUnknownValue(testCaptionAddr, tfjsonpath.New("src")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sha256Hex(second))),
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`v=2$`))),
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("default"), knownvalue.Bool(true)),
					holdsUpload(env, rec, path, second, 2),
					isDefault(true),
				},
			},
			{
				ResourceName:            testCaptionAddr,
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
	env, rec := newTrackEnv(t)
	c := serviceClient(t, env)
	videoID := newTestVideo(t, env)
	outside := webVTT("Bonjour (uploaded outside Terraform).")
	if _, err := c.UploadCaption(t.Context(), videoID, "fr", videohost.UploadSource{
		Name: "fr.vtt", Reader: strings.NewReader(outside), Size: int64(len(outside)),
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetCaptionDefault(t.Context(), videoID, "fr", true); err != nil {
		t.Fatal(err)
	}
	ours := webVTT("Bonjour.")
	file := tempFile(t, t.TempDir(), "fr.vtt", ours)
	config := trackConfig(env, "caption", videoID, "fr", file, "default", "true")
	importBlock := fmt.Sprintf("\nimport {\n  to = %s\n  id = %q\n}\n", testCaptionAddr, videoID+"/fr")

	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             captionGone(c, videoID, "fr"),
		Steps: []resource.TestStep{
			{
				Config: config + importBlock,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testCaptionAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sha256Hex(ours))),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sha256Hex(ours))),
					statecheck.ExpectKnownValue(testCaptionAddr, tfjsonpath.New("language_name"), knownvalue.StringExact("Français")),
					// One upload outside Terraform, then one in place.
					holdsUpload(env, rec, trackPath(videoID, "captions", "fr"), ours, 2),
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
	env, rec := newTrackEnv(t)
	c := serviceClient(t, env)
	videoID := newTestVideo(t, env)
	outside := webVTT("Made elsewhere.")
	if _, err := c.UploadCaption(t.Context(), videoID, "de", videohost.UploadSource{
		Name: "de.vtt", Reader: strings.NewReader(outside), Size: int64(len(outside)),
	}); err != nil {
		t.Fatal(err)
	}
	file := tempFile(t, t.TempDir(), "de.vtt", webVTT("Ours."))
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      trackConfig(env, "caption", videoID, "de", file),
				ExpectError: onAttribute("Video Caption Already Exists", testCaptionAddr, "language", "Import it to manage it"),
			},
			{
				PreConfig: func() {
					if got := rec.content(trackPath(videoID, "captions", "de")); got != outside {
						t.Errorf("the caption made outside Terraform was replaced by %q", got)
					}
				},
				Config:             trackConfig(env, "caption", videoID, "de", file),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccVideoCaption_badInput: each mistake in a caption's or chapter's configuration is an
// error on its attribute when the plan is made, before any request for a caption or chapter.
func TestAccVideoCaption_badInput(t *testing.T) {
	env, _ := newTrackEnv(t)
	videoID := newTestVideo(t, env)
	dir := t.TempDir()
	good := tempFile(t, dir, "good.vtt", webVTT("Fine."))
	empty := tempFile(t, dir, "empty.vtt", "")
	srt := tempFile(t, dir, "subtitles.srt", "1\n00:00:00,000 --> 00:00:02,000\nHello.\n")
	almost := tempFile(t, dir, "almost.vtt", "WEBVTTX\n")
	arrow := tempFile(t, dir, "arrow.vtt", "WEBVTT\n\n00:00:01.000 -> 00:00:02.000\nBroken arrow.\n")
	digit := tempFile(t, dir, "digit.vtt", "WEBVTT\n\n1\n00:00:0x.000 --> 00:00:02.000\nBad digit.\n")
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
		step(trackConfig(env, "caption", videoID, "en", missing),
			onAttribute("Unusable Source File", testCaptionAddr, "source_file", "does not exist")),
		step(trackConfig(env, "caption", videoID, "en", empty),
			onAttribute("Unusable Source File", testCaptionAddr, "source_file", "is empty; a WebVTT file starts with the line WEBVTT")),
		step(trackConfig(env, "caption", videoID, "en", sub),
			onAttribute("Unusable Source File", testCaptionAddr, "source_file", "is not a regular file (it is a directory)")),
		step(trackConfig(env, "caption", videoID, "en", srt),
			onAttribute("Unusable Source File", testCaptionAddr, "source_file", "is not WebVTT")),
		step(trackConfig(env, "caption", videoID, "en", almost),
			onAttribute("Unusable Source File", testCaptionAddr, "source_file", "is not WebVTT")),
		step(trackConfig(env, "caption", videoID, "en", arrow),
			onAttribute("Unusable Source File", testCaptionAddr, "source_file", `is not valid WebVTT: line 3, "00:00:01.000 -> 00:00:02.000"`)),
		step(trackConfig(env, "chapter", videoID, "en", digit),
			onAttribute("Unusable Source File", chapterAddr, "source_file", `line 4, "00:00:0x.000 --> 00:00:02.000", is not a cue timing`)),
		step(trackConfig(env, "caption", videoID, "en_US", good),
			onAttribute("Invalid Language Tag", testCaptionAddr, "language", "it must contain only letters and dashes")),
		step(trackConfig(env, "caption", videoID, "english", good),
			onAttribute("Invalid Language Tag", testCaptionAddr, "language", `"english" is not a known language; did you mean "en"?`)),
		step(trackConfig(env, "chapter", videoID, "xx", good),
			onAttribute("Invalid Language Tag", chapterAddr, "language", `"xx" is not a known language`)),
		step(trackConfig(env, "caption", videoID, "fr-", good),
			onAttribute("Invalid Language Tag", testCaptionAddr, "language", "letters and dashes")),
		step(trackConfig(env, "caption", "../players", "en", good),
			onAttribute("Invalid ID", testCaptionAddr, "video_id", "")),
		step(trackConfig(env, "chapter", videoID, "en", srt),
			onAttribute("Unusable Source File", chapterAddr, "source_file", "is not WebVTT")),
		step(trackConfig(env, "chapter", videoID, "e n", good),
			onAttribute("Invalid Language Tag", chapterAddr, "language", "letters and dashes")),
	}
	if os.Geteuid() != 0 { // root reads a file whatever its mode
		unreadable := tempFile(t, dir, "unreadable.vtt", webVTT("Secret."))
		if err := os.Chmod(unreadable, 0); err != nil {
			t.Fatal(err)
		}
		steps = append(steps, step(trackConfig(env, "caption", videoID, "en", unreadable),
			onAttribute("Unusable Source File", testCaptionAddr, "source_file", "cannot be read")))
	}
	// After every refusal: nothing reached the captions or chapters of the video.
	steps = append(steps, resource.TestStep{
		PreConfig: func() {
			noRequestsTo(t, env, "/videos/"+videoID+"/captions", "every mistake must be caught at plan time")()
			noRequestsTo(t, env, "/videos/"+videoID+"/chapters", "every mistake must be caught at plan time")()
			if n := env.RequestCount(http.MethodPost, "/videos"); n != 1 { // the test's own video
				t.Errorf("%d POST requests reached /videos, want only the test video's", n)
			}
		},
		Config:             trackConfig(env, "caption", videoID, "en", good),
		PlanOnly:           true,
		ExpectNonEmptyPlan: true,
	})
	accTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProtoV6ProviderFactories, Steps: steps})
}

// TestAccVideoCaption_serviceRefusals: what only the service can refuse (a language it does not
// know, a video that does not exist) comes back as an error on the attribute at fault, and
// nothing is recorded.
func TestAccVideoCaption_serviceRefusals(t *testing.T) {
	env, _ := newTrackEnv(t)
	videoID := newTestVideo(t, env)
	file := tempFile(t, t.TempDir(), "xx.vtt", webVTT("?"))
	const chapterAddr = "videohost_video_chapter.test"
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				// Klingon and Swahili are in the registry, so the plan takes them, but not in the
				// service's list.
				Config:      trackConfig(env, "caption", videoID, "tlh", file),
				ExpectError: onAttribute("Unable to Create Video Caption", testCaptionAddr, "language", `The "language" attribute is not valid.`),
			},
			{
				Config:      trackConfig(env, "chapter", videoID, "sw-KE", file),
				ExpectError: onAttribute("Unable to Create Video Chapter", chapterAddr, "language", `The "language" attribute is not valid.`),
			},
			{
				Config:      trackConfig(env, "caption", "vi0000000000000000000000", "en", file),
				ExpectError: onAttribute("Unable to Create Video Caption", testCaptionAddr, "video_id", "has no such object in this workspace"),
			},
		},
	})
}

// TestAccVideoCaptionFileChangedAfterSavedPlan: a caption file rewritten between a saved plan
// and its apply is caught by Terraform's second plan, with its own "inconsistent final plan"
// message that the provider cannot word; nothing is uploaded, and the caption and chapter pages
// show the message as the user sees it.
func TestAccVideoCaptionFileChangedAfterSavedPlan(t *testing.T) {
	env, _ := newTrackEnv(t)
	videoID := newTestVideo(t, env)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cli := newCLIWorkdir(ctx, t, "1.0.0")
	file := tempFile(t, t.TempDir(), "en.vtt", webVTT("First."))
	cli.writeConfig(env, "", `
resource "videohost_video_caption" "en" {
  video_id    = "`+videoID+`"
  language    = "en"
  source_file = `+hcl(file)+`
}
`)
	cli.run("apply", "-no-color", "-auto-approve")
	writeFile(t, file, webVTT("Second, as planned."))
	cli.run("plan", "-no-color", "-out=saved.tfplan")
	writeFile(t, file, webVTT("Third, never planned."))
	uploads := env.RequestCount(http.MethodPost, "/videos/"+videoID+"/captions/")
	out := strings.Join(strings.Fields(cli.runFailing("apply", "-no-color", "saved.tfplan")), " ")
	for _, want := range []string{"Error: Provider produced inconsistent final plan",
		"produced an invalid new value for .source_sha256: was cty.StringVal(\"" + sha256Hex(webVTT("Second, as planned.")),
		"but now cty.StringVal(\"" + sha256Hex(webVTT("Third, never planned."))} {
		if !strings.Contains(out, want) {
			t.Errorf("the apply of the saved plan does not say %q:\n%s", want, out)
		}
	}
	if n := env.RequestCount(http.MethodPost, "/videos/"+videoID+"/captions/") - uploads; n != 0 {
		t.Errorf("%d uploads of a file the plan did not show", n)
	}
	for _, page := range []string{"video_caption.md", "video_chapter.md"} {
		doc := strings.Join(strings.Fields(readText(t, filepath.Join("..", "..", "docs", "resources", page))), " ")
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
	env, _ := newTrackEnv(t)
	videoID := newTestVideo(t, env)
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cli := newCLIWorkdir(ctx, t, "1.0.0")
	dir := t.TempDir()
	en, fr := tempFile(t, dir, "en.vtt", webVTT("Hello.")), tempFile(t, dir, "fr.vtt", webVTT("Bonjour."))
	cli.writeConfig(env, "", `
resource "videohost_video_caption" "en" {
  video_id    = "`+videoID+`"
  language    = "en"
  source_file = `+hcl(en)+`
  default     = true
}

resource "videohost_video_caption" "fr" {
  video_id    = "`+videoID+`"
  language    = "fr"
  source_file = `+hcl(fr)+`
  default     = true
}
`)
	cli.run("apply", "-no-color", "-auto-approve")
	out := strings.Join(strings.Fields(cli.run("plan", "-no-color")), " ")
	if !strings.Contains(out, "Warning: Another Caption Took the Default") ||
		!regexp.MustCompile(`caption (en|fr) of video `+videoID+` the default, but when the plan was made the service showed caption (en|fr) as the default`).MatchString(out) ||
		!strings.Contains(out, "set default = true on one caption of the video only") {
		t.Fatalf("the plan after an apply of two default captions does not say why one changes back:\n%s", out)
	}
	// With one default caption, the plan is quiet once applied.
	cli.write("main.tf", strings.Replace(readText(t, filepath.Join(cli.dir, "main.tf")), "default     = true\n}\n", "default     = false\n}\n", 1))
	cli.run("apply", "-no-color", "-auto-approve")
	if out := cli.run("plan", "-no-color"); strings.Contains(out, "Another Caption Took the Default") {
		t.Errorf("the plan warns with one default caption:\n%s", out)
	}
}
