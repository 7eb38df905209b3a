package video

import (
	"encoding/json"
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestVideoUpdateFrom: the PATCH holds only what changed, tags and metadata whole, a removed
// player as null, and nothing for unknown values.
func TestVideoUpdateFrom(t *testing.T) {
	ctx := t.Context()
	state := EmptyVideoModel()
	if d := state.setFromVideo(ctx, videohost.Video{ID: "vi1", Title: "a", PlayerID: "pt1", Public: true, MP4Support: true,
		Tags: []string{"x"}, Metadata: []videohost.Metadata{{Key: "k", Value: "v"}}}, framework.DefaultLabels{}, framework.ManagedLabels{}); d.HasError() {
		t.Fatal(d)
	}
	plan := state
	if in, _ := videoUpdateFrom(ctx, plan, state); !in.IsEmpty() {
		t.Errorf("no change sends %+v", in)
	}
	plan.Title = types.StringValue("b")
	plan.PlayerID = types.StringNull()
	plan.Tags = StringSetValue{SetValue: types.SetValueMust(types.StringType, []attr.Value{types.StringValue("y"), types.StringValue("x")})}
	plan.Language = types.StringUnknown()
	var d diag.Diagnostics
	planVideoLabels(ctx, &plan, framework.DefaultLabels{}, &d)
	in, d := videoUpdateFrom(ctx, plan, state)
	if d.HasError() {
		t.Fatal(d)
	}
	body, _ := json.Marshal(in)
	if want := `{"title":"b","playerId":null,"tags":["x","y"]}`; string(body) != want {
		t.Errorf("update body %s, want %s", body, want)
	}
	plan = state
	plan.Metadata = types.MapValueMust(types.StringType, map[string]attr.Value{"k": types.StringValue("v"), "a": types.StringValue("1")})
	planVideoLabels(ctx, &plan, framework.DefaultLabels{}, &d)
	in, _ = videoUpdateFrom(ctx, plan, state)
	body, _ = json.Marshal(in)
	if want := `{"metadata":[{"key":"a","value":"1"},{"key":"k","value":"v"}]}`; string(body) != want {
		t.Errorf("update body %s, want the whole metadata in key order: %s", body, want)
	}
}

// TestVideoReached: each wait_for against the statuses a video goes through.
func TestVideoReached(t *testing.T) {
	size := int64(10)
	uploading := videohost.VideoStatus{Ingest: &videohost.IngestStatus{Status: videohost.IngestUploading, Filesize: &size}}
	uploaded := videohost.VideoStatus{Ingest: &videohost.IngestStatus{Status: videohost.IngestUploaded, Filesize: &size},
		Encoding: videohost.EncodingStatus{Qualities: []videohost.Quality{{Type: "hls", Quality: "360p", Status: videohost.QualityWaiting}}}}
	playable := uploaded
	playable.Encoding = videohost.EncodingStatus{Playable: true, Qualities: []videohost.Quality{
		{Type: "hls", Quality: "360p", Status: videohost.QualityEncoded}, {Type: "hls", Quality: "720p", Status: videohost.QualityEncoding}}}
	encoded := uploaded
	encoded.Encoding = videohost.EncodingStatus{Playable: true, Qualities: []videohost.Quality{
		{Type: "hls", Quality: "360p", Status: videohost.QualityEncoded}, {Type: "mp4", Quality: "360p", Status: videohost.QualityEncoded}}}
	for _, tc := range []struct {
		name string
		st   videohost.VideoStatus
		want map[string]bool
	}{
		{"nothing", videohost.VideoStatus{}, map[string]bool{waitUploaded: false, waitPlayable: false, waitEncoded: false}},
		{"uploading", uploading, map[string]bool{waitUploaded: false, waitPlayable: false, waitEncoded: false}},
		{"uploaded", uploaded, map[string]bool{waitUploaded: true, waitPlayable: false, waitEncoded: false}},
		{"playable", playable, map[string]bool{waitUploaded: true, waitPlayable: true, waitEncoded: false}},
		{"encoded", encoded, map[string]bool{waitUploaded: true, waitPlayable: true, waitEncoded: true}},
	} {
		for want, reached := range tc.want {
			if got := videoReached(tc.st, want); got != reached {
				t.Errorf("%s: reached %s = %t, want %t", tc.name, want, got, reached)
			}
		}
	}
	failed := encoded
	failed.Encoding.Qualities = append(failed.Encoding.Qualities, videohost.Quality{Type: "hls", Quality: "1080p", Status: videohost.QualityFailed})
	if got := failedQualities(failed); len(got) != 1 || got[0] != "hls 1080p" {
		t.Errorf("failed qualities %v", got)
	}
}

// TestMetadataMapRepeatedKeys: a pair held twice is one pair; a key held with different values
// maps to the JSON array of its values, each once, in the service's order, for the resource and
// the data sources alike.
func TestMetadataMapRepeatedKeys(t *testing.T) {
	got := metadataMap([]videohost.Metadata{{Key: "same", Value: "x"}, {Key: "k", Value: "2"}, {Key: "same", Value: "x"},
		{Key: "k", Value: "1"}, {Key: "k", Value: "2"}, {Key: "one", Value: ""}})
	want := map[string]string{"same": "x", "k": `["2","1"]`, "one": ""}
	if !maps.Equal(got, want) {
		t.Errorf("metadataMap = %v, want %v", got, want)
	}
	if m := VideoModelFrom(videohost.Video{Metadata: []videohost.Metadata{{Key: "k", Value: "1"}, {Key: "k", Value: "2"}}}); m.Metadata["k"] != `["1","2"]` {
		t.Errorf("the data source's metadata is %v", m.Metadata)
	}
}
