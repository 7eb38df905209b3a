package provider

import (
	"reflect"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestVideoModelFrom(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("CET", 3600))
	full := videoModelFrom(videohost.Video{
		ID: "vi1", Title: "t", Description: "d", Language: "fr", PlayerID: "pl1",
		CreatedAt: &at, PublishedAt: &at, UpdatedAt: &at,
		Discarded: true, Public: true, Panoramic: true, MP4Support: true,
		Tags:     []string{"a", "b"},
		Metadata: []videohost.Metadata{{Key: "k", Value: "v"}, {Key: "n", Value: "1"}},
		Source:   &videohost.VideoSource{URI: "/videos/vi1/source", Type: "live", LiveStream: &videohost.VideoSourceLiveStream{LiveStreamID: "li1"}},
		Assets:   &videohost.VideoAssets{HLS: "h", IFrame: "i", Player: "p", Thumbnail: "th", MP4: "m"},
	})
	want := videoModel{
		ID: types.StringValue("vi1"), Title: types.StringValue("t"), Description: types.StringValue("d"),
		Language: types.StringValue("fr"), PlayerID: types.StringValue("pl1"),
		CreatedAt: types.StringValue("2026-03-04T04:06:07Z"), PublishedAt: types.StringValue("2026-03-04T04:06:07Z"),
		UpdatedAt: types.StringValue("2026-03-04T04:06:07Z"),
		Discarded: types.BoolValue(true), Public: types.BoolValue(true), Panoramic: types.BoolValue(true), MP4Support: types.BoolValue(true),
		Tags:     []string{"a", "b"},
		Metadata: map[string]string{"k": "v", "n": "1"},
		Source:   &videoSourceModel{URI: types.StringValue("/videos/vi1/source"), Type: types.StringValue("live"), LiveStreamID: types.StringValue("li1")},
		Assets: &videoAssetsModel{HLS: types.StringValue("h"), IFrame: types.StringValue("i"), Player: types.StringValue("p"),
			Thumbnail: types.StringValue("th"), MP4: types.StringValue("m")},
	}
	if !reflect.DeepEqual(full, want) {
		t.Errorf("videoModelFrom(full) =\n%+v\nwant\n%+v", full, want)
	}

	bare := videoModelFrom(videohost.Video{ID: "vi2", Source: &videohost.VideoSource{Type: "upload"}})
	if bare.Tags == nil || len(bare.Tags) != 0 || bare.Metadata == nil || len(bare.Metadata) != 0 {
		t.Errorf("tags %#v, metadata %#v: want empty, not null", bare.Tags, bare.Metadata)
	}
	if !bare.CreatedAt.IsNull() || bare.Assets != nil || !bare.Source.LiveStreamID.IsNull() {
		t.Errorf("absent values must be null: %+v", bare)
	}
}

func TestAccVideoDataSource(t *testing.T) {
	env := newAccEnv(t, emulator.Options{SeedVideos: 130, SeedLiveStreams: 3})
	env.requireEmulator(t)
	const one, listed = "data.videohost_video.one", "data.videohost_videos.all"
	config := env.providerConfig("") + `
data "videohost_videos" "all" {}

data "videohost_video" "one" {
  id = data.videohost_videos.all.videos[4].id
}
`
	sameAsListed := func(attr string) statecheck.StateCheck {
		return statecheck.CompareValuePairs(one, tfjsonpath.New(attr), listed, tfjsonpath.New("videos").AtSliceIndex(4).AtMapKey(attr), compare.ValuesSame())
	}
	var checks []statecheck.StateCheck
	for _, attr := range []string{"id", "title", "description", "language", "player_id", "created_at", "published_at", "updated_at",
		"discarded", "public", "panoramic", "mp4_support", "tags", "metadata", "source", "assets"} {
		checks = append(checks, sameAsListed(attr))
	}
	// The fifth seed video is the recording of the first seed live stream.
	checks = append(checks,
		statecheck.ExpectKnownValue(one, tfjsonpath.New("id"), knownvalue.StringExact(emulator.SeedVideoID(5))),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("title"), knownvalue.StringExact("Seed video 5")),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("tags"), knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("seed"), knownvalue.StringExact("news"),
		})),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("metadata"), knownvalue.MapExact(map[string]knownvalue.Check{
			"category": knownvalue.StringExact("education"), "index": knownvalue.StringExact("5"),
		})),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("source").AtMapKey("live_stream_id"), knownvalue.StringExact(emulator.SeedLiveStreamID(1))),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("public"), knownvalue.Bool(true)),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`))),
		statecheck.ExpectKnownValue(one, tfjsonpath.New("assets").AtMapKey("hls"), knownvalue.StringRegexp(regexp.MustCompile(`^https?://`))),
	)
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:            config,
				ConfigStateChecks: checks,
				ConfigPlanChecks:  resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config:      env.providerConfig("") + `data "videohost_video" "missing" { id = "vi-missing" }`,
				ExpectError: regexp.MustCompile(`(?s)Unable to Read Video.*no such object`),
			},
		},
	})
}
