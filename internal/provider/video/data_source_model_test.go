package video

// Tests of the video's status model.

import (
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
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
