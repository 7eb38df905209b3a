package livestream_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/livestream"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestLiveStreamErrorsOnTheirAttribute(t *testing.T) {
	for name, tc := range map[string]struct {
		err  *videohost.Error
		want path.Path
	}{
		"a restream's address": {
			&videohost.Error{Status: 400, Title: "An attribute is invalid.", Name: "restreams[2][serverUrl]",
				Detail: "Missing app name: [rtmp|rtmps]://[host]/[app name]."},
			path.Root("restreams").AtListIndex(2).AtName("server_url"),
		},
		"a restream's name": {
			&videohost.Error{Status: 400, Title: "An attribute is invalid.", Name: "restreams[0][name]", Detail: "This value should not be blank."},
			path.Root("restreams").AtListIndex(0).AtName("name"),
		},
		"too many restreams": {
			&videohost.Error{Status: 400, Title: "An attribute is invalid.", Name: "restreams",
				Detail: "This collection should contain 5 elements or less."},
			path.Root("restreams"),
		},
		"the name": {
			&videohost.Error{Status: 400, Title: "This attribute is required.", Name: "name"},
			path.Root("name"),
		},
		"the live stream itself": {
			&videohost.Error{Status: 404, Title: "The requested resource could not be found.", Name: "liveStreamId"},
			path.Root("id"),
		},
		"a player theme that does not exist": {
			&videohost.Error{Status: 404, Title: "The requested resource could not be found.", Name: "playerId"},
			path.Root("player_id"),
		},
	} {
		t.Run(name, func(t *testing.T) {
			var diags diag.Diagnostics
			framework.AddAPIErrorDiagnostics(&diags, "Unable to Update Live Stream", tc.err, acctest.TestProviderData(), livestream.LiveStreamAttributePaths)
			if len(diags) != 1 {
				t.Fatalf("diagnostics %v", diags)
			}
			d, ok := diags[0].(diag.DiagnosticWithPath)
			if !ok || !d.Path().Equal(tc.want) {
				t.Fatalf("diagnostic %v is not on %s", diags[0], tc.want)
			}
		})
	}
}

func restream(name, url, key string, woVersion int64) livestream.RestreamResourceModel {
	r := livestream.RestreamResourceModel{Name: types.StringValue(name), ServerURL: types.StringValue(url),
		StreamKey: types.StringNull(), StreamKeyWO: types.StringNull(), StreamKeyWOVersion: types.Int64Null()}
	if woVersion == 0 {
		r.StreamKey = types.StringValue(key)
	} else {
		r.StreamKeyWOVersion = types.Int64Value(woVersion)
	}
	return r
}

func TestRestreamsToSendTakesWriteOnlyKeysFromTheConfig(t *testing.T) {
	planned := []livestream.RestreamResourceModel{restream("a", "rtmp://h/a", "key-a", 0), restream("b", "rtmp://h/b", "", 3)}
	configured := []livestream.RestreamResourceModel{planned[0], planned[1]}
	configured[1].StreamKeyWO = types.StringValue("key-b-wo")
	got := livestream.RestreamsToSend(planned, configured)
	want := []videohost.Restream{{Name: "a", ServerURL: "rtmp://h/a", StreamKey: "key-a"}, {Name: "b", ServerURL: "rtmp://h/b", StreamKey: "key-b-wo"}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("sent %+v, want %+v", got, want)
	}
}

func TestLiveStreamStateKeepsNoWriteOnlyKey(t *testing.T) {
	ls := videohost.LiveStream{
		ID: "li1", Name: "studio", StreamKey: "ingest-key", Public: true,
		Restreams: []videohost.Restream{{Name: "a", ServerURL: "rtmp://h/a", StreamKey: "key-a"}, {Name: "b", ServerURL: "rtmp://h/b", StreamKey: "key-b"}},
	}
	prior := []livestream.RestreamResourceModel{restream("a", "rtmp://h/a", "old-key-a", 0), restream("b", "rtmp://h/b", "", 7)}
	m, diags := livestream.LiveStreamResourceModelFrom(t.Context(), ls, prior, true)
	if diags.HasError() {
		t.Fatal(diags)
	}
	got, diags := livestream.RestreamsOf(t.Context(), m.Restreams)
	if diags.HasError() || len(got) != 2 {
		t.Fatalf("restreams %v %v", got, diags)
	}
	if got[0].StreamKey.ValueString() != "key-a" {
		t.Errorf("a key kept in the state is %v, want the service's (a change outside Terraform shows)", got[0].StreamKey)
	}
	if !got[1].StreamKey.IsNull() || !got[1].StreamKeyWO.IsNull() || got[1].StreamKeyWOVersion.ValueInt64() != 7 {
		t.Errorf("a write-only restream is %+v, want no key and version 7", got[1])
	}
	if !m.PlayerID.IsNull() || m.StreamKey.ValueString() != "ingest-key" {
		t.Errorf("model %+v", m)
	}

	// No restreams: null unless the configuration wrote a list.
	ls.Restreams = []videohost.Restream{}
	if m, _ := livestream.LiveStreamResourceModelFrom(t.Context(), ls, nil, false); !m.Restreams.IsNull() {
		t.Errorf("no restreams and none configured: %v, want null", m.Restreams)
	}
	if m, _ := livestream.LiveStreamResourceModelFrom(t.Context(), ls, nil, true); m.Restreams.IsNull() || len(m.Restreams.Elements()) != 0 {
		t.Errorf("no restreams and an empty list configured: %v, want an empty list", m.Restreams)
	}
}

func TestLiveStreamHolds(t *testing.T) {
	f := false
	in := videohost.CreateLiveStreamInput{Name: "s", Public: &f, PlayerID: "pt1",
		Restreams: []videohost.Restream{{Name: "a", ServerURL: "rtmp://h/a", StreamKey: "k"}}}
	l := videohost.LiveStream{Name: "s", Public: false, PlayerID: "pt1", Restreams: in.Restreams}
	if !livestream.LiveStreamHolds(l, in) {
		t.Error("the live stream with the values sent does not match")
	}
	l.Restreams = []videohost.Restream{{Name: "a", ServerURL: "rtmp://h/a", StreamKey: "other"}}
	if livestream.LiveStreamHolds(l, in) {
		t.Error("a live stream with another restream key matches")
	}
	if !livestream.LiveStreamHolds(videohost.LiveStream{Name: "s", Public: true, Restreams: []videohost.Restream{}}, videohost.CreateLiveStreamInput{Name: "s"}) {
		t.Error("a live stream with the defaults does not match a create of only its name")
	}
	if livestream.LiveStreamHolds(videohost.LiveStream{Name: "s2", Public: true}, videohost.CreateLiveStreamInput{Name: "s"}) {
		t.Error("a live stream whose name only contains the name matches")
	}
}

// TestAccLiveStreamResource creates a live stream, changes each attribute in place (the id and
// the stream key stay), attaches a theme in the same run that creates it, imports it, puts back
// a change made outside Terraform, and survives the theme's deletion outside Terraform.
func TestAccLiveStreamResource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var id, themeID string
	sameID := statecheck.CompareValue(compare.ValuesSame())
	sameKey := statecheck.CompareValue(compare.ValuesSame())
	stable := func() []statecheck.StateCheck {
		return []statecheck.StateCheck{
			sameID.AddStateValue(testStreamAddr, tfjsonpath.New("id")),
			sameKey.AddStateValue(testStreamAddr, tfjsonpath.New("stream_key")),
		}
	}
	inPlace := resource.ConfigPlanChecks{
		PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testStreamAddr, plancheck.ResourceActionUpdate)},
		PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
	}
	two := restreamsHCL("YouTube", "rtmp://a.rtmp.youtube.com/live2", "yt-key-1", "Twitch", "rtmps://live.twitch.tv/app", "tw-key-1")
	changed := restreamsHCL("Twitch", "rtmps://live.twitch.tv/app2", "tw-key-2")

	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: streamConfig(env, false, "name", acctest.Hcl(env.Name("studio"))),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testStreamAddr, plancheck.ResourceActionCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(stable(),
					acctest.IdOf(testStreamAddr, &id),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("public"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("player_id"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("restreams"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("stream_key"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f-]{36}$`))),
					statecheck.ExpectSensitiveValue(testStreamAddr, tfjsonpath.New("stream_key")),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("assets").AtMapKey("hls"), knownvalue.StringRegexp(regexp.MustCompile(`\.m3u8$`))),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
				),
			},
			{
				// name, public, player_id (of a theme created in the same run) and restreams.
				Config: streamConfig(env, true, "name", acctest.Hcl(env.Name("studio-2")), "public", "false",
					"player_id", "videohost_player_theme.brand.id", "restreams", two),
				ConfigPlanChecks: inPlace,
				ConfigStateChecks: append(stable(),
					acctest.IdOf("videohost_player_theme.brand", &themeID),
					statecheck.CompareValuePairs(testStreamAddr, tfjsonpath.New("player_id"), "videohost_player_theme.brand", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("restreams").AtSliceIndex(1).AtMapKey("server_url"), knownvalue.StringExact("rtmps://live.twitch.tv/app")),
					statecheck.ExpectSensitiveValue(testStreamAddr, tfjsonpath.New("restreams").AtSliceIndex(0).AtMapKey("stream_key")),
					acctest.OnService(acctest.ServiceClient(t, env).GetLiveStream, &id, func(l videohost.LiveStream) error {
						if l.Name != env.Name("studio-2") || l.Public || l.PlayerID != themeID || len(l.Restreams) != 2 || l.Restreams[0].StreamKey != "yt-key-1" {
							return fmt.Errorf("the service's live stream is %+v", l)
						}
						return nil
					}),
				),
			},
			{
				ResourceName:      testStreamAddr,
				ImportState:       true,
				ImportStateVerify: true,
			},
			{
				// One restream gone, another changed (removing player_id is a replacement, tested
				// by TestAccLiveStreamPlayerRemovedReplaces).
				Config: streamConfig(env, true, "name", acctest.Hcl(env.Name("studio-2")), "public", "false",
					"player_id", "videohost_player_theme.brand.id", "restreams", changed),
				ConfigPlanChecks: inPlace,
				ConfigStateChecks: append(stable(),
					acctest.OnService(acctest.ServiceClient(t, env).GetLiveStream, &id, func(l videohost.LiveStream) error {
						if l.PlayerID != themeID || len(l.Restreams) != 1 || l.Restreams[0] != (videohost.Restream{Name: "Twitch", ServerURL: "rtmps://live.twitch.tv/app2", StreamKey: "tw-key-2"}) {
							return fmt.Errorf("the service's live stream is %+v", l)
						}
						return nil
					}),
				),
			},
			{
				// A change made outside Terraform (name, visibility, a restream key) shows as drift
				// and is put back.
				PreConfig: func() {
					if _, err := acctest.ServiceClient(t, env).UpdateLiveStream(t.Context(), id, videohost.UpdateLiveStreamInput{
						Name: videohost.Value(env.Name("renamed")), Public: videohost.Value(true),
						Restreams: videohost.Value([]videohost.Restream{{Name: "Twitch", ServerURL: "rtmps://live.twitch.tv/app2", StreamKey: "changed"}}),
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config: streamConfig(env, true, "name", acctest.Hcl(env.Name("studio-2")), "public", "false",
					"player_id", "videohost_player_theme.brand.id", "restreams", changed),
				ConfigPlanChecks: inPlace,
				ConfigStateChecks: append(stable(),
					acctest.OnService(acctest.ServiceClient(t, env).GetLiveStream, &id, func(l videohost.LiveStream) error {
						if l.Name != env.Name("studio-2") || l.Public || len(l.Restreams) != 1 || l.Restreams[0].StreamKey != "tw-key-2" {
							return fmt.Errorf("the change made outside Terraform was not put back: %+v", l)
						}
						return nil
					}),
				),
			},
			{
				// Restreams removed, the theme kept.
				Config: streamConfig(env, true, "name", acctest.Hcl(env.Name("studio-2")), "public", "false",
					"player_id", "videohost_player_theme.brand.id"),
				ConfigPlanChecks: inPlace,
				ConfigStateChecks: append(stable(),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("restreams"), knownvalue.Null()),
					acctest.OnService(acctest.ServiceClient(t, env).GetLiveStream, &id, func(l videohost.LiveStream) error {
						if len(l.Restreams) != 0 || l.PlayerID != themeID {
							return fmt.Errorf("the service's live stream is %+v", l)
						}
						return nil
					}),
				),
			},
			{
				// The theme deleted outside Terraform: both objects show it, and one apply
				// makes a new theme and attaches it.
				PreConfig: func() {
					if err := acctest.ServiceClient(t, env).DeletePlayerTheme(t.Context(), themeID); err != nil {
						t.Fatalf("deleting theme %s outside Terraform: %v", themeID, err)
					}
				},
				Config: streamConfig(env, true, "name", acctest.Hcl(env.Name("studio-2")), "public", "false",
					"player_id", "videohost_player_theme.brand.id"),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction("videohost_player_theme.brand", plancheck.ResourceActionCreate),
						plancheck.ExpectResourceAction(testStreamAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectUnknownValue(testStreamAddr, tfjsonpath.New("player_id")),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: append(stable(),
					statecheck.CompareValuePairs(testStreamAddr, tfjsonpath.New("player_id"), "videohost_player_theme.brand", tfjsonpath.New("id"), compare.ValuesSame()),
				),
			},
		},
		CheckDestroy: acctest.GoneFromService(acctest.ServiceClient(t, env).GetLiveStream, &id),
	})
}

// writeOnlyRestream is a restream whose key is write-only, with its version.
func writeOnlyRestream(key string, version int) string {
	return fmt.Sprintf(`[
    { name = "YouTube", server_url = "rtmp://a.rtmp.youtube.com/live2", stream_key_wo = %s, stream_key_wo_version = %d }
  ]`, acctest.Hcl(key), version)
}

// noSecretInState fails when secret appears anywhere in the state.
func noSecretInState(secret string) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), secret) {
			return fmt.Errorf("the write-only key %q is in the state", secret)
		}
		return nil
	})
}

// TestAccLiveStreamWriteOnlyRestreamKey: a restream key given as stream_key_wo reaches the
// service and never the state; a new key is sent when its version changes, and only then.
// Write-only arguments need Terraform or OpenTofu 1.11 or later.
func TestAccLiveStreamWriteOnlyRestreamKey(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureWriteOnly)
	var id string
	keyOnService := func(want string) statecheck.StateCheck {
		return acctest.OnService(acctest.ServiceClient(t, env).GetLiveStream, &id, func(l videohost.LiveStream) error {
			if len(l.Restreams) != 1 || l.Restreams[0].StreamKey != want {
				return fmt.Errorf("the service's restreams are %+v, want the key %q", l.Restreams, want)
			}
			return nil
		})
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		// Write-only arguments came with Terraform 1.11 and OpenTofu 1.11. The framework reads the
		// version from `<cli> version -json`, where OpenTofu reports its own version, so this skips
		// an older OpenTofu as well as an older Terraform.
		TerraformVersionChecks: []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_11_0)},
		Steps: []resource.TestStep{
			{
				Config: streamConfig(env, false, "name", acctest.Hcl(env.Name("studio")), "restreams", writeOnlyRestream("wo-key-1", 1)),
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(testStreamAddr, &id),
					keyOnService("wo-key-1"),
					noSecretInState("wo-key-1"),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("restreams").AtSliceIndex(0).AtMapKey("stream_key"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("restreams").AtSliceIndex(0).AtMapKey("stream_key_wo"), knownvalue.Null()),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("restreams").AtSliceIndex(0).AtMapKey("stream_key_wo_version"), knownvalue.Int64Exact(1)),
				},
			},
			{
				// A new key without a new version: Terraform cannot see it, nothing is sent.
				Config: streamConfig(env, false, "name", acctest.Hcl(env.Name("studio")), "restreams", writeOnlyRestream("wo-key-2", 1)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{keyOnService("wo-key-1")},
			},
			{
				// The version moves: the restreams are sent again with the new key, in place.
				Config: streamConfig(env, false, "name", acctest.Hcl(env.Name("studio")), "restreams", writeOnlyRestream("wo-key-2", 2)),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testStreamAddr, plancheck.ResourceActionUpdate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{keyOnService("wo-key-2"), noSecretInState("wo-key-2")},
			},
			{
				// The import reads the key from the service into stream_key, where the configuration
				// has a write-only key; only that value differs.
				ResourceName:            testStreamAddr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"restreams.0.stream_key", "restreams.0.stream_key_wo_version"},
			},
			{
				// A change of the key outside Terraform is not seen: the key is not in the state
				// to compare with. That is the price of write-only, which the docs say.
				PreConfig: func() {
					if _, err := acctest.ServiceClient(t, env).UpdateLiveStream(t.Context(), id, videohost.UpdateLiveStreamInput{
						Restreams: videohost.Value([]videohost.Restream{{Name: "YouTube", ServerURL: "rtmp://a.rtmp.youtube.com/live2", StreamKey: "outside"}}),
					}); err != nil {
						t.Fatal(err)
					}
				},
				Config:   streamConfig(env, false, "name", acctest.Hcl(env.Name("studio")), "restreams", writeOnlyRestream("wo-key-2", 2)),
				PlanOnly: true,
			},
		},
	})
}

// TestAccLiveStreamRestreamKeyChoice: a restream needs exactly one of stream_key and
// stream_key_wo, refused at plan time before any request.
func TestAccLiveStreamRestreamKeyChoice(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: streamConfig(env, false, "name", acctest.Hcl("studio"), "restreams",
					`[{ name = "a", server_url = "rtmp://h/app" }]`),
				PlanOnly:    true,
				ExpectError: acctest.WrappedPhrases("Missing Stream Key for a Restream", `Restream 1 of restreams, "a" (restreams[0]) has no stream key: set restreams[0].stream_key to the key`),
			},
			{
				Config: streamConfig(env, false, "name", acctest.Hcl("studio"), "restreams",
					`[{ name = "a", server_url = "rtmp://h/app", stream_key = "k", stream_key_wo = "w" }]`),
				PlanOnly:    true,
				ExpectError: acctest.WrappedPhrases("Two Stream Keys for One Restream", `Restream 1 of restreams, "a" (restreams[0]) sets both stream_key and stream_key_wo`),
			},
			{
				PreConfig: acctest.NoRequestsTo(t, env, "/live-streams", "bad input must be refused before any"),
				Config:    env.ProviderConfig(""),
				PlanOnly:  true,
			},
		},
	})
}

// TestAccLiveStreamBadInput: what the configuration alone shows is refused at plan time with
// no request; what only the service can tell (an address known only at apply, a theme that
// does not exist) comes back as an error on the attribute it concerns.
func TestAccLiveStreamBadInput(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	six := make([]string, 0, 18)
	for i := range 6 {
		six = append(six, fmt.Sprintf("dest-%d", i), "rtmp://h/app", "k")
	}
	steps := []resource.TestStep{}
	for _, tc := range []struct {
		attrs []string
		want  string
	}{
		{[]string{"name", acctest.Hcl("  ")}, acctest.WrappedPhrases("Blank Value", "Set name to a value that is not empty or white space only").String()},
		{[]string{"name", acctest.Hcl("s"), "restreams", restreamsHCL("a", "rtmp://h/app", "k", "b", "rtmp://h/app", "k", "c", "https://h/app", "k")},
			`Invalid Restream Address[\s\S]*restreams\[2\]\.server_url[\s\S]*not rtmp or rtmps`},
		{[]string{"name", acctest.Hcl("s"), "restreams", restreamsHCL("a", "rtmp://h", "k")}, `restreams\[0\]\.server_url[\s\S]*no app name`},
		// The item's line, not the stream's own name: restreams[0].name would make Terraform before
		// 1.15 highlight name = "s".
		{[]string{"name", acctest.Hcl("s"), "restreams", restreamsHCL("", "rtmp://h/app", "k")}, acctest.WrappedPhrases("Blank Value",
			`{ name = "", server_url`, "Set restreams[0].name (the name of restream 1 of restreams) to a value that is not empty").String()},
		{[]string{"name", acctest.Hcl("s"), "restreams", restreamsHCL("a", "rtmp://h/app", " ")},
			acctest.WrappedPhrases("Set restreams[0].stream_key (the stream_key of restream 1 of restreams) to a value that is not empty").String()},
		{[]string{"name", acctest.Hcl("s"), "restreams", restreamsHCL(six...)}, acctest.WrappedPhrases("Too Many Restreams",
			"restreams lists 6 restreams; the service sends a live stream on to at most 5 destinations. Remove 1 of them").String()},
		// Six restreams, one of them wrong: the count does not hide the restream's own error.
		{[]string{"name", acctest.Hcl("s"), "restreams", restreamsHCL(append(six[:len(six):len(six)], "g", "https://h/app", "k")...)},
			acctest.WrappedPhrases("Set restreams[6].server_url (the server_url of restream 7 of restreams)").String()},
		{[]string{"name", acctest.Hcl("s"), "player_id", acctest.Hcl("../videos")}, `Invalid ID`},
	} {
		steps = append(steps, resource.TestStep{
			Config:      streamConfig(env, false, tc.attrs...),
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(tc.want),
		})
	}
	steps = append(steps,
		resource.TestStep{
			PreConfig: acctest.NoRequestsTo(t, env, "/live-streams", "bad input must be refused before any"),
			// The address comes from another resource, so it is known only at apply: it is
			// checked then, still before anything is sent.
			Config: env.ProviderConfig("") + `
resource "terraform_data" "url" {
  input = "rtmp://host-without-app"
}
resource "videohost_live_stream" "studio" {
  name = "s"
  restreams = [
    { name = "a", server_url = "rtmp://h/app", stream_key = "k" },
    { name = "b", server_url = terraform_data.url.output, stream_key = "k" },
  ]
}
`,
			ExpectError: regexp.MustCompile(`(?s)Invalid Restream Address.*restreams\[1\]\.server_url.*no app name`),
		},
		resource.TestStep{
			PreConfig: acctest.NoRequestsTo(t, env, "/live-streams", "an address known at apply must be checked before it is sent"),
			// A theme that does not exist: a 404 that names playerId, on player_id (Terraform
			// quotes the attribute's line).
			Config:      streamConfig(env, false, "name", acctest.Hcl("s"), "player_id", acctest.Hcl("pt0000000000000000000000")),
			ExpectError: regexp.MustCompile(`(?s)Unable to Create Live Stream.*player_id += "pt0000000000000000000000".*parameter playerId`),
		},
	)
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps:                    steps,
	})
}

func TestAccLiveStreamUpdateKeepsCreatedValues(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	config := func(name string) string {
		return env.ProviderConfig("") + `
resource "videohost_live_stream" "test" {
  name = ` + acctest.Hcl(name) + `
}
`
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config(env.Name("before"))},
			{
				Config: config(env.Name("after")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: acctest.KeptInUpdate("videohost_live_stream.test", map[string]knownvalue.Check{
					"id":         knownvalue.NotNull(),
					"stream_key": knownvalue.NotNull(),
					"created_at": knownvalue.NotNull(),
					"assets": knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"hls": knownvalue.NotNull(), "player": knownvalue.NotNull(), "iframe": knownvalue.NotNull(), "thumbnail": knownvalue.NotNull(),
					}),
				})},
			},
		},
	})
}

// generatedKey is the line -generate-config-out writes for a restream's key that Terraform
// keeps in the state: a sensitive value is never written, so it is null.
var generatedKey = regexp.MustCompile(`(?m)^(\s*stream_key\s*=\s*)null\b.*$`)

// TestAccLiveStreamGenerateConfig runs the import path of Terraform 1.5 to 1.13 (and OpenTofu)
// on a live stream with a restream made outside Terraform: terraform plan -generate-config-out.
// The generated restream has stream_key = null and stream_key_wo = null (Terraform never writes
// a sensitive value), so the plan must fail with a message that says which key to fill in; once
// the key is filled in, the import applies and the next plan is empty. The resource's docs say
// the same.
func TestAccLiveStreamGenerateConfig(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	ctx, cancel := context.WithTimeout(t.Context(), 4*time.Minute)
	defer cancel()
	cli := acctest.NewCLIWorkdir(ctx, t, "1.5.0")

	const key = "rk-generated-config-1"
	ls, err := acctest.ServiceClient(t, env).CreateLiveStream(ctx, videohost.CreateLiveStreamInput{
		Name:      acctest.RunName(t, "made in the dashboard"),
		Restreams: []videohost.Restream{{Name: "YouTube", ServerURL: "rtmp://a.rtmp.youtube.com/live2", StreamKey: key}},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Imported, it is in a working directory of the test's: it goes when the test ends.
	t.Cleanup(func() {
		if err := acctest.ServiceClient(t, env).DeleteLiveStream(context.Background(), ls.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("deleting live stream %s: %v", ls.ID, err)
		}
	})
	cli.Write("main.tf", `terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
`+env.ProviderConfig("")+`
import {
  to = videohost_live_stream.studio
  id = `+acctest.Hcl(ls.ID)+`
}
`)
	out := cli.RunFailing("plan", "-no-color", "-generate-config-out=generated.tf")
	generated, err := os.ReadFile(filepath.Join(cli.Dir, "generated.tf"))
	if err != nil {
		t.Fatalf("no generated.tf: %v\n%s", err, out)
	}
	if bytes.Contains(generated, []byte(key)) {
		t.Fatal("generated.tf holds the restream's key")
	}
	if !generatedKey.Match(generated) {
		t.Fatalf("generated.tf has no stream_key = null; what this test documents has changed:\n%s", generated)
	}
	want := acctest.WrappedPhrases("Missing Stream Key for a Restream", `Restream 1 of restreams, "YouTube" (restreams[0]) has no stream key:`,
		"set restreams[0].stream_key to the key the destination gave for its ingest",
		"-generate-config-out (terraform plan or terraform query) has stream_key = null here", "fill in the key")
	if !want.MatchString(out) {
		t.Fatalf("the plan of the generated configuration does not say which key to fill in (want %s):\n%s", want, out)
	}

	// What the docs tell the user to do: fill in the key.
	cli.Write("generated.tf", generatedKey.ReplaceAllString(string(generated), "${1}"+acctest.Hcl(key)))
	if out := cli.Run("apply", "-no-color", "-auto-approve"); !strings.Contains(out, "1 imported, 0 added, 0 changed, 0 destroyed") {
		t.Errorf("the apply of the completed configuration did not import the live stream alone:\n%s", out)
	}
	cli.Run("plan", "-no-color", "-detailed-exitcode")
}

// TestAccLiveStreamPlayerRemovedReplaces removes player_id from a live stream: the service's API
// has no way to detach a live stream's theme (its update takes a playerId, never null), so the
// plan replaces the live stream rather than send what the API does not take.
func TestAccLiveStreamPlayerRemovedReplaces(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	var first, second string
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            streamConfig(env, true, "name", acctest.Hcl(env.Name("studio")), "player_id", "videohost_player_theme.brand.id"),
				ConfigStateChecks: []statecheck.StateCheck{acctest.IdOf(testStreamAddr, &first)},
			},
			{
				Config: streamConfig(env, true, "name", acctest.Hcl(env.Name("studio"))),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply:             []plancheck.PlanCheck{plancheck.ExpectResourceAction(testStreamAddr, plancheck.ResourceActionDestroyBeforeCreate)},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					acctest.IdOf(testStreamAddr, &second),
					statecheck.ExpectKnownValue(testStreamAddr, tfjsonpath.New("player_id"), knownvalue.Null()),
					acctest.OnService(acctest.ServiceClient(t, env).GetLiveStream, &second, func(l videohost.LiveStream) error {
						if l.PlayerID != "" || second == first {
							return fmt.Errorf("the new live stream %s (the old was %s) is %+v", second, first, l)
						}
						return nil
					}),
				},
			},
		},
		CheckDestroy: acctest.GoneFromService(acctest.ServiceClient(t, env).GetLiveStream, &first),
	})
}

// TestReplaceWhenClearedWarns checks the plan of a removed player_id: a replacement, with a
// warning that names the attribute, the value to set to keep the object, and what changes.
func TestReplaceWhenClearedWarns(t *testing.T) {
	m := livestream.ReplaceWhenCleared("live stream", "a new stream key")
	// The whole object's value only needs to be known (neither a create nor a destroy).
	object := tftypes.NewValue(tftypes.Object{}, map[string]tftypes.Value{})
	for _, tc := range []struct {
		name         string
		state, plan  types.String
		wantReplaced bool
	}{
		{"removed", types.StringValue("pt1"), types.StringNull(), true},
		{"changed", types.StringValue("pt1"), types.StringValue("pt2"), false},
		{"added", types.StringNull(), types.StringValue("pt2"), false},
		{"never set", types.StringNull(), types.StringNull(), false},
	} {
		req := planmodifier.StringRequest{Path: path.Root("player_id"), StateValue: tc.state, PlanValue: tc.plan,
			ConfigValue: tc.plan, State: tfsdk.State{Raw: object}, Plan: tfsdk.Plan{Raw: object}}
		resp := &planmodifier.StringResponse{PlanValue: tc.plan}
		m.PlanModifyString(t.Context(), req, resp)
		if resp.RequiresReplace != tc.wantReplaced {
			t.Errorf("%s: replace %v, want %v", tc.name, resp.RequiresReplace, tc.wantReplaced)
		}
		warned := len(resp.Diagnostics) == 1 && resp.Diagnostics[0].Summary() == livestream.ClearedAttributeReplaces &&
			strings.Contains(resp.Diagnostics[0].Detail(), `set player_id again (it is "pt1" now)`) &&
			strings.Contains(resp.Diagnostics[0].Detail(), "a new stream key")
		if warned != tc.wantReplaced || resp.Diagnostics.HasError() {
			t.Errorf("%s: diagnostics %v", tc.name, resp.Diagnostics)
		}
	}
}
