package videohost

// Tests of the video status call and what it tells of a source upload.

import (
	"net/http"
	"reflect"
	"testing"
)

func TestGetVideoStatusDecodesTheSpecificationSample(t *testing.T) {
	const sample = `{"ingest": {"status": "uploading", "filesize": 273579401,
	  "receivedBytes": [{"from": 0, "to": 134217727, "total": 273579401}],
	  "receivedParts": {"parts": [1, 2], "total": 3}},
	 "encoding": {"playable": true,
	  "qualities": [{"type": "hls", "quality": "720p", "status": "encoding"}],
	  "metadata": {"width": 1280, "height": 720}}}`
	f := newFakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/videos/vi1/status" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(sample))
	})
	s, err := f.client(t).GetVideoStatus(t.Context(), "vi1")
	if err != nil {
		t.Fatal(err)
	}
	three := 3
	size := int64(273579401)
	want := VideoStatus{
		Ingest: &IngestStatus{Status: IngestUploading, Filesize: &size,
			ReceivedBytes: []ByteRange{{0, 134217727, size}}, ReceivedParts: &ReceivedParts{Parts: []int{1, 2}, Total: &three}},
		Encoding: EncodingStatus{Playable: true, Qualities: []Quality{{"hls", "720p", QualityEncoding}}},
	}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("status = %+v\nwant %+v", s, want)
	}
	if s.Complete() || s.Received(size) != 134217728 {
		t.Fatalf("complete %v, received %d", s.Complete(), s.Received(size))
	}
}

func TestVideoStatusMissing(t *testing.T) {
	st := func(status string, rs ...ByteRange) VideoStatus {
		return VideoStatus{Ingest: &IngestStatus{Status: status, ReceivedBytes: rs}}
	}
	tests := []struct {
		name string
		s    VideoStatus
		size int64
		want []ByteRange
	}{
		{"nothing arrived", VideoStatus{}, 100, []ByteRange{{0, 99, 100}}},
		{"complete", st(IngestIngested), 100, nil},
		{"head received", st(IngestUploading, ByteRange{0, 39, 100}), 100, []ByteRange{{40, 99, 100}}},
		{"tail received", st(IngestUploading, ByteRange{60, 99, 100}), 100, []ByteRange{{0, 59, 100}}},
		{"holes, unsorted", st(IngestUploading, ByteRange{50, 59, 100}, ByteRange{10, 19, 100}), 100,
			[]ByteRange{{0, 9, 100}, {20, 49, 100}, {60, 99, 100}}},
		{"overlapping", st(IngestUploading, ByteRange{0, 49, 100}, ByteRange{30, 69, 100}), 100, []ByteRange{{70, 99, 100}}},
		{"all ranges", st(IngestUploading, ByteRange{0, 49, 100}, ByteRange{50, 99, 100}), 100, nil},
		{"beyond the size", st(IngestUploading, ByteRange{0, 9, 200}, ByteRange{150, 199, 200}), 100, []ByteRange{{10, 99, 100}}},
		{"empty file", VideoStatus{}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Missing(tt.size); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Missing = %v, want %v", got, tt.want)
			}
		})
	}
}
