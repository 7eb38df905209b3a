package livestream_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	tfjson "github.com/hashicorp/terraform-json"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/livestream"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestLiveStreamModelFrom(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("CET", 3600))
	full := livestream.LiveStreamModelFrom(videohost.LiveStream{
		ID:           "li1",
		Name:         "studio",
		StreamKey:    "key-1",
		Public:       true,
		PlayerID:     "pl1",
		Broadcasting: true,
		CreatedAt:    &created,
		UpdatedAt:    &created,
		Assets:       &videohost.LiveStreamAssets{HLS: "h", IFrame: "i", Player: "p", Thumbnail: "t"},
		Restreams:    []videohost.Restream{{Name: "yt", ServerURL: "rtmp://x/live", StreamKey: "rk"}},
	})
	want := livestream.LiveStreamModel{
		ID:           types.StringValue("li1"),
		Name:         types.StringValue("studio"),
		StreamKey:    types.StringValue("key-1"),
		Public:       types.BoolValue(true),
		PlayerID:     types.StringValue("pl1"),
		Broadcasting: types.BoolValue(true),
		CreatedAt:    types.StringValue("2026-01-02T02:04:05Z"),
		UpdatedAt:    types.StringValue("2026-01-02T02:04:05Z"),
		Assets: &livestream.LiveStreamAssetsModel{
			HLS: types.StringValue("h"), IFrame: types.StringValue("i"),
			Player: types.StringValue("p"), Thumbnail: types.StringValue("t"),
		},
		Restreams: []livestream.RestreamModel{{
			Name: types.StringValue("yt"), ServerURL: types.StringValue("rtmp://x/live"), StreamKey: types.StringValue("rk"),
		}},
	}
	if !reflect.DeepEqual(full, want) {
		t.Errorf("liveStreamModelFrom(full) =\n%+v\nwant\n%+v", full, want)
	}

	bare := livestream.LiveStreamModelFrom(videohost.LiveStream{ID: "li2"})
	if bare.Assets != nil {
		t.Errorf("assets = %+v, want null when the service sends none", bare.Assets)
	}
	if bare.Restreams == nil || len(bare.Restreams) != 0 {
		t.Errorf("restreams = %#v, want an empty, non-null list", bare.Restreams)
	}
	if !bare.CreatedAt.IsNull() || !bare.UpdatedAt.IsNull() {
		t.Errorf("created_at, updated_at = %s, %s; want null when the service sends none", bare.CreatedAt, bare.UpdatedAt)
	}
}

// TestLiveStreamSchemasSensitive checks that every stream key is sensitive and every attribute
// documented, in both data sources.
func TestLiveStreamSchemasSensitive(t *testing.T) {
	// The list data source has a third: its stream_key filter.
	for ds, want := range map[datasource.DataSource]int{livestream.NewLiveStreamDataSource(): 2, livestream.NewLiveStreamsDataSource(): 3} {
		var resp datasource.SchemaResponse
		ds.Schema(t.Context(), datasource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("schema: %v", resp.Diagnostics)
		}
		if diags := resp.Schema.ValidateImplementation(t.Context()); diags.HasError() {
			t.Fatalf("schema implementation: %v", diags)
		}
		var keys int
		var walk func(prefix string, attrs map[string]schema.Attribute)
		walk = func(prefix string, attrs map[string]schema.Attribute) {
			for name, a := range attrs {
				p := prefix + name
				if a.GetMarkdownDescription() == "" {
					t.Errorf("%s has no MarkdownDescription", p)
				}
				if name == "stream_key" {
					keys++
					if !a.IsSensitive() {
						t.Errorf("%s is not sensitive", p)
					}
				}
				switch n := a.(type) {
				case schema.SingleNestedAttribute:
					walk(p+".", n.Attributes)
				case schema.ListNestedAttribute:
					walk(p+"[].", n.NestedObject.Attributes)
				}
			}
		}
		walk("", resp.Schema.Attributes)
		if keys != want {
			t.Errorf("found %d stream_key attributes, want %d (the live stream's, its restreams' and a list's filter)", keys, want)
		}
	}
}

// sameInstant reports whether two date-times name the same instant, whatever their zones.
func sameInstant(a, b any) bool {
	as, aok := a.(string)
	bs, bok := b.(string)
	if !aok || !bok {
		return false
	}
	at, aerr := time.Parse(time.RFC3339Nano, as)
	bt, berr := time.Parse(time.RFC3339Nano, bs)
	return aerr == nil && berr == nil && at.Equal(bt)
}

// compareLiveStreamWithService checks every attribute of one live stream in the state against
// the service's JSON for it.
func compareLiveStreamWithService(got, wire map[string]any) error {
	var errs []string
	for attr, field := range map[string]string{
		"id": "liveStreamId", "name": "name", "stream_key": "streamKey", "public": "public",
		"player_id": "playerId", "broadcasting": "broadcasting",
	} {
		w := wire[field]
		if w == nil && attr == "player_id" {
			w = ""
		}
		if !reflect.DeepEqual(got[attr], w) {
			errs = append(errs, fmt.Sprintf("%s = %v, the service says %s = %v", attr, got[attr], field, w))
		}
	}
	for attr, field := range map[string]string{"created_at": "createdAt", "updated_at": "updatedAt"} {
		if !sameInstant(got[attr], wire[field]) {
			errs = append(errs, fmt.Sprintf("%s = %v, the service says %s = %v", attr, got[attr], field, wire[field]))
		}
	}
	wantAssets := map[string]any{}
	if wa, ok := wire["assets"].(map[string]any); ok {
		wantAssets = map[string]any{"hls": wa["hls"], "iframe": wa["iframe"], "player": wa["player"], "thumbnail": wa["thumbnail"]}
	}
	if !reflect.DeepEqual(got["assets"], wantAssets) {
		errs = append(errs, fmt.Sprintf("assets = %v, the service says %v", got["assets"], wantAssets))
	}
	wantRestreams := []any{}
	if wr, ok := wire["restreams"].([]any); ok {
		for _, r := range wr {
			rm, _ := r.(map[string]any)
			wantRestreams = append(wantRestreams, map[string]any{
				"name": rm["name"], "server_url": rm["serverUrl"], "stream_key": rm["streamKey"],
			})
		}
	}
	if !reflect.DeepEqual(got["restreams"], wantRestreams) {
		errs = append(errs, fmt.Sprintf("restreams = %v, the service says %v", got["restreams"], wantRestreams))
	}
	if len(errs) > 0 {
		return fmt.Errorf("the state differs from the service: %s", strings.Join(errs, "; "))
	}
	return nil
}

// TestAccLiveStreamDataSource reads two live streams of the test's own, one with a restream,
// with videohost_live_stream and in videohost_live_streams (filtered by the names they share, so
// that the list is of them alone in a shared workspace; in-process, seeds stand for the other
// live streams of the account): both data sources describe each identically, as the service
// holds it, with every stream key hidden. An id the service does not know is an error that
// names it.
func TestAccLiveStreamDataSource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedLiveStreams: 4})
	const list = "data.videohost_live_streams.all"
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(list, tfjsonpath.New("live_streams"), knownvalue.ListSizeExact(2)),
		statecheck.ExpectSensitiveValue("data.videohost_live_stream.second", tfjsonpath.New("stream_key")),
		statecheck.ExpectSensitiveValue("data.videohost_live_stream.second",
			tfjsonpath.New("restreams").AtSliceIndex(0).AtMapKey("stream_key")),
		acctest.ListedAsRead(list, "live_streams", "data.videohost_live_stream.first"),
		acctest.ListedAsRead(list, "live_streams", "data.videohost_live_stream.second"),
		acctest.StateCheckFunc(func(s *tfjson.State) error {
			for _, address := range []string{"data.videohost_live_stream.first", "data.videohost_live_stream.second"} {
				one, err := acctest.StateAttributes(s, address)
				if err != nil {
					return err
				}
				id, _ := one["id"].(string)
				wire, err := serviceJSON(t.Context(), env.BaseURL, "/live-streams/"+url.PathEscape(id), env.APIKey)
				if err != nil {
					return err
				}
				if err := compareLiveStreamWithService(one, wire); err != nil {
					return fmt.Errorf("%s: %w", address, err)
				}
			}
			return nil
		}),
	}

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: env.ProviderConfig("") + `
resource "videohost_live_stream" "first" {
  name = ` + acctest.Hcl(env.Name("first")) + `
}

resource "videohost_live_stream" "second" {
  name      = ` + acctest.Hcl(env.Name("second")) + `
  restreams = ` + restreamsHCL("YouTube", "rtmp://a.rtmp.youtube.com/live2", "yt-key-1") + `
}

data "videohost_live_streams" "all" {
  name       = ` + acctest.Hcl(env.Name("")) + `
  sort_by    = "createdAt"
  sort_order = "asc"
  depends_on = [videohost_live_stream.first, videohost_live_stream.second]
}

data "videohost_live_stream" "first" {
  id = videohost_live_stream.first.id
}

data "videohost_live_stream" "second" {
  id = videohost_live_stream.second.id
}
`,
				ConfigStateChecks: checks,
			},
			{
				Config: env.ProviderConfig("") + `
data "videohost_live_stream" "missing" {
  id = "li_this_id_does_not_exist"
}
`,
				ExpectError: regexp.MustCompile(`(?s)Unable to Read Live Stream.*no such object.*li_this_id_does_not_exist`),
			},
		},
	})
}

// serviceJSON reads path from the service with basic authentication and decodes the response. The
// tests use it to compare the provider's state with what the service says, without the client.
func serviceJSON(ctx context.Context, baseURL, path, apiKey string) (map[string]any, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimSuffix(baseURL, "/")+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(apiKey+":")))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: status %d", path, resp.StatusCode)
	}
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("GET %s: %w", path, err)
	}
	return out, nil
}

// TestAccLiveStreamDataSourcesOfStreamMadeOutside reads a live stream made outside Terraform
// through the public API: by id, as the service holds it, with its stream key hidden; and with
// videohost_live_streams by a name of its own (env.Name, so that the list is of it alone in a
// shared workspace), whose one item is what the read by id says. It runs against any
// endpoint, as do TestAccLiveStreamDataSource and TestAccLiveStreamsDataSource, which create
// theirs with Terraform.
func TestAccLiveStreamDataSourcesOfStreamMadeOutside(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	c := acctest.ServiceClient(t, env)
	name := env.Name("outside")
	stream, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.DeleteLiveStream(context.Background(), stream.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("deleting live stream %s made outside Terraform: %v", stream.ID, err)
		}
	})
	const one, named = "data.videohost_live_stream.one", "data.videohost_live_streams.named"
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_live_streams" "named" {
  name = %q
}

data "videohost_live_stream" "one" {
  id = %q
}
`, name, stream.ID),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectSensitiveValue(one, tfjsonpath.New("stream_key")),
				statecheck.ExpectKnownValue(named, tfjsonpath.New("live_streams"), knownvalue.ListSizeExact(1)),
				acctest.ListedAsRead(named, "live_streams", one),
				acctest.StateCheckFunc(func(s *tfjson.State) error {
					got, err := acctest.StateAttributes(s, one)
					if err != nil {
						return err
					}
					wire, err := serviceJSON(t.Context(), env.BaseURL, "/live-streams/"+url.PathEscape(stream.ID), env.APIKey)
					if err != nil {
						return err
					}
					return compareLiveStreamWithService(got, wire)
				}),
			},
		}},
	})
}
