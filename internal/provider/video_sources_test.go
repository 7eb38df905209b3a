package provider

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// testWatermark makes a watermark on the service from a tiny PNG and returns its id.
func testWatermark(t *testing.T, env *accEnv) string {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	w, err := serviceClient(t, env).CreateWatermark(t.Context(), videohost.UploadSource{
		Name: "mark.png", Reader: bytes.NewReader(b.Bytes()), Size: int64(b.Len())})
	if err != nil {
		t.Fatal(err)
	}
	return w.ID
}

// TestAccVideoFromURLAndCopy: a video from a URL, a copy of it with a clip and a watermark;
// the thumbnail changes in place, and a change of the clip or the watermark replaces the
// copy only.
func TestAccVideoFromURLAndCopy(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	mark := testWatermark(t, env)
	config := func(thumbnail, clipEnd, opacity string) string {
		return env.providerConfig("") + fmt.Sprintf(`
resource "videohost_video" "web" {
  title              = "From the web"
  source_url         = "https://media.example.test/launch.mp4"
  thumbnail_timecode = %s
}

resource "videohost_video" "copy" {
  title           = "Copy"
  source_video_id = videohost_video.web.id
  clip            = { start_timecode = "00:00:01", end_timecode = %s }
  watermark       = { id = %s, top = "10px", left = "10px", opacity = %s }
}
`, thumbnail, hcl(clipEnd), hcl(mark), hcl(opacity))
	}
	const web, cp = "videohost_video.web", "videohost_video.copy"
	var webID, copyID, firstCopy, firstThumb string
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config("null", "00:00:05", "50%"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					idOf(web, &webID), idOf(cp, &copyID),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("source_sha256"), knownvalue.Null()),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(cp, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("assets").AtMapKey("thumbnail"), knownvalue.StringFunc(func(v string) error {
						firstThumb = v
						return nil
					})),
					onService(serviceClient(t, env).GetVideo, &webID, func(v videohost.Video) error {
						if v.Source == nil || v.Source.URI != "https://media.example.test/launch.mp4" {
							return fmt.Errorf("the service's source is %+v", v.Source)
						}
						return nil
					}),
				},
			},
			{
				// The thumbnail changes in place, and with it the thumbnail's address.
				Config: config(hcl("00:00:02.500"), "00:00:05", "50%"),
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
				Config:    config(hcl("00:00:02.500"), "00:00:06", "50%"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(web, plancheck.ResourceActionNoop),
						plancheck.ExpectResourceAction(cp, plancheck.ResourceActionDestroyBeforeCreate),
					},
				},
				ConfigStateChecks: []statecheck.StateCheck{idOf(cp, &copyID), serviceCheckFunc(func(ctx context.Context) error {
					if copyID == firstCopy {
						return fmt.Errorf("the copy %s was not replaced", copyID)
					}
					return nil
				})},
			},
			{
				// So does a new watermark position.
				PreConfig: func() { firstCopy = copyID },
				Config:    config(hcl("00:00:02.500"), "00:00:06", "80%"),
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
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	dir := t.TempDir()
	file, sum := writeRandomFile(t, dir, "clip.mp4", videoFileSize)
	c := serviceClient(t, env)
	v, err := c.CreateVideo(t.Context(), videohost.VideoCreate{Title: "Uploaded elsewhere"})
	if err != nil {
		t.Fatal(err)
	}
	f, src, err := openPlannedFile(file, sum)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.UploadVideoSource(t.Context(), v.ID, src, videohost.UploadOptions{ChunkSize: 5 << 20}); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	id := v.ID
	uploaded := env.Emu.UploadedBytes(id)
	config := func(path string) string {
		return videoConfig(env, "title", hcl("Uploaded elsewhere"), "source_file", hcl(path))
	}
	other, _ := writeRandomFile(t, dir, "other.mp4", videoFileSize+1)
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
					serviceCheckFunc(func(context.Context) error {
						if n := env.Emu.UploadedBytes(id); n != uploaded {
							return fmt.Errorf("%d bytes uploaded after the import, want none", n-uploaded)
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

// TestAccVideoCreateOutcomeUnknown: a create that the service stores but answers 500 is not
// sent again blindly: the video it stored is adopted, its source uploaded, and the service
// holds one video.
func TestAccVideoCreateOutcomeUnknown(t *testing.T) {
	env := newAccEnv(t, emulator.Options{Faults: emulator.Faults{CommitThen500Rate: 1}})
	env.requireEmulator(t)
	file, sum := writeRandomFile(t, t.TempDir(), "clip.mp4", 1<<20)
	var id string
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: videoConfig(env, "title", hcl("Stored, then 500"), "source_file", hcl(file), "tags", hclList("x")),
			ConfigStateChecks: []statecheck.StateCheck{
				idOf(testVideoAddr, &id),
				sourceOnService(env, &id, &sum),
				serviceCheckFunc(func(ctx context.Context) error {
					vs, err := serviceClient(t, env).ListVideos(ctx, videohost.VideoFilter{})
					if err != nil {
						return err
					}
					if len(vs) != 1 || vs[0].ID != id {
						return fmt.Errorf("the service holds %d videos, want only %s", len(vs), id)
					}
					if n := env.Emu.FaultCounts().CommitThen500; n == 0 {
						return fmt.Errorf("no create was stored and answered 500: the test did not test adoption")
					}
					return nil
				}),
			},
		}},
	})
}
