package videochapter_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testChapterAddr = "videohost_video_chapter.test"

// TestAccVideoChapter_lifecycle: chapters are uploaded; a changed file is uploaded again in
// place and the service holds the new content; a new path to a file of the same content changes
// the state and sends nothing; chapters deleted outside Terraform are uploaded again; they
// import by videoId/language; a new language replaces them; destroy deletes them.
func TestAccVideoChapter_lifecycle(t *testing.T) {
	env, rec := acctest.NewTrackEnv(t)
	c := acctest.ServiceClient(t, env)
	videoID := acctest.NewTestVideo(t, env)
	dir := t.TempDir()
	file := acctest.TempFile(t, dir, "chapters.vtt", acctest.WebVTT("Opening"))
	second := acctest.WebVTT("Opening\n\n00:00:02.000 --> 00:00:04.000\nThe end")
	copyOfSecond := acctest.TempFile(t, dir, "copy.vtt", second)
	path := acctest.TrackPath(videoID, "chapters", "fr-BE")

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, err := c.GetChapter(context.Background(), videoID, "fr-BE"); !errors.Is(err, videohost.ErrNotFound) {
				return fmt.Errorf("chapters of %s after destroy: %v, want not found", videoID, err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: acctest.TrackConfig(env, "chapter", videoID, "fr-BE", file),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testChapterAddr, tfjsonpath.New("id"), knownvalue.StringExact(videoID+"/fr-BE")),
					statecheck.ExpectKnownValue(testChapterAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(acctest.WebVTT("Opening")))),
					statecheck.ExpectKnownValue(testChapterAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`/chapters/fr-BE\.vtt\?v=1$`))),
					acctest.HoldsUpload(env, rec, path, acctest.WebVTT("Opening"), 1),
				},
			},
			{
				PreConfig: func() { acctest.WriteFile(t, file, second) },
				Config:    acctest.TrackConfig(env, "chapter", videoID, "fr-BE", file),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testChapterAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testChapterAddr, tfjsonpath.New("source_sha256"), knownvalue.StringExact(acctest.Sha256Hex(second))),
					statecheck.ExpectKnownValue(testChapterAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`v=2$`))),
					acctest.HoldsUpload(env, rec, path, second, 2),
				},
			},
			{
				Config: acctest.TrackConfig(env, "chapter", videoID, "fr-BE", copyOfSecond),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testChapterAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(testChapterAddr, tfjsonpath.New("src"), knownvalue.StringRegexp(regexp.MustCompile(`v=2$`))),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(testChapterAddr, tfjsonpath.New("source_file"), knownvalue.StringExact(copyOfSecond)),
					acctest.HoldsUpload(env, rec, path, second, 2), // the same content is not sent again
				},
			},
			{
				// Deleted outside Terraform: the refresh drops it and the apply uploads it again.
				PreConfig: func() {
					if err := c.DeleteChapter(t.Context(), videoID, "fr-BE"); err != nil {
						t.Fatal(err)
					}
				},
				Config: acctest.TrackConfig(env, "chapter", videoID, "fr-BE", copyOfSecond),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testChapterAddr, plancheck.ResourceActionCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.HoldsUpload(env, rec, path, second, 3),
				},
			},
			{
				ResourceName:            testChapterAddr,
				ImportState:             true,
				ImportStateId:           videoID + "/fr-BE",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"source_file", "source_sha256"},
			},
			{
				// A change of language replaces the chapters.
				Config: acctest.TrackConfig(env, "chapter", videoID, "nl", copyOfSecond),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(testChapterAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.HoldsUpload(env, rec, acctest.TrackPath(videoID, "chapters", "nl"), second, 1),
					acctest.ServiceCheckFunc(func(ctx context.Context) error {
						if _, err := c.GetChapter(ctx, videoID, "fr-BE"); !errors.Is(err, videohost.ErrNotFound) {
							return fmt.Errorf("the replaced chapters fr-BE: %v, want not found", err)
						}
						return nil
					}),
				},
			},
		},
	})
}

// TestCaptionChapterIdentityAndListProtocol drives the identities, imports and list resources
// of captions and chapters through the provider's protocol server, as Terraform 1.12+
// (identity) and 1.14+ (terraform query) call them.
func TestCaptionChapterIdentityAndListProtocol(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	c := acctest.ServiceClient(t, &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
	v, err := c.CreateVideo(t.Context(), videohost.VideoCreate{Title: acctest.RunName(t, "listed")})
	if err != nil {
		t.Fatal(err)
	}
	upload := func(language string, send func(context.Context, string, string, videohost.UploadSource) error) {
		t.Helper()
		body := acctest.WebVTT(language)
		if err := send(t.Context(), v.ID, language, videohost.UploadSource{Name: language + ".vtt", Reader: strings.NewReader(body), Size: int64(len(body))}); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{"en", "fr", "ja"} {
		upload(l, func(ctx context.Context, id, l string, s videohost.UploadSource) error {
			_, err := c.UploadCaption(ctx, id, l, s)
			return err
		})
	}
	if _, err := c.SetCaptionDefault(t.Context(), v.ID, "fr", true); err != nil {
		t.Fatal(err)
	}
	upload("en", func(ctx context.Context, id, l string, s videohost.UploadSource) error {
		_, err := c.UploadChapter(ctx, id, l, s)
		return err
	})

	t.Run("import by identity", func(t *testing.T) {
		state, identity, diags := p.ImportResource("videohost_video_caption", "", map[string]tftypes.Value{
			"video_id": acctest.Str(v.ID), "language": acctest.Str("fr"),
		})
		acctest.RequireNoErrors(t, "ImportResourceState", diags)
		if acctest.StringOf(state["id"]) != v.ID+"/fr" || acctest.StringOf(identity["video_id"]) != v.ID || acctest.StringOf(identity["language"]) != "fr" {
			t.Errorf("import by identity: state id %q, identity %v", acctest.StringOf(state["id"]), identity)
		}
		state, identity, diags = p.ImportResource("videohost_video_chapter", v.ID+"/en", nil)
		acctest.RequireNoErrors(t, "ImportResourceState", diags)
		if acctest.StringOf(state["language"]) != "en" || acctest.StringOf(identity["video_id"]) != v.ID {
			t.Errorf("import by id: state %v, identity %v", state, identity)
		}
		newState, identity, diags := p.Read("videohost_video_caption", map[string]tftypes.Value{
			"id": acctest.Str(v.ID + "/fr"), "video_id": acctest.Str(v.ID), "language": acctest.Str("fr"),
		})
		acctest.RequireNoErrors(t, "ReadResource", diags)
		var def bool
		_ = newState["default"].As(&def)
		if !def || acctest.StringOf(newState["language_name"]) != "Français" || acctest.StringOf(identity["language"]) != "fr" {
			t.Errorf("read after import: %v, identity %v", newState, identity)
		}
	})

	t.Run("refused import ids", func(t *testing.T) {
		before := emu.RequestCount("", "/")
		// Each refusal says what is wrong with the id, in a sentence that reads as one.
		for id, want := range map[string]string{
			"no-slash": `"no-slash" has no slash.`, v.ID + "/en_US": `the language "en_US" is not a language tag: ` +
				`it must contain only letters and dashes; did you mean "en-US"?`,
			"../players/en": "the video id is not one the service gives: ", "/en": `"/en" has no video id before the slash.`,
			v.ID + "/": "has no language after the slash.", v.ID + "/english": `the language "english" is not a known ` +
				`language; did you mean "en"?`,
		} {
			_, _, diags := p.ImportResource("videohost_video_caption", id, nil)
			if text := acctest.DiagText(diags); !acctest.HasError(diags, "Invalid Import ID") || !strings.Contains(text, want) || strings.Contains(text, "id the id") {
				t.Errorf("import id %q: %s, want %q", id, text, want)
			}
		}
		if after := emu.RequestCount("", "/"); after != before {
			t.Errorf("%d requests for refused import ids", after-before)
		}
	})

	t.Run("list captions", func(t *testing.T) {
		results := p.List(acctest.ListQuery{TypeName: "videohost_video_caption", Config: map[string]tftypes.Value{"video_id": acctest.Str(v.ID)},
			IncludeResource: true, Limit: 100})
		if len(results) != 3 {
			t.Fatalf("%d captions listed, want 3", len(results))
		}
		names := map[string]string{}
		for _, r := range results {
			acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
			l := acctest.StringOf(r.Identity["language"])
			names[l] = r.DisplayName
			if acctest.StringOf(r.Identity["video_id"]) != v.ID || acctest.StringOf(r.Resource["id"]) != v.ID+"/"+l ||
				!r.Resource["source_file"].IsNull() || acctest.StringOf(r.Resource["src"]) == "" {
				t.Errorf("result %q: identity %v, resource %v", r.DisplayName, r.Identity, r.Resource)
			}
		}
		if names["fr"] != "fr (Français), default" || names["ja"] != "ja (日本語)" {
			t.Errorf("display names %v", names)
		}
	})

	t.Run("list chapters", func(t *testing.T) {
		results := p.List(acctest.ListQuery{TypeName: "videohost_video_chapter", Config: map[string]tftypes.Value{"video_id": acctest.Str(v.ID)}, Limit: 100})
		if len(results) != 1 || acctest.StringOf(results[0].Identity["language"]) != "en" || results[0].DisplayName != "en" {
			t.Fatalf("chapters listed: %+v", results)
		}
	})

	t.Run("list of a video that does not exist", func(t *testing.T) {
		results := p.List(acctest.ListQuery{TypeName: "videohost_video_caption", Config: map[string]tftypes.Value{"video_id": acctest.Str("vi0000000000000000000000")}, Limit: 100})
		if len(results) != 1 || !acctest.HasAnyError(results[0].Diagnostics) {
			t.Fatalf("want one error result, got %+v", results)
		}
	})
}
