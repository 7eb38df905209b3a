package framework_test

// Tests of the list resources through the protocol server and terraform query, for the kinds that
// no test file of their own covers alone.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// outsideObjects are the objects that TestAccListsOfObjectsMadeOutside makes through the public
// API with the key, as a user would outside Terraform, each deleted when the test ends.
type outsideObjects struct {
	liveStream, video, theme, webhook, watermark, tokenID, name string
}

// makeOutsideObjects makes one object of each listed kind, named where the kind has a name with
// the test's name (env.Name) and a random suffix, so that a list filtered by it is of the
// test's object alone.
func makeOutsideObjects(t *testing.T, env *acctest.AccEnv) outsideObjects {
	t.Helper()
	c := acctest.ServiceClient(t, env)
	o := outsideObjects{name: env.Name("outside-" + acctest.RunSuffix(t))}
	cleanup := func(what, id string, del func(context.Context, string) error) {
		t.Cleanup(func() {
			if err := del(context.Background(), id); err != nil && !errors.Is(err, videohost.ErrNotFound) {
				t.Errorf("deleting %s %s made outside Terraform: %v", what, id, err)
			}
		})
	}
	ls, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: o.name})
	if err != nil {
		t.Fatal(err)
	}
	cleanup("live stream", ls.ID, c.DeleteLiveStream)
	theme, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value(o.name)})
	if err != nil {
		t.Fatal(err)
	}
	cleanup("player theme", theme.ID, c.DeletePlayerTheme)
	mark, err := c.CreateWatermark(t.Context(), imageSource(t, acctest.WritePNG(t, t.TempDir(), "mark.png", 16, 8, 3)))
	if err != nil {
		t.Fatal(err)
	}
	cleanup("watermark", mark.ID, c.DeleteWatermark)
	tok, err := c.CreateUploadToken(t.Context(), 3600)
	if err != nil {
		t.Fatal(err)
	}
	cleanup("upload token", tok.Token, c.DeleteUploadToken)
	o.liveStream, o.theme, o.watermark, o.tokenID = ls.ID, theme.ID, mark.ID, uploadtoken.UploadTokenFingerprint(tok.Token)
	o.video = acctest.CreateVideoOutside(t, env, videohost.VideoCreate{Title: o.name})
	o.webhook = acctest.CreateWebhookOutside(t, env, "https://hooks.example.test/"+o.name, events.VideoEncodingQualityCompleted).ID
	return o
}

// imageSource opens the image at file as an upload, closed when the test ends.
func imageSource(t *testing.T, file string) videohost.UploadSource {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = f.Close() })
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return videohost.UploadSource{Name: filepath.Base(file), Reader: f, Size: st.Size()}
}

// listsID checks that the list data source at address holds, among its items, one whose id is id.
func listsID(address, items, id string) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		attrs, err := acctest.StateAttributes(s, address)
		if err != nil {
			return err
		}
		list, _ := attrs[items].([]any)
		for _, item := range list {
			if m, _ := item.(map[string]any); m["id"] == id {
				return nil
			}
		}
		return fmt.Errorf("%s does not list %s among its %d %s", address, id, len(list), items)
	})
}

// TestAccListsOfObjectsMadeOutside makes a live stream, a video, a player theme, a webhook, a
// watermark and an upload token through the public API, as a user would outside Terraform,
// finds each with the list data sources and with terraform query over the list resources
// (Terraform 1.14 and later), among whatever else the workspace holds. It runs against any
// endpoint: the lists with a name filter are filtered by the test's own name, the others are
// searched for the test's objects by id (up to 1000 of a kind).
func TestAccListsOfObjectsMadeOutside(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.RequireCLIFeature(t, acctest.FeatureQuery)
	o := makeOutsideObjects(t, env)
	byID := func(list, id string) querycheck.QueryResultCheck {
		return querycheck.ExpectResourceKnownValues(list, queryfilter.ByResourceIdentity(map[string]knownvalue.Check{"id": knownvalue.StringExact(id)}),
			[]querycheck.KnownValueCheck{{Path: tfjsonpath.New("id"), KnownValue: knownvalue.StringExact(id)}})
	}
	list := func(kind, config string) string {
		return fmt.Sprintf("list %q \"outside\" {\n  provider         = videohost\n  include_resource = true\n  limit            = 1000\n%s}\n", kind, config)
	}
	named := func(attr string) string { return fmt.Sprintf("  config {\n    %s = %q\n  }\n", attr, o.name) }
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_14_0)},
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `
data "videohost_webhooks" "all" {}
data "videohost_watermarks" "all" {}
data "videohost_upload_tokens" "all" {}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					listsID("data.videohost_webhooks.all", "webhooks", o.webhook),
					listsID("data.videohost_watermarks.all", "watermarks", o.watermark),
					listsID("data.videohost_upload_tokens.all", "upload_tokens", o.tokenID),
				},
			},
			{
				Query: true,
				Config: list("videohost_live_stream", named("name")) + list("videohost_video", named("title")) +
					list("videohost_player_theme", "") + list("videohost_webhook", "") + list("videohost_watermark", "") +
					list("videohost_upload_token", ""),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("videohost_live_stream.outside", 1),
					querycheck.ExpectLength("videohost_video.outside", 1),
					byID("videohost_live_stream.outside", o.liveStream),
					byID("videohost_video.outside", o.video),
					byID("videohost_player_theme.outside", o.theme),
					byID("videohost_webhook.outside", o.webhook),
					byID("videohost_watermark.outside", o.watermark),
					byID("videohost_upload_token.outside", o.tokenID),
				},
			},
		},
	})
}
