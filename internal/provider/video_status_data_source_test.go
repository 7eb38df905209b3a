package provider

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"reflect"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func TestVideoWithStatusModelFrom(t *testing.T) {
	size := int64(273579401)
	got, _ := videoWithStatusModelFrom(t.Context(), videoWithStatus{
		video: videohost.Video{ID: "vi1"},
		status: videohost.VideoStatus{
			Ingest: &videohost.IngestStatus{Status: videohost.IngestIngested, Filesize: &size},
			Encoding: videohost.EncodingStatus{Playable: true, Qualities: []videohost.Quality{
				{Type: "hls", Quality: "720p", Status: videohost.QualityEncoded},
				{Type: "mp4", Quality: "360p", Status: videohost.QualityWaiting},
			}},
		},
	})
	want := videoStatusModel{
		Playable: types.BoolValue(true), IngestStatus: types.StringValue("ingested"), SourceSize: types.Int64Value(size),
		Qualities: []videoQualityModel{
			{Type: types.StringValue("hls"), Quality: types.StringValue("720p"), Status: types.StringValue("encoded")},
			{Type: types.StringValue("mp4"), Quality: types.StringValue("360p"), Status: types.StringValue("waiting")},
		},
	}
	m, ok := got.(videoWithStatusModel)
	if !ok || !reflect.DeepEqual(m.videoStatusModel, want) || m.ID.ValueString() != "vi1" {
		t.Errorf("full status: %+v, want %+v", got, want)
	}

	// Before any byte of the source: no ingest, no size, no quality (an empty list, not null).
	got, _ = videoWithStatusModelFrom(t.Context(), videoWithStatus{video: videohost.Video{ID: "vi2"}})
	m, _ = got.(videoWithStatusModel)
	if m.Playable.ValueBool() || !m.IngestStatus.IsNull() || !m.SourceSize.IsNull() || m.Qualities == nil || len(m.Qualities) != 0 {
		t.Errorf("empty video: %+v", m.videoStatusModel)
	}
}

// TestAccVideoDataSource_status: the video data source shows a video's status: nothing yet for
// a video without a source; for one whose source was uploaded and encoded, playable, the size
// of the file uploaded and every quality with its state as the service reports them.
func TestAccVideoDataSource_status(t *testing.T) {
	env := newAccEnv(t, emulator.Options{IngestDelay: time.Millisecond, EncodingDelay: time.Millisecond})
	env.requireEmulator(t)
	c := serviceClient(t, env)
	empty := newTestVideo(t, env)
	encoded := newTestVideo(t, env)
	source := make([]byte, 4096)
	_, _ = rand.Read(source)
	if _, err := c.UploadVideoSource(t.Context(), encoded, videohost.UploadSource{
		Name: "clip.mp4", Reader: bytes.NewReader(source), Size: int64(len(source)),
	}, videohost.UploadOptions{}); err != nil {
		t.Fatal(err)
	}
	// Wait for the encoding to end (the emulator's steps take a millisecond each), so that what
	// the data source reads is the final status.
	var final videohost.VideoStatus
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		st, err := c.GetVideoStatus(t.Context(), encoded)
		if err != nil {
			t.Fatal(err)
		}
		if allEncoded(st) {
			final = st
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the encoding did not end: %+v", st)
		}
	}
	config := env.providerConfig("") + fmt.Sprintf(`
data "videohost_video" "empty" {
  id = %q
}

data "videohost_video" "encoded" {
  id = %q
}
`, empty, encoded)
	const e, enc = "data.videohost_video.empty", "data.videohost_video.encoded"
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
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
				stateCheckFunc(func(s *tfjson.State) error { return qualitiesMatch(s, enc, final.Encoding.Qualities) }),
			},
		}},
	})
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
	attrs, err := stateAttributes(s, addr)
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
