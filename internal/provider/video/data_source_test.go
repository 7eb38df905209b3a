package video_test

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"reflect"
	"regexp"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/video"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestVideoModelFrom(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("CET", 3600))
	full := video.VideoModelFrom(videohost.Video{
		ID: "vi1", Title: "t", Description: "d", Language: "fr", PlayerID: "pl1",
		CreatedAt: &at, PublishedAt: &at, UpdatedAt: &at,
		Discarded: true, Public: true, Panoramic: true, MP4Support: true,
		Tags:     []string{"a", "b"},
		Metadata: []videohost.Metadata{{Key: "k", Value: "v"}, {Key: "n", Value: "1"}},
		Source:   &videohost.VideoSource{URI: "/videos/vi1/source", Type: "live", LiveStream: &videohost.VideoSourceLiveStream{LiveStreamID: "li1"}},
		Assets:   &videohost.VideoAssets{HLS: "h", IFrame: "i", Player: "p", Thumbnail: "th", MP4: "m"},
	})
	want := video.VideoModel{
		ID: types.StringValue("vi1"), Title: types.StringValue("t"), Description: types.StringValue("d"),
		Language: types.StringValue("fr"), PlayerID: types.StringValue("pl1"),
		CreatedAt: types.StringValue("2026-03-04T04:06:07Z"), PublishedAt: types.StringValue("2026-03-04T04:06:07Z"),
		UpdatedAt: types.StringValue("2026-03-04T04:06:07Z"),
		Discarded: types.BoolValue(true), Public: types.BoolValue(true), Panoramic: types.BoolValue(true), MP4Support: types.BoolValue(true),
		Tags:     []string{"a", "b"},
		Metadata: map[string]string{"k": "v", "n": "1"},
		Source:   &video.VideoSourceModel{URI: types.StringValue("/videos/vi1/source"), Type: types.StringValue("live"), LiveStreamID: types.StringValue("li1")},
		Assets: &video.VideoAssetsModel{HLS: types.StringValue("h"), IFrame: types.StringValue("i"), Player: types.StringValue("p"),
			Thumbnail: types.StringValue("th"), MP4: types.StringValue("m")},
	}
	if !reflect.DeepEqual(full, want) {
		t.Errorf("videoModelFrom(full) =\n%+v\nwant\n%+v", full, want)
	}

	bare := video.VideoModelFrom(videohost.Video{ID: "vi2", Source: &videohost.VideoSource{Type: "upload"}})
	if bare.Tags == nil || len(bare.Tags) != 0 || bare.Metadata == nil || len(bare.Metadata) != 0 {
		t.Errorf("tags %#v, metadata %#v: want empty, not null", bare.Tags, bare.Metadata)
	}
	if !bare.CreatedAt.IsNull() || bare.Assets != nil || !bare.Source.LiveStreamID.IsNull() {
		t.Errorf("absent values must be null: %+v", bare)
	}
}

// TestAccVideoDataSource reads the second of three videos that the test makes through the
// public API with both data sources: videohost_videos lists them by the title they share (the
// run's prefix and the test's name, so that the list is of them alone in a workspace that others
// use at the same time) in the order of their titles, and videohost_video reads the second by
// the id listed; both show the same, and what the test gave. In-process the emulator also holds
// 130 seed videos: the unfiltered list reads them over two pages, and the fifth, the recording
// of the first seed live stream, reads the same with both data sources.
func TestAccVideoDataSource(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{SeedVideos: 130, SeedLiveStreams: 3})
	panoramic := true
	for i, in := range []videohost.VideoCreate{
		{Description: "The first.", Tags: []string{"first"}},
		{Description: "The second.", Tags: []string{"second", "news"}, Panoramic: &panoramic,
			Metadata: []videohost.Metadata{{Key: "category", Value: "education"}, {Key: "index", Value: "2"}}},
		{Description: "The third.", Tags: []string{"third"}},
	} {
		in.Title = env.Name(fmt.Sprintf("read-%d", i+1))
		acctest.CreateVideoOutside(t, env, in)
	}
	const one, listed = "data.videohost_video.one", "data.videohost_videos.own"
	config := env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_videos" "own" {
  title      = %s
  sort_by    = "title"
  sort_order = "asc"
}

data "videohost_video" "one" {
  id = data.videohost_videos.own.videos[1].id
}
`, acctest.Hcl(env.Name("read-")))
	attrs := []string{"id", "title", "description", "language", "player_id", "created_at", "published_at", "updated_at",
		"discarded", "public", "panoramic", "mp4_support", "tags", "metadata", "source", "assets"}
	sameAs := func(single, list string, index int) []statecheck.StateCheck {
		var checks []statecheck.StateCheck
		for _, attr := range attrs {
			checks = append(checks, statecheck.CompareValuePairs(single, tfjsonpath.New(attr), list,
				tfjsonpath.New("videos").AtSliceIndex(index).AtMapKey(attr), compare.ValuesSame()))
		}
		return checks
	}
	checks := append(sameAs(one, listed, 1),
		statecheck.ExpectKnownValue(listed, tfjsonpath.New("videos"), knownvalue.ListSizeExact(3)),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("title"), knownvalue.StringExact(env.Name("read-2"))),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("description"), knownvalue.StringExact("The second.")),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("tags"), knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("second"), knownvalue.StringExact("news"),
		})),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
			"category": knownvalue.StringExact("education"), "index": knownvalue.StringExact("2"),
		})),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("panoramic"), knownvalue.Bool(true)),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("public"), knownvalue.Bool(true)),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("discarded"), knownvalue.Bool(false)),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("assets").AtMapKey("hls"), knownvalue.StringRegexp(regexp.MustCompile(`^https?://`))),
	)
	if env.Emu != nil {
		const seed, all = "data.videohost_video.seed", "data.videohost_videos.all"
		config += `
data "videohost_videos" "all" {}

data "videohost_video" "seed" {
  id = data.videohost_videos.all.videos[4].id
}
`
		// The fifth seed video is the recording of the first seed live stream.
		checks = append(append(checks, sameAs(seed, all, 4)...),
			statecheck.ExpectKnownValue(all, tfjsonpath.New("videos"), knownvalue.ListSizeExact(133)),
			statecheck.ExpectKnownValue(seed, tfjsonpath.New("id"), knownvalue.StringExact(emulator.SeedVideoID(5))),
			statecheck.ExpectKnownValue(seed, tfjsonpath.New("title"), knownvalue.StringExact("Seed video 5")),
			statecheck.ExpectKnownValue(seed, tfjsonpath.New("source").AtMapKey("live_stream_id"), knownvalue.StringExact(emulator.SeedLiveStreamID(1))),
		)
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            config,
				ConfigStateChecks: checks,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:      env.ProviderConfig("") + `data "videohost_video" "missing" { id = "vi0000000000000000none" }`,
				ExpectError: regexp.MustCompile(`(?s)Unable to Read Video.*no such object`),
			},
		},
	})
}

// TestAccVideoDataSourceOfVideoMadeOutside reads a video made outside Terraform through the
// public API, with videohost_video by its id and with videohost_videos by a title of its own
// (the run's prefix and the test's name, so that the list is of it alone in a shared
// workspace): both show what the service holds, the same in both, and the video's playable
// status; an unknown id is a clear error.
func TestAccVideoDataSourceOfVideoMadeOutside(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	title := env.Name("read-outside")
	id := acctest.CreateVideoOutside(t, env, videohost.VideoCreate{
		Title: title, Description: "Made outside Terraform.", Tags: []string{"outside", "read"},
		Metadata: []videohost.Metadata{{Key: "team", Value: "docs"}},
	})
	const one, listed = "data.videohost_video.one", "data.videohost_videos.titled"
	config := env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_videos" "titled" {
  title = %q
}

data "videohost_video" "one" {
  id = %q
}
`, title, id)
	checks := []statecheck.StateCheck{
		statecheck.ExpectKnownValue(listed, tfjsonpath.New("videos"), knownvalue.ListSizeExact(1)),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("title"), knownvalue.StringExact(title)),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("description"), knownvalue.StringExact("Made outside Terraform.")),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("tags"), knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("outside"), knownvalue.StringExact("read"),
		})),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("docs")})),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("playable"), knownvalue.Bool(false)),
	}
	for _, attr := range []string{"id", "title", "description", "public", "tags", "metadata", "created_at"} {
		checks = append(checks, statecheck.CompareValuePairs(one, tfjsonpath.New(attr), listed,
			tfjsonpath.New("videos").AtSliceIndex(0).AtMapKey(attr), compare.ValuesSame()))
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            config,
				ConfigStateChecks: checks,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:      env.ProviderConfig("") + `data "videohost_video" "missing" { id = "vi0000000000000000none" }`,
				ExpectError: regexp.MustCompile(`Unable to Read Video`),
			},
		},
	})
}

// TestAccVideoDataSource_status: the video data source shows a video's status: nothing yet for
// a video without a source; for one whose source was uploaded and encoded, playable, the size
// of the file uploaded and every quality with its state as the service reports them.
func TestAccVideoDataSource_status(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{IngestDelay: time.Millisecond, EncodingDelay: time.Millisecond})
	env.RequireEmulatorFor(t, "it waits on the emulator's encoding, set to a millisecond a step")
	c := acctest.ServiceClient(t, env)
	empty := acctest.NewTestVideo(t, env)
	encoded := acctest.NewTestVideo(t, env)
	source := make([]byte, 4096)
	_, _ = rand.Read(source)
	if _, err := c.UploadVideoSource(t.Context(), encoded, videohost.UploadSource{
		Name: "clip.mp4", Reader: bytes.NewReader(source), Size: int64(len(source)),
	}, videohost.UploadOptions{}); err != nil {
		t.Fatal(err)
	}
	// Wait for the encoding to end (the emulator's steps take a millisecond each), so that what
	// the data source reads is the final status.
	final := awaitEncoded(t, c, encoded)
	config := env.ProviderConfig("") + fmt.Sprintf(`
data "videohost_video" "empty" {
  id = %q
}

data "videohost_video" "encoded" {
  id = %q
}
`, empty, encoded)
	const e, enc = "data.videohost_video.empty", "data.videohost_video.encoded"
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(e, tfjsonpath.New("playable"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(e, tfjsonpath.New("qualities"), knownvalue.ListExact(nil)),
				statecheck.ExpectKnownValue(e, tfjsonpath.New("source_size"), knownvalue.Null()),
				statecheck.ExpectKnownValue(e, tfjsonpath.New("ingest_status"), knownvalue.Null()),
				statecheck.ExpectKnownValue(enc, tfjsonpath.New("playable"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue(enc, tfjsonpath.New("source_size"), knownvalue.Int64Exact(int64(len(source)))),
				statecheck.ExpectKnownValue(enc, tfjsonpath.New("ingest_status"), knownvalue.StringExact(videohost.IngestIngested)),
				statecheck.ExpectKnownValue(enc, tfjsonpath.New("qualities"), knownvalue.ListSizeExact(len(final.Encoding.Qualities))),
				acctest.StateCheckFunc(func(s *tfjson.State) error { return qualitiesMatch(s, enc, final.Encoding.Qualities) }),
			},
		}},
	})
}

// awaitEncoded waits until the service has encoded every quality of video id, and returns its
// final status: a test whose next step reads what the service fills in (the language, playable,
// the qualities) waits for that event rather than for a time. The deadline only ends a test whose
// service never gets there.
func awaitEncoded(t *testing.T, c *videohost.Client, id string) videohost.VideoStatus {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		st, err := c.GetVideoStatus(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		if allEncoded(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("the service did not finish encoding video %s: %+v", id, st)
		}
	}
}

// allEncoded reports whether the video's encoding has ended with every quality encoded.
func allEncoded(st videohost.VideoStatus) bool {
	if !st.Encoding.Playable || len(st.Encoding.Qualities) == 0 {
		return false
	}
	for _, q := range st.Encoding.Qualities {
		if q.Status != videohost.QualityEncoded {
			return false
		}
	}
	return true
}

// qualitiesMatch checks the qualities of the data source at addr against the service's, in order.
func qualitiesMatch(s *tfjson.State, addr string, want []videohost.Quality) error {
	attrs, err := acctest.StateAttributes(s, addr)
	if err != nil {
		return err
	}
	got, _ := attrs["qualities"].([]any)
	if len(got) != len(want) || len(want) == 0 {
		return fmt.Errorf("%d qualities, the service has %d", len(got), len(want))
	}
	for i, q := range want {
		g, _ := got[i].(map[string]any)
		if g["type"] != q.Type || g["quality"] != q.Quality || g["status"] != q.Status {
			return fmt.Errorf("quality %d is %v, the service has %+v", i, g, q)
		}
	}
	return nil
}
