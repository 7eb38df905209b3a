package video_test

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// labelsVideo is videohost_video.name from a URL with extra attributes, titled labelsTitle.
func labelsVideo(env *acctest.AccEnv, name string, attrs ...string) string {
	return fmt.Sprintf("resource \"videohost_video\" %q {\n", name) + acctest.HclAttrs(append([]string{
		"title", acctest.Hcl(labelsTitle(env, name)), "source_url", acctest.Hcl("https://media.example.test/" + name + ".mp4"),
	}, attrs...)...) + "}\n"
}

// labelsTitle is the title of labelsVideo's video name: the run's prefix and the test's name.
func labelsTitle(env *acctest.AccEnv, name string) string {
	return env.Name("labels-" + name)
}

// strSet is a knownvalue check of a set of strings.
func strSet(values ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, 0, len(values))
	for _, v := range values {
		checks = append(checks, knownvalue.StringExact(v))
	}
	return knownvalue.SetExact(checks)
}

// strMap is a knownvalue check of a map of strings, from key, value pairs.
func strMap(kv ...string) knownvalue.Check {
	checks := map[string]knownvalue.Check{}
	for i := 0; i+1 < len(kv); i += 2 {
		checks[kv[i]] = knownvalue.StringExact(kv[i+1])
	}
	return knownvalue.MapExact(checks)
}

// heldLabels checks that the service holds exactly tags and the metadata pairs kv on video *id.
func heldLabels(t *testing.T, env *acctest.AccEnv, id *string, tags []string, kv ...string) statecheck.StateCheck {
	return acctest.OnService(acctest.ServiceClient(t, env).GetVideo, id, func(v videohost.Video) error {
		got := slices.Sorted(slices.Values(v.Tags))
		want := slices.Sorted(slices.Values(tags))
		md := map[string]string{}
		for _, p := range v.Metadata {
			md[p.Key] = p.Value
		}
		wantMD := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			wantMD[kv[i]] = kv[i+1]
		}
		if !slices.Equal(got, want) || fmt.Sprint(md) != fmt.Sprint(wantMD) {
			return fmt.Errorf("video %s holds tags %q and metadata %v; want %q and %v", *id, got, md, want, wantMD)
		}
		return nil
	})
}

// patchesEach checks that the step sent exactly n PATCH requests of videos since *before.
func patchesEach(env *acctest.AccEnv, before *int, n int) statecheck.StateCheck {
	return acctest.ServiceCheckFunc(func(context.Context) error {
		if got := env.RequestCount("PATCH", "/videos/") - *before; got != n {
			return fmt.Errorf("%d PATCH requests of videos, want %d (one per video)", got, n)
		}
		return nil
	})
}

// TestAccVideoDefaultLabels: the provider's default_tags and default_metadata reach every video
// with one apply and an empty plan after it; a default equal to a video's own value (the tag
// team-video on a, the pair env = "prod" on b) is one value with no diff; a video's own value
// wins for a key in both; a default changed updates every video in place with one PATCH each; a
// default removed leaves every video except where the video sets it itself; an import of a
// video that carries the defaults has no diff.
func TestAccVideoDefaultLabels(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var a, b string
	var patches int
	config := func(provider string) string {
		return env.ProviderConfig(provider) +
			labelsVideo(env, "a", "tags", acctest.HclList("launch", "team-video"), "metadata", `{ env = "staging", owner = "ann" }`) +
			labelsVideo(env, "b", "metadata", `{ env = "prod" }`)
	}
	const addrA, addrB = "videohost_video.a", "videohost_video.b"
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config(`
  default_tags     = ["team-video", "cost-42"]
  default_metadata = { team = "video", env = "prod" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectKnownValue(addrA, tfjsonpath.New("tags_all"), strSet("cost-42", "launch", "team-video")),
						plancheck.ExpectKnownValue(addrA, tfjsonpath.New("metadata_all"), strMap("env", "staging", "owner", "ann", "team", "video")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(addrA, &a), acctest.IdOf(addrB, &b),
					statecheck.ExpectKnownValue(addrA, tfjsonpath.New("tags"), strSet("launch", "team-video")),
					statecheck.ExpectKnownValue(addrA, tfjsonpath.New("metadata"), strMap("env", "staging", "owner", "ann")),
					statecheck.ExpectKnownValue(addrB, tfjsonpath.New("tags"), strSet()),
					statecheck.ExpectKnownValue(addrB, tfjsonpath.New("tags_all"), strSet("cost-42", "team-video")),
					statecheck.ExpectKnownValue(addrB, tfjsonpath.New("metadata_all"), strMap("env", "prod", "team", "video")),
					heldLabels(t, env, &a, []string{"cost-42", "launch", "team-video"}, "env", "staging", "owner", "ann", "team", "video"),
					heldLabels(t, env, &b, []string{"cost-42", "team-video"}, "env", "prod", "team", "video"),
				},
			},
			{
				// A default changed: both videos updated in place, one PATCH each.
				PreConfig: func() { patches = env.RequestCount("PATCH", "/videos/") },
				Config: config(`
  default_tags     = ["team-video", "cost-43"]
  default_metadata = { team = "media", env = "prod" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addrA, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(addrB, plancheck.ResourceActionUpdate),
						plancheck.ExpectKnownValue(addrB, tfjsonpath.New("tags_all"), strSet("cost-43", "team-video")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					patchesEach(env, &patches, 2),
					heldLabels(t, env, &a, []string{"cost-43", "launch", "team-video"}, "env", "staging", "owner", "ann", "team", "media"),
					heldLabels(t, env, &b, []string{"cost-43", "team-video"}, "env", "prod", "team", "media"),
				},
			},
			{
				// team-video and default_metadata removed: gone from b, kept on a (its own tag), and
				// b keeps env = "prod", which it sets itself.
				PreConfig: func() { patches = env.RequestCount("PATCH", "/videos/") },
				Config:    config(`default_tags = ["cost-43"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(addrA, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction(addrB, plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					patchesEach(env, &patches, 2),
					heldLabels(t, env, &a, []string{"cost-43", "launch", "team-video"}, "env", "staging", "owner", "ann"),
					heldLabels(t, env, &b, []string{"cost-43"}, "env", "prod"),
					statecheck.ExpectKnownValue(addrB, tfjsonpath.New("metadata"), strMap("env", "prod")),
				},
			},
			{
				// The service goes on ingesting and encoding the videos after the applies (wait_for
				// is uploaded): once it has finished, a refresh records what it filled in (the
				// language, playable), so that the import below reads what the state holds rather
				// than racing the encoding.
				PreConfig: func() {
					for _, id := range []string{a, b} {
						awaitEncoded(t, acctest.ServiceClient(t, env), id)
					}
				},
				Config: config(`default_tags = ["cost-43"]`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addrA, tfjsonpath.New("playable"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addrA, tfjsonpath.New("language"), knownvalue.NotNull()),
				},
			},
			{
				ResourceName: addrA, ImportState: true, ImportStateVerify: true,
				ImportStateVerifyIgnore: []string{"wait_for", "timeouts"},
			},
		},
	})
}

// TestAccVideoDefaultImport: a video made outside Terraform that carries the provider's defaults
// besides its own values is imported with no change planned and an empty plan after.
func TestAccVideoDefaultImport(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	id := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: labelsTitle(env, "a"), Source: "https://media.example.test/a.mp4",
		Tags: []string{"launch", "team-video"}, Metadata: []videohost.Metadata{{Key: "owner", Value: "ann"}, {Key: "team", Value: "video"}}})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.ProviderConfig(`
  default_tags     = ["team-video"]
  default_metadata = { team = "video" }`) + fmt.Sprintf("import {\n  to = videohost_video.a\n  id = %q\n}\n", id) +
				labelsVideo(env, "a", "tags", acctest.HclList("launch"), "metadata", `{ owner = "ann" }`),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{
					acctest.ExpectImporting("videohost_video.a"),
					plancheck.ExpectResourceAction("videohost_video.a", plancheck.ResourceActionNoop),
				},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("tags"), strSet("launch")),
				statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("tags_all"), strSet("launch", "team-video")),
				statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("metadata"), strMap("owner", "ann")),
			},
		}},
	})
}

// TestAccVideoDefaultIgnore: tags and metadata keys that the dashboard or an ingest pipeline set
// (matched by ignore_tags and ignore_metadata_keys, by name and by prefix) are never shown as
// drift, and an update of the video's own values does not remove them.
func TestAccVideoDefaultIgnore(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var id string
	provider := `
  default_tags         = ["team-video"]
  ignore_tags          = { tags = ["featured"], prefixes = ["dash:"] }
  ignore_metadata_keys = { keys = ["ingest_job"], prefixes = ["x-"] }`
	config := func(tags string) string {
		return env.ProviderConfig(provider) + labelsVideo(env, "a", "tags", tags, "metadata", `{ owner = "ann" }`)
	}
	others := []string{"dash:blue", "featured"}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(acctest.HclList("launch")), ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf("videohost_video.a", &id)}},
			{
				// The dashboard adds its own tags and pairs: no drift.
				PreConfig: func() {
					_, err := acctest.ServiceClient(t, env).UpdateVideo(t.Context(), id, videohost.VideoUpdate{
						Tags: videohost.Value(append([]string{"launch", "team-video"}, others...)),
						Metadata: videohost.Value([]videohost.Metadata{{Key: "ingest_job", Value: "42"}, {Key: "owner", Value: "ann"},
							{Key: "x-source", Value: "cam"}}),
					})
					if err != nil {
						t.Fatal(err)
					}
				},
				Config:   config(acctest.HclList("launch")),
				PlanOnly: true,
			},
			{
				// An update of the video's own tags keeps what the others set.
				Config: config(acctest.HclList("launch", "final")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction("videohost_video.a", plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("tags_all"), strSet("final", "launch", "team-video")),
					statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("metadata_all"), strMap("owner", "ann")),
					heldLabels(t, env, &id, append([]string{"final", "launch", "team-video"}, others...),
						"ingest_job", "42", "owner", "ann", "x-source", "cam"),
				},
			},
		},
	})
}

// TestAccVideoDefaultUnknown: a video's own tag unknown at plan, then a provider default unknown
// at plan (from a resource that the same apply replaces): both work, with tags_all and
// metadata_all unknown in the plan, the video updated in place, and known after the apply.
func TestAccVideoDefaultUnknown(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var id string
	config := func(team string) string {
		return fmt.Sprintf(`
resource "terraform_data" "team" {
  input = %q
}

resource "terraform_data" "own" {
  input = "launch"
}
`, team) + env.ProviderConfig(`
  default_tags     = [terraform_data.team.output]
  default_metadata = { team = terraform_data.team.output }`) +
			labelsVideo(env, "a", "tags", "[terraform_data.own.output]")
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config("team-a"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectUnknownValue("videohost_video.a", tfjsonpath.New("tags_all")),
						plancheck.ExpectUnknownValue("videohost_video.a", tfjsonpath.New("metadata_all")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf("videohost_video.a", &id),
					statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("tags_all"), strSet("launch", "team-a")),
					heldLabels(t, env, &id, []string{"launch", "team-a"}, "team", "team-a"),
				},
			},
			{
				Config: config("team-b"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("videohost_video.a", plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue("videohost_video.a", tfjsonpath.New("tags_all")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("tags"), strSet("launch")),
					statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("metadata_all"), strMap("team", "team-b")),
					heldLabels(t, env, &id, []string{"launch", "team-b"}, "team", "team-b"),
				},
			},
		},
	})
}

// TestAccVideoDefaultDataSources: the data sources show what the service holds, defaults
// included, and the videos data source filters on a default as on any tag. The default tag
// carries the run's prefix and the test's name, so that the videos that carry it are the test's
// own even in a workspace that other tests and runs share; a video made outside Terraform
// without it must not be listed.
func TestAccVideoDefaultDataSources(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	team := env.Name("team")
	acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: env.Name("not-the-team-s"), Source: "https://media.example.test/x.mp4"})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.ProviderConfig("default_tags = "+acctest.HclList(team)) + labelsVideo(env, "a", "tags", acctest.HclList("launch")) + fmt.Sprintf(`
data "videohost_videos" "team" {
  tags       = [%s]
  depends_on = [videohost_video.a]
}

data "videohost_video" "a" {
  id = videohost_video.a.id
}
`, acctest.Hcl(team)),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.videohost_videos.team", tfjsonpath.New("videos"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"title": knownvalue.StringExact(labelsTitle(env, "a"))}),
				})),
				statecheck.ExpectKnownValue("data.videohost_video.a", tfjsonpath.New("tags"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("launch"), knownvalue.StringExact(team)})),
			},
		}},
	})
}

// TestAccVideoDefaultBadInput: a default that is not a valid tag or metadata key, defaults that
// take a video past the service's bounds (naming both counts), and an ignore rule that hides a
// default are errors at plan, each on the attribute it came from.
func TestAccVideoDefaultBadInput(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	many := func(prefix string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%03d", prefix, i)
		}
		return out
	}
	pairs := func(prefix string, n int) string {
		var b strings.Builder
		for _, k := range many(prefix, n) {
			fmt.Fprintf(&b, "%q = \"v\"\n", k)
		}
		return "{\n" + b.String() + "}"
	}
	video := labelsVideo(env, "a")
	var steps []resource.TestStep
	for _, tc := range []struct{ provider, video, want string }{
		{`default_tags = [""]`, video, `(?s)Invalid Tag.*default_tags`},
		{`default_metadata = { "" = "x" }`, video, `(?s)Empty Metadata Key.*default_metadata`},
		{`default_tags = ` + acctest.HclList(many("d", 150)...), labelsVideo(env, "a", "tags", acctest.HclList(many("v", 60)...)),
			`(?s)Too Many Tags.*default_tags\s+hold\s+150\s+tags\s+and\s+this\s+video's\s+tags\s+60:\s+210`},
		{`default_metadata = ` + pairs("d", 60), labelsVideo(env, "a", "metadata", pairs("v", 50)),
			`(?s)Too Many Metadata Pairs.*default_metadata\s+holds\s+60\s+pairs\s+and\s+this\s+video's\s+metadata\s+50`},
		{"default_tags = [\"dash:x\"]\nignore_tags = { prefixes = [\"dash:\"] }", video, `(?s)Ignore Rule Hides a Default.*ignore_tags`},
		{"default_metadata = { team = \"a\" }\nignore_metadata_keys = { keys = [\"team\"] }", video,
			`(?s)Ignore Rule Hides a Default.*ignore_metadata_keys`},
	} {
		steps = append(steps, resource.TestStep{
			Config: env.ProviderConfig(tc.provider) + tc.video, PlanOnly: true, ExpectError: regexp.MustCompile(tc.want),
		})
	}
	acctest.AccTest(t, resource.TestCase{ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories, Steps: steps})
	if n := env.RequestCount("POST", "/videos"); n != 0 {
		t.Errorf("%d videos created by plans that must fail", n)
	}
}

// TestVideoDefaultListProtocol: terraform query's videohost_video filters on a default as on any
// tag, and its results are unaffected by the defaults: what the service holds, as tags and
// tags_all alike.
func TestVideoDefaultListProtocol(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], map[string]tftypes.Value{
		"default_tags": tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{acctest.Str("team-video")}),
	})
	c := acctest.ServiceClient(t, &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
	for _, in := range []videohost.VideoCreate{
		{Title: "team's", Tags: []string{"launch", "team-video"}, Source: "https://media.example.test/a.mp4"},
		{Title: "other", Tags: []string{"launch"}, Source: "https://media.example.test/b.mp4"},
	} {
		if _, err := c.CreateVideo(t.Context(), in); err != nil {
			t.Fatal(err)
		}
	}
	found := p.List(acctest.ListQuery{TypeName: "videohost_video", IncludeResource: true, Limit: 100, Config: map[string]tftypes.Value{
		"tags": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.Str("team-video")}),
	}})
	if len(found) != 1 || found[0].DisplayName != "team's" {
		t.Fatalf("the filter on the default found %d videos: %+v", len(found), found)
	}
	acctest.RequireNoErrors(t, "ListResource", found[0].Diagnostics)
	for _, name := range []string{"tags", "tags_all"} {
		var elems []tftypes.Value
		if err := found[0].Resource[name].As(&elems); err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range elems {
			got = append(got, acctest.StringOf(e))
		}
		if slices.Sort(got); !slices.Equal(got, []string{"launch", "team-video"}) {
			t.Errorf("the listed video's %s are %q, want what the service holds", name, got)
		}
	}
}

// TestAccVideoDefaultNone: a video with no tags and no metadata, under a provider with no
// defaults, plans tags_all and metadata_all as empty (never null), and applies as planned.
func TestAccVideoDefaultNone(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.ProviderConfig("") + labelsVideo(env, "a"),
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply:             []plancheck.PlanCheck{plancheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("tags_all"), strSet())},
				PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("videohost_video.a", tfjsonpath.New("metadata_all"), strMap()),
			},
		}},
	})
}
