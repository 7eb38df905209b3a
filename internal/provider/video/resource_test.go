package video_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testVideoAddr = "videohost_video.clip"

// videoFileSize is the size of the test sources: with chunks of 5 MiB, three chunks.
const videoFileSize = 12 << 20

// sourceOnService is a state check that the service holds a complete source of video *id: on
// the emulator, whose SHA-256 is *sum; on a real endpoint, which only says how much arrived,
// one that its status calls complete.
func sourceOnService(env *acctest.AccEnv, id, sum *string) statecheck.StateCheck {
	return acctest.ServiceCheckFunc(func(ctx context.Context) error {
		if env.Emu == nil {
			c, err := videohost.New(videohost.Config{BaseURL: env.BaseURL, APIKey: env.APIKey, AuthScheme: videohost.AuthBasic, Version: "test"})
			if err != nil {
				return err
			}
			st, err := c.GetVideoStatus(ctx, *id)
			if err != nil {
				return err
			}
			if !st.Complete() {
				return fmt.Errorf("video %s's source is incomplete: %+v", *id, st.Ingest)
			}
			return nil
		}
		size, got, complete, ok := env.Emu.VideoSource(*id)
		switch {
		case !ok:
			return fmt.Errorf("video %s is not on the emulator", *id)
		case !complete:
			return fmt.Errorf("video %s's source is incomplete", *id)
		case got != *sum:
			return fmt.Errorf("video %s's source (%d bytes) has SHA-256 %s, the file %s", *id, size, got, *sum)
		}
		return nil
	})
}

// TestAccVideoResource uploads a file of several chunks, changes the metadata in place with
// one PATCH, imports the video, and replaces it when the file's content changes.
func TestAccVideoResource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	file, sum := acctest.WriteRandomFile(t, dir, "clip.mp4", videoFileSize)
	var id, firstID string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	patches := 0

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             acctest.GoneFromService(acctest.ServiceClient(t, env).GetVideo, &id),
		Steps: []resource.TestStep{
			{
				Config: videoConfig(env, "title", acctest.Hcl(env.Name("launch")), "source_file", acctest.Hcl(file), "tags", acctest.HclList("a", "b"),
					"metadata", `{ team = "video" }`, "wait_for", acctest.Hcl("encoded")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionCreate),
						// Taken at plan time, not known after apply.
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sum)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(testVideoAddr, &id),
					sameID.AddStateValue(testVideoAddr, tfjsonpath.New("id")),
					sourceOnService(env, &id, &sum),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("playable"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("public"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("mp4_support"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("assets").AtMapKey("mp4"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("tags"), knownvalue.SetExact([]knownvalue.Check{
						knownvalue.StringExact("a"), knownvalue.StringExact("b")})),
					// Detected by the service once ingested, which is no change to the plan.
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("language"), knownvalue.StringExact("en")),
				},
			},
			{
				// Title, description, tags, metadata and panoramic change in place: one PATCH, and
				// the values that never change are known in the plan.
				PreConfig: func() { patches = env.RequestCount("PATCH", "/videos/") },
				Config: videoConfig(env, "title", acctest.Hcl(env.Name("launch-final")), "description", acctest.Hcl("The launch."), "source_file", acctest.Hcl(file),
					"tags", acctest.HclList("b", "c"), "metadata", `{ team = "video", year = "2026" }`, "panoramic", "true", "wait_for", acctest.Hcl("encoded")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("id"), knownvalue.NotNull()),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
						// Set when the video is made, and changed by no attribute.
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("published_at"), knownvalue.NotNull()),
						plancheck.ExpectUnknownValue(testVideoAddr, tfjsonpath.New("updated_at")),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("assets").AtMapKey("hls"), knownvalue.NotNull()),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testVideoAddr, tfjsonpath.New("id")),
					acctest.ServiceCheckFunc(func(context.Context) error {
						if n := env.RequestCount("PATCH", "/videos/") - patches; n != 1 {
							return fmt.Errorf("%d PATCH requests for one in-place change, want 1", n)
						}
						return nil
					}),
					acctest.OnService(acctest.ServiceClient(t, env).GetVideo, &id, func(v videohost.Video) error {
						md := map[string]string{}
						for _, kv := range v.Metadata {
							md[kv.Key] = kv.Value
						}
						slices.Sort(v.Tags)
						if v.Title != env.Name("launch-final") || v.Description != "The launch." || !v.Panoramic ||
							!slices.Equal(v.Tags, []string{"b", "c"}) || len(md) != 2 || md["year"] != "2026" {
							return fmt.Errorf("the service's video is %+v", v)
						}
						return nil
					}),
				},
			},
			{
				ResourceName:      testVideoAddr,
				ImportState:       true,
				ImportStateVerify: true,
				// Only the configuration has them: the service never shows them.
				ImportStateVerifyIgnore: []string{"source_file", "source_sha256", "wait_for", "timeouts"},
			},
			{
				// A new file: the plan replaces the video, and the new one holds the new bytes.
				PreConfig: func() {
					firstID = id
					file, sum = acctest.WriteRandomFile(t, dir, "clip.mp4", videoFileSize+1000)
				},
				Config: videoConfig(env, "title", acctest.Hcl(env.Name("launch-final")), "description", acctest.Hcl("The launch."), "source_file", acctest.Hcl(file),
					"tags", acctest.HclList("b", "c"), "metadata", `{ team = "video", year = "2026" }`, "panoramic", "true", "wait_for", acctest.Hcl("encoded")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(testVideoAddr, &id),
					sourceOnService(env, &id, &sum),
					acctest.ServiceCheckFunc(func(ctx context.Context) error {
						if _, err := acctest.ServiceClient(t, env).GetVideo(ctx, firstID); !errors.Is(err, videohost.ErrNotFound) || id == firstID {
							return fmt.Errorf("the first video %s is still there (new %s): %v", firstID, id, err)
						}
						return nil
					}),
				},
			},
		},
	})
}

var _ = regexp.MustCompile

// TestAccVideoServiceRefusal: what only the service refuses reaches the attribute it concerns.
// A player theme id of the right form that names no theme passes the plan, and the service's
// 404 names playerId; a language off the service's list is refused at plan (TestAccVideoBadInput).
func TestAccVideoServiceRefusal(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	file, _ := acctest.WriteRandomFile(t, t.TempDir(), "ok.mp4", 1024)
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      videoConfig(env, "title", acctest.Hcl(env.Name("refused")), "source_file", acctest.Hcl(file), "player_id", acctest.Hcl("pt0000000000000000000000")),
			ExpectError: regexp.MustCompile(`(?s)Unable to Create Video.*with videohost_video.clip,.*player_id = "pt0000000000000000000000"`),
		}},
	})
}

// testWatermark makes a watermark on the service from a tiny PNG and returns its id.
func testWatermark(t *testing.T, env *acctest.AccEnv) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	c := acctest.ServiceClient(t, env)
	w, err := c.CreateWatermark(t.Context(), videohost.UploadSource{
		Name: "mark.png", Reader: bytes.NewReader(b.Bytes()), Size: int64(b.Len())})
	if err != nil {
		t.Fatal(err)
	}
	// Made outside Terraform, so deleted here when the test ends: a run against a real endpoint
	// leaves nothing behind.
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := c.DeleteWatermark(ctx, w.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("deleting the test's watermark %s: %v", w.ID, err)
		}
	})
	return w.ID
}

// TestAccVideoFromURLAndCopy: a video from a URL, a copy of it with a clip and a watermark;
// the thumbnail changes in place, and a change of the clip or the watermark replaces the
// copy only.
func TestAccVideoFromURLAndCopy(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	mark := testWatermark(t, env)
	config := func(thumbnail, clipEnd, opacity string) string {
		return env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_video" "web" {
  title              = %[5]s
  source_url         = "https://media.example.test/launch.mp4"
  thumbnail_timecode = %[1]s
  wait_for           = "encoded"
}

resource "videohost_video" "copy" {
  title           = %[6]s
  source_video_id = videohost_video.web.id
  clip            = { start_timecode = "00:00:01", end_timecode = %[2]s }
  watermark       = { id = %[3]s, top = "10px", left = "10px", opacity = %[4]s }
}
`, thumbnail, acctest.Hcl(clipEnd), acctest.Hcl(mark), acctest.Hcl(opacity), acctest.Hcl(env.Name("from-the-web")), acctest.Hcl(env.Name("copy")))
	}
	const web, cp = "videohost_video.web", "videohost_video.copy"
	var webID, copyID, firstCopy, firstThumb string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config("null", "00:00:05", "50%"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(web, &webID), acctest.IdOf(cp, &copyID),
					// The service ingests and encodes a URL's video on its own clock, changing
					// playable and the detected language as it goes: the create waits until it
					// is done (wait_for = "encoded"), so that the import at the end reads the
					// same values as the state holds, whenever it comes.
					statecheck.ExpectKnownValue(web, tfjsonpath.New("playable"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("language"), knownvalue.StringExact("en")),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("source_sha256"), knownvalue.Null()),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(cp, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("assets").AtMapKey("thumbnail"), knownvalue.StringFunc(func(v string) error {
						firstThumb = v
						return nil
					})),
					acctest.OnService(acctest.ServiceClient(t, env).GetVideo, &webID, func(v videohost.Video) error {
						if v.Source == nil || v.Source.URI != "https://media.example.test/launch.mp4" {
							return fmt.Errorf("the service's source is %+v", v.Source)
						}
						return nil
					}),
				},
			},
			{
				// The thumbnail changes in place, and with it the thumbnail's address.
				Config: config(acctest.Hcl("00:00:02.500"), "00:00:05", "50%"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(web, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(cp, plancheck.ResourceActionNoop),
						plancheck.ExpectUnknownValue(web, tfjsonpath.New("assets")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(web, tfjsonpath.New("assets").AtMapKey("thumbnail"), knownvalue.StringFunc(func(v string) error {
						if v == firstThumb {
							return fmt.Errorf("the thumbnail's address is still %s", v)
						}
						return nil
					})),
				},
			},
			{
				// A new clip replaces the copy, and only the copy.
				PreConfig: func() { firstCopy = copyID },
				Config:    config(acctest.Hcl("00:00:02.500"), "00:00:06", "50%"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(web, plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction(cp, plancheck.ResourceActionDestroyBeforeCreate),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf(cp, &copyID), acctest.ServiceCheckFunc(func(ctx context.Context) error {
					if copyID == firstCopy {
						return fmt.Errorf("the copy %s was not replaced", copyID)
					}
					return nil
				})},
			},
			{
				// So does a new watermark position.
				PreConfig: func() { firstCopy = copyID },
				Config:    config(acctest.Hcl("00:00:02.500"), "00:00:06", "80%"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(cp, plancheck.ResourceActionDestroyBeforeCreate),
					},
				},
			},
			{
				ResourceName:      web,
				ImportState:       true,
				ImportStateVerify: true,
				// The service shows the URL (kept), not what only the configuration gives.
				ImportStateVerifyIgnore: []string{"thumbnail_timecode", "wait_for", "timeouts"},
			},
		},
	})
}

// TestAccVideoImportAdoptsFile: a video uploaded outside Terraform and imported takes the
// configured file as its source when its size is the size the service holds (no upload, an
// in-place update); a file of another size replaces it.
func TestAccVideoImportAdoptsFile(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	file, sum := acctest.WriteRandomFile(t, dir, "clip.mp4", videoFileSize)
	c := acctest.ServiceClient(t, env)
	title := env.Name("uploaded-elsewhere")
	// Deleted when the test ends if the replacement of the last step has not deleted it.
	id := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: title})
	opened, err := video.OpenPlannedSource(t.Context(), file, sum, localfile.Record{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UploadVideoSource(t.Context(), id, opened.Src, videohost.UploadOptions{ChunkSize: 5 << 20}); err != nil {
		t.Fatal(err)
	}
	_ = opened.File.Close()
	// What reached the service of the source: the emulator counts the bytes; against a real
	// endpoint the chunks sent are counted.
	sent := func() int64 {
		if env.Emu != nil {
			return env.Emu.UploadedBytes(id)
		}
		return int64(env.RequestCount(http.MethodPost, "/videos/"+id+"/source"))
	}
	uploaded := sent()
	config := func(path string) string {
		return videoConfig(env, "title", acctest.Hcl(title), "source_file", acctest.Hcl(path))
	}
	other, _ := acctest.WriteRandomFile(t, dir, "other.mp4", videoFileSize+1)
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:             config(file),
				ResourceName:       testVideoAddr,
				ImportState:        true,
				ImportStateId:      id,
				ImportStatePersist: true,
			},
			{
				Config: config(file),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sum)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("id"), knownvalue.StringExact(id)),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					acctest.ServiceCheckFunc(func(context.Context) error {
						if n := sent(); n != uploaded {
							return fmt.Errorf("%d bytes (or chunks) uploaded after the import, want none", n-uploaded)
						}
						return nil
					}),
				},
			},
			{
				Config: config(other),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("id"), knownvalue.StringFunc(func(v string) error {
						if v == id {
							return fmt.Errorf("the video %s holding another file was kept", id)
						}
						return nil
					})),
				},
			},
		},
	})
}

// TestAccVideoDeletedOutsideWarning: Terraform prints a refresh's warnings again at the end of
// the apply that followed it, so the warning of a video deleted outside Terraform must read true
// there, once the apply has created it again: what was found and planned, in the past tense,
// never "the next apply creates it again". The test finds its video by the id Terraform gives
// it, so it runs in a workspace that others use at the same time.
func TestAccVideoDeletedOutsideWarning(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cli := acctest.NewCLIWorkdir(ctx, t, "1.0.0")
	cli.WriteConfig(env, "", fmt.Sprintf(`
resource "videohost_video" "gone" {
  title      = %s
  source_url = "https://media.example.test/a.mp4"
}

output "id" {
  value = videohost_video.gone.id
}
`, acctest.Hcl(env.Name("deleted-outside"))))
	c := acctest.ServiceClient(t, env)
	var made []string
	// The test leaves nothing, even when it fails between the applies: each video it made is
	// deleted when it ends, if still there (the destroy at the end deletes the last).
	t.Cleanup(func() {
		for _, id := range made {
			if err := c.DeleteVideo(context.Background(), id); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting video %s: %v", id, err)
			}
		}
	})
	cli.Run("apply", "-no-color", "-auto-approve")
	first := strings.TrimSpace(cli.Run("output", "-raw", "id"))
	made = append(made, first)
	if _, err := c.GetVideo(ctx, first); err != nil {
		t.Fatalf("the video %s after the first apply: %v", first, err)
	}
	if err := c.DeleteVideo(ctx, first); err != nil {
		t.Fatal(err)
	}
	out := cli.Run("apply", "-no-color", "-auto-approve")
	again := strings.TrimSpace(cli.Run("output", "-raw", "id"))
	made = append(made, again)
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(out, "Resources: 1 added") || !strings.Contains(flat, "Warning: Video Deleted Outside Terraform") || again == first {
		t.Fatalf("the apply did not warn of the deletion and create the video again (%s, then %s):\n%s", first, again, out)
	}
	if strings.Contains(flat, "next apply") || !strings.Contains(flat, "planned to create it again") {
		t.Errorf("the warning at the end of the apply that created the video again does not read in the past tense:\n%s", out)
	}
	cli.Run("destroy", "-no-color", "-auto-approve")
}
