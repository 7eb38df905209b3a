package provider

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testVideoAddr = "videohost_video.clip"

// videoFileSize is the size of the test sources: with chunks of 5 MiB, three chunks.
const videoFileSize = 12 << 20

// writeRandomFile writes n random bytes to a new file in dir and returns its path and the
// lowercase hex SHA-256 of its content.
func writeRandomFile(t *testing.T, dir, name string, n int) (string, string) {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return p, hex.EncodeToString(sum[:])
}

// videoConfig is the provider (chunks of 5 MiB) and videohost_video.clip with attrs.
func videoConfig(env *accEnv, attrs ...string) string {
	return env.providerConfig("upload_chunk_size_mib = 5") + "resource \"videohost_video\" \"clip\" {\n" + hclAttrs(attrs...) + "}\n"
}

// sourceOnService is a state check that the emulator holds a complete source of video *id
// whose SHA-256 is *sum.
func sourceOnService(env *accEnv, id, sum *string) statecheck.StateCheck {
	return serviceCheckFunc(func(_ context.Context) error {
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
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	dir := t.TempDir()
	file, sum := writeRandomFile(t, dir, "clip.mp4", videoFileSize)
	var id, firstID string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	patches := 0

	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		CheckDestroy:             goneFromService(serviceClient(t, env).GetVideo, &id),
		Steps: []resource.TestStep{
			{
				Config: videoConfig(env, "title", hcl("Launch"), "source_file", hcl(file), "tags", hclList("a", "b"),
					"metadata", `{ team = "video" }`, "wait_for", hcl("encoded")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionCreate),
						// Taken at plan time, not known after apply.
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(sum)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					idOf(testVideoAddr, &id),
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
				PreConfig: func() { patches = env.Emu.RequestCount("PATCH", "/videos/") },
				Config: videoConfig(env, "title", hcl("Launch, final"), "description", hcl("The launch."), "source_file", hcl(file),
					"tags", hclList("b", "c"), "metadata", `{ team = "video", year = "2026" }`, "panoramic", "true", "wait_for", hcl("encoded")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("id"), knownvalue.NotNull()),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("created_at"), knownvalue.NotNull()),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("assets").AtMapKey("hls"), knownvalue.NotNull()),
						plancheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					sameID.AddStateValue(testVideoAddr, tfjsonpath.New("id")),
					serviceCheckFunc(func(context.Context) error {
						if n := env.Emu.RequestCount("PATCH", "/videos/") - patches; n != 1 {
							return fmt.Errorf("%d PATCH requests for one in-place change, want 1", n)
						}
						return nil
					}),
					onService(serviceClient(t, env).GetVideo, &id, func(v videohost.Video) error {
						md := map[string]string{}
						for _, kv := range v.Metadata {
							md[kv.Key] = kv.Value
						}
						slices.Sort(v.Tags)
						if v.Title != "Launch, final" || v.Description != "The launch." || !v.Panoramic ||
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
					file, sum = writeRandomFile(t, dir, "clip.mp4", videoFileSize+1000)
				},
				Config: videoConfig(env, "title", hcl("Launch, final"), "description", hcl("The launch."), "source_file", hcl(file),
					"tags", hclList("b", "c"), "metadata", `{ team = "video", year = "2026" }`, "panoramic", "true", "wait_for", hcl("encoded")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionDestroyBeforeCreate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					idOf(testVideoAddr, &id),
					sourceOnService(env, &id, &sum),
					serviceCheckFunc(func(context.Context) error {
						if _, _, _, ok := env.Emu.VideoSource(firstID); ok || id == firstID {
							return fmt.Errorf("the first video %s is still there (new %s)", firstID, id)
						}
						return nil
					}),
				},
			},
		},
	})
}

var _ = regexp.MustCompile
