package provider

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// newWrappedAccEnv is newAccEnv with the emulator behind the handler that wrap builds, for a
// test that steers the requests (a fault at the second chunk, a file rewritten during its
// upload).
func newWrappedAccEnv(t *testing.T, opts emulator.Options, wrap func(*emulator.Emulator) http.Handler) *accEnv {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	parallel(t)
	emu, baseURL := serveEmulator(t, opts, wrap)
	return &accEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu}
}

// onSourceChunk calls fn before the emulator serves the n-th source chunk (from 1) while armed
// is set.
func onSourceChunk(n int64, armed *atomic.Bool, fn func(*emulator.Emulator)) func(*emulator.Emulator) http.Handler {
	return func(emu *emulator.Emulator) http.Handler {
		var seen atomic.Int64
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/source") && armed.Load() {
				if seen.Add(1) == n {
					fn(emu)
				}
			}
			emu.ServeHTTP(w, r)
		})
	}
}

// videoConfigWith is videoConfig with more provider attributes.
func videoConfigWith(env *accEnv, providerExtra string, attrs ...string) string {
	return env.providerConfig("upload_chunk_size_mib = 5\n"+providerExtra) +
		"resource \"videohost_video\" \"clip\" {\n" + hclAttrs(attrs...) + "}\n"
}

// cutFromSecondChunk is an emulator whose source chunks are cut from the second one on (its
// retries included) while armed: a network failure that outlasts the retries.
func cutFromSecondChunk(t *testing.T) (*accEnv, *atomic.Bool) {
	armed := &atomic.Bool{}
	armed.Store(true)
	env := newWrappedAccEnv(t, emulator.Options{}, onSourceChunk(2, armed, func(emu *emulator.Emulator) {
		emu.SetFaults(emulator.Faults{UploadCuts: 100})
	}))
	return env, armed
}

// incompleteStep applies a video whose upload fails at its second chunk: the apply succeeds
// with the video recorded and 7 of its 12 MiB missing, and the plan after it resumes.
func incompleteStep(env *accEnv, config string, id *string) resource.TestStep {
	return resource.TestStep{
		Config:             config,
		ExpectNonEmptyPlan: true,
		ConfigStateChecks: []statecheck.StateCheck{
			idOf(testVideoAddr, id),
			statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(videoFileSize-5<<20)),
			serviceCheckFunc(func(context.Context) error {
				if _, _, complete, ok := env.Emu.VideoSource(*id); !ok || complete {
					return fmt.Errorf("video %s: on the emulator %t, complete %t; want an incomplete source", *id, ok, complete)
				}
				return nil
			}),
		},
	}
}

// TestAccVideoUploadResumesAfterNetworkFailure: a network failure that outlasts the retries
// leaves the video recorded with what is missing and no error; the next plan is an in-place
// update that resumes, and its apply sends only the missing bytes.
func TestAccVideoUploadResumesAfterNetworkFailure(t *testing.T) {
	env, armed := cutFromSecondChunk(t)
	file, sum := writeRandomFile(t, t.TempDir(), "clip.mp4", videoFileSize)
	config := videoConfigWith(env, "max_retries = 1\nupload_chunks_in_flight = 1",
		"title", hcl("Resumed"), "source_file", hcl(file), "thumbnail_timecode", hcl("00:00:02"), "wait_for", hcl("playable"))
	var id string
	var before int64
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			incompleteStep(env, config, &id),
			{
				PreConfig: func() {
					armed.Store(false)
					env.Emu.SetFaults(emulator.Faults{})
					before = env.Emu.UploadedBytes(id)
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("id"), knownvalue.StringFunc(func(v string) error {
						if v != id {
							return fmt.Errorf("id %s, want %s: the video was replaced", v, id)
						}
						return nil
					})),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("source_bytes_missing"), knownvalue.Int64Exact(0)),
					statecheck.ExpectKnownValue(testVideoAddr, tfjsonpath.New("playable"), knownvalue.Bool(true)),
					sourceOnService(env, &id, &sum),
					serviceCheckFunc(func(context.Context) error {
						if sent := env.Emu.UploadedBytes(id) - before; sent != videoFileSize-5<<20 {
							return fmt.Errorf("the resumed upload sent %d bytes, want the %d missing", sent, videoFileSize-5<<20)
						}
						return nil
					}),
				},
			},
		},
	})
}

// TestAccVideoUploadIncompleteThenFileChanged: when the file changed after an incomplete
// upload, the plan replaces the video instead of resuming it.
func TestAccVideoUploadIncompleteThenFileChanged(t *testing.T) {
	env, armed := cutFromSecondChunk(t)
	dir := t.TempDir()
	file, sum := writeRandomFile(t, dir, "clip.mp4", videoFileSize)
	config := videoConfigWith(env, "max_retries = 1\nupload_chunks_in_flight = 1", "title", hcl("Changed"), "source_file", hcl(file))
	var id, first string
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			incompleteStep(env, config, &id),
			{
				PreConfig: func() {
					armed.Store(false)
					env.Emu.SetFaults(emulator.Faults{})
					first = id
					_, sum = writeRandomFile(t, dir, "clip.mp4", videoFileSize)
				},
				Config: config,
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
						if _, _, _, ok := env.Emu.VideoSource(first); ok {
							return fmt.Errorf("the incomplete video %s is still there", first)
						}
						return nil
					}),
				},
			},
		},
	})
}

// TestAccVideoFileChangedBetweenPlanAndApply: a file rewritten after the plan took its hash is
// refused by the apply before any video is made.
func TestAccVideoFileChangedBetweenPlanAndApply(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	dir := t.TempDir()
	file, _ := writeRandomFile(t, dir, "clip.mp4", 1<<20)
	config := videoConfig(env, "title", hcl("Changed before apply"), "source_file", hcl(file))
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{planCheckFunc(func(*tfjson.Plan) error {
					writeRandomFile(t, dir, "clip.mp4", 1<<20)
					return nil
				})}},
				// Terraform plans again before it applies, so the new hash reaches it first:
				// it refuses the apply as a plan that changed. The provider's own check (the
				// hash again in Create) covers a change after that plan.
				ExpectError: regexp.MustCompile(`(?s)(Source File Changed.*between the plan and the apply|\.source_sha256: was)`),
			},
			{
				PreConfig:          noRequestsTo(t, env, "/videos", "the changed file was refused before the create"),
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccVideoFileChangedDuringUpload: a file rewritten while it is uploaded is an error that
// says so, and the video (which may hold bytes of both versions) is replaced by the next apply.
// The rewrite starts when the second chunk reaches the service: the client, still reading that
// chunk, may find the file shorter (its own check stops the upload) or the same size with other
// bytes (the hash after the upload tells); both say the same to the user. A rewrite to half the
// size is always the first case.
func TestAccVideoFileChangedDuringUpload(t *testing.T) {
	for _, tc := range []struct {
		name    string
		newSize int
	}{
		{"same size", videoFileSize},
		{"shorter", videoFileSize / 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			armed := &atomic.Bool{}
			armed.Store(true)
			var file, sum string
			env := newWrappedAccEnv(t, emulator.Options{}, onSourceChunk(2, armed, func(*emulator.Emulator) {
				_, sum = writeRandomFile(t, dir, "clip.mp4", tc.newSize)
			}))
			file, _ = writeRandomFile(t, dir, "clip.mp4", videoFileSize)
			config := videoConfigWith(env, "upload_chunks_in_flight = 1", "title", hcl("Changed during upload"), "source_file", hcl(file))
			var id string
			accTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{
					{
						Config:      config,
						ExpectError: regexp.MustCompile(`(?s)Source File Changed During Upload.*changed\s+while\s+it\s+was\s+uploaded`),
					},
					{
						PreConfig: func() { armed.Store(false) },
						Config:    config,
						ConfigPlanChecks: resource.ConfigPlanChecks{
							PreApply: []plancheck.PlanCheck{
								plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionDestroyBeforeCreate),
							},
							PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
						},
						ConfigStateChecks: []statecheck.StateCheck{idOf(testVideoAddr, &id), sourceOnService(env, &id, &sum)},
					},
				},
			})
		})
	}
}
