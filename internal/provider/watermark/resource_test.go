package watermark_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/provider/watermark"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testWatermarkAddr = "videohost_watermark.test"

// watermarkOnService is a state check that the watermark in the state is in the service's list
// with the state's creation time, that its source_sha256 is the file's, and keeps its id.
func watermarkOnService(t *testing.T, env *acctest.AccEnv, file string, id *string) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		r, err := acctest.StateResource(s, testWatermarkAddr)
		if err != nil {
			return err
		}
		*id = acctest.AttrString(r, "id")
		w, err := acctest.ServiceClient(t, env).LookupWatermark(context.Background(), *id)
		if err != nil {
			return fmt.Errorf("watermark %s: %w", *id, err)
		}
		if got, want := acctest.AttrString(r, "created_at"), framework.TimeString(w.CreatedAt).ValueString(); got != want {
			return fmt.Errorf("created_at %q, service %q", got, want)
		}
		if got, want := acctest.AttrString(r, "source_sha256"), acctest.FileSHA256(t, file); got != want {
			return fmt.Errorf("source_sha256 %q, file %q", got, want)
		}
		return nil
	})
}

func watermarkGone(t *testing.T, env *acctest.AccEnv, id *string) error {
	if _, err := acctest.ServiceClient(t, env).LookupWatermark(context.Background(), *id); !errors.Is(err, videohost.ErrNotFound) {
		return fmt.Errorf("watermark %s still listed (%v)", *id, err)
	}
	return nil
}

// TestAccWatermark uploads a PNG, imports it by id, moves the file (state only, no upload),
// changes its content (a replacement: the old watermark is deleted), sees it deleted outside
// Terraform (the next plan uploads it again), and destroys it.
func TestAccWatermark(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	first := acctest.WritePNG(t, dir, "mark.png", 64, 32, 1)
	moved := filepath.Join(dir, "moved-mark")
	var id1, id2, id3 string
	uploads := func() int { return env.RequestCount(http.MethodPost, "/watermarks") }
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy:             func(*terraform.State) error { return watermarkGone(t, env, &id3) },
		Steps: []resource.TestStep{
			{
				Config: watermarkConfig(env, first),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testWatermarkAddr, plancheck.ResourceActionCreate),
						// Taken at plan time, before any upload.
						plancheck.ExpectKnownValue(testWatermarkAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.FileSHA256(t, first))),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					watermarkOnService(t, env, first, &id1),
					statecheck.ExpectKnownValue(testWatermarkAddr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^watermark_[0-9A-Za-z]{22}$`))),
				},
			},
			{
				ResourceName:            testWatermarkAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"source_file", "source_sha256"},
			},
			{
				// The same bytes at another path: recorded in place, nothing uploaded.
				PreConfig: func() {
					b, err := os.ReadFile(first)
					if err != nil {
						t.Fatal(err)
					}
					acctest.WriteFile(t, moved, string(b))
				},
				Config: watermarkConfig(env, moved),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testWatermarkAddr, plancheck.ResourceActionUpdate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testWatermarkAddr, tfjsonpath.New("source_file"), knownvalue.StringExact(moved)),
					acctest.StateCheckFunc(func(*tfjson.State) error {
						if n := uploads(); n != 1 {
							return fmt.Errorf("%d uploads to /watermarks, want 1: a move of the file uploads nothing", n)
						}
						return nil
					}),
				},
			},
			{
				// New content at the same path: replaced.
				PreConfig: func() { acctest.WritePNG(t, dir, "moved-mark", 64, 32, 9) },
				Config:    watermarkConfig(env, moved),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testWatermarkAddr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					watermarkOnService(t, env, moved, &id2),
					acctest.StateCheckFunc(func(*tfjson.State) error {
						if id2 == id1 {
							return fmt.Errorf("a new image kept watermark %s", id1)
						}
						return watermarkGone(t, env, &id1)
					}),
				},
			},
			{
				PreConfig: func() {
					if err := acctest.ServiceClient(t, env).DeleteWatermark(context.Background(), id2); err != nil {
						t.Fatal(err)
					}
				},
				Config: watermarkConfig(env, moved),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testWatermarkAddr, plancheck.ResourceActionCreate)},
				},
				ConfigStateChecks: []statecheck.StateCheck{watermarkOnService(t, env, moved, &id3)},
			},
		},
	})
}

// TestAccWatermarkIdentity imports a watermark uploaded outside Terraform with an import
// block's identity. The service keeps nothing of the image, so the import plans to record the
// configuration's file (an update that sends nothing), and the plan after it is empty.
// Identity needs Terraform 1.12.
func TestAccWatermarkIdentity(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	file := acctest.WriteJPEG(t, t.TempDir(), "mark.jpg", 30, 30, 4)
	w, err := framework.UploadImage(t.Context(), file, "", watermark.WatermarkImage, acctest.ServiceClient(t, env).CreateWatermark)
	if err != nil {
		t.Fatal(err)
	}
	var id string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{{
			Config: watermarkConfig(env, file) + fmt.Sprintf(`
import {
  to       = videohost_watermark.test
  identity = { id = %s }
}
`, acctest.Hcl(w.ID)),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testWatermarkAddr, plancheck.ResourceActionUpdate),
					acctest.ExpectImporting(testWatermarkAddr),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectIdentity(testWatermarkAddr, map[string]knownvalue.Check{"id": knownvalue.StringExact(w.ID)}),
				statecheck.ExpectIdentityValueMatchesState(testWatermarkAddr, tfjsonpath.New("id")),
				watermarkOnService(t, env, file, &id),
				acctest.StateCheckFunc(func(*tfjson.State) error {
					if n := env.RequestCount(http.MethodPost, "/watermarks"); n != 1 {
						return fmt.Errorf("%d uploads, want only the one made outside Terraform", n)
					}
					return nil
				}),
			},
		}},
	})
}

// TestAccWatermarkBadFile: a file that is not a JPEG or PNG by content (whatever its name), or
// one whose header decodes but whose image does not (cut short, a damaged chunk), is an error on
// source_file at plan time, and nothing is uploaded.
func TestAccWatermarkBadFile(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	dir := t.TempDir()
	fake := filepath.Join(dir, "mark.png")
	acctest.WriteFile(t, fake, "WEBVTT\n\nnot an image\n")
	cut, badCRC, cutJPEG := acctest.DamagedImages(t, dir)
	broken := func(file string) resource.TestStep {
		return resource.TestStep{
			Config: watermarkConfig(env, file), PlanOnly: true,
			ExpectError: regexp.MustCompile(`(?s)Invalid Image File.*source_file.*does\s+not\s+decode\s+whole.*cut\s+short\s+or\s+damaged`),
		}
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config:      watermarkConfig(env, fake),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Invalid Image File.*source_file.*neither\s+a\s+JPEG\s+nor\s+a\s+PNG`),
		}, broken(cut), broken(badCRC), broken(cutJPEG)},
	})
	if n := env.RequestCount("", "/watermarks"); n != 0 {
		t.Errorf("%d requests to /watermarks for a refused file", n)
	}
}

// TestWatermarkIdentityAndList drives the identity and the list resource of
// videohost_watermark through the protocol: a state without identity gets one on read, the list
// yields every watermark with its identity, and include_resource gives the service's attributes.
func TestWatermarkIdentityAndList(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	c := acctest.ServiceClient(t, &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
	file := acctest.WritePNG(t, t.TempDir(), "m.png", 8, 8, 1)
	ids := map[string]bool{}
	for range 3 {
		w, err := framework.UploadImage(t.Context(), file, "", watermark.WatermarkImage, c.CreateWatermark)
		if err != nil {
			t.Fatal(err)
		}
		ids[w.ID] = true
	}
	var some string
	for id := range ids {
		some = id
	}
	state, identity, diags := p.Read("videohost_watermark", map[string]tftypes.Value{"id": acctest.Str(some), "source_file": acctest.Str(file)})
	acctest.RequireNoErrors(t, "ReadResource", diags)
	if acctest.StringOf(identity["id"]) != some || acctest.StringOf(state["created_at"]) == "" || acctest.StringOf(state["source_file"]) != file {
		t.Errorf("read: state %v, identity %v", state, identity)
	}
	results := p.List(acctest.ListQuery{TypeName: "videohost_watermark", IncludeResource: true, Limit: 100})
	if len(results) != len(ids) {
		t.Fatalf("%d results, want %d", len(results), len(ids))
	}
	for _, r := range results {
		acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
		id := acctest.StringOf(r.Identity["id"])
		if !ids[id] || acctest.StringOf(r.Resource["id"]) != id || acctest.StringOf(r.Resource["created_at"]) == "" || !r.Resource["source_file"].IsNull() {
			t.Errorf("result %q: identity %v, resource %v", r.DisplayName, r.Identity, r.Resource)
		}
	}
}

// TestAssetObjectsMatchReflection keeps the hand-built list elements of videohost_watermarks
// and videohost_upload_tokens equal to the framework's reflection of their models (see
// TestObjectsMatchReflection).
func TestAssetObjectsMatchReflection(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	expires := created.Add(time.Hour)
	for name, w := range map[string]videohost.Watermark{"full": {ID: "watermark_1", CreatedAt: &created}, "bare": {ID: "watermark_2"}} {
		t.Run("watermark "+name, func(t *testing.T) {
			m := watermark.WatermarkDataModelFrom(w)
			got, diags := m.Object()
			acctest.RequireSameObject(t, watermark.WatermarkObjectType, m, got, diags)
		})
	}
	for name, tok := range map[string]videohost.UploadToken{
		"expiring": {Token: "to1", TTL: 3600, CreatedAt: &created, ExpiresAt: &expires},
		"forever":  {Token: "to2", CreatedAt: &created},
	} {
		t.Run("upload token "+name, func(t *testing.T) {
			m := uploadtoken.UploadTokenModelFrom(tok)
			got, diags := m.Object()
			acctest.RequireSameObject(t, uploadtoken.UploadTokenObjectType, m, got, diags)
		})
	}
}
