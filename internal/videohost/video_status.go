package videohost

import (
	"context"
	"net/http"
	"slices"
)

// States of a video's ingest: the source is still arriving (uploading), or complete.
const (
	IngestUploading = "uploading"
	IngestUploaded  = "uploaded"
	IngestIngesting = "ingesting"
	IngestIngested  = "ingested"
)

// States of one encoded quality.
const (
	QualityWaiting  = "waiting"
	QualityEncoding = "encoding"
	QualityEncoded  = "encoded"
	QualityFailed   = "failed"
)

// VideoStatus is GET /videos/{id}/status: how much of the source arrived, and how its encoding
// goes.
type VideoStatus struct {
	Ingest   *IngestStatus  `json:"ingest"` // nil before any byte arrived
	Encoding EncodingStatus `json:"encoding"`
}

// IngestStatus is the source's part of a VideoStatus.
type IngestStatus struct {
	Status        string         `json:"status"`   // uploading|uploaded|ingesting|ingested
	Filesize      *int64         `json:"filesize"` // nil until a chunk gave the total
	ReceivedBytes []ByteRange    `json:"receivedBytes"`
	ReceivedParts *ReceivedParts `json:"receivedParts"`
}

// ByteRange is the bytes From to To, both included, of a file of Total bytes.
type ByteRange struct {
	From  int64 `json:"from"`
	To    int64 `json:"to"`
	Total int64 `json:"total"`
}

// Len is the number of bytes of the range.
func (r ByteRange) Len() int64 { return r.To - r.From + 1 }

// ReceivedParts are the parts that arrived of an upload in the "part N/TOTAL" form.
type ReceivedParts struct {
	Parts []int `json:"parts"`
	Total *int  `json:"total"`
}

// EncodingStatus is the encoding's part of a VideoStatus.
type EncodingStatus struct {
	Playable  bool      `json:"playable"`
	Qualities []Quality `json:"qualities"`
}

// Quality is one output of the encoding, e.g. hls 720p.
type Quality struct {
	Type    string `json:"type"`
	Quality string `json:"quality"`
	Status  string `json:"status"` // waiting|encoding|encoded|failed
}

// GetVideoStatus reads a video's ingest and encoding status; errors.Is(err, ErrNotFound) when
// the video is absent.
func (c *Client) GetVideoStatus(ctx context.Context, id string) (VideoStatus, error) {
	if id == "" {
		return VideoStatus{}, errEmptyID
	}
	return doDecoded[VideoStatus](ctx, c, request{method: http.MethodGet, path: videoCollection.item(id) + "/status"})
}

// Complete reports whether the service holds the whole source: the ingest went past uploading.
func (s VideoStatus) Complete() bool {
	return s.Ingest != nil && s.Ingest.Status != "" && s.Ingest.Status != IngestUploading
}

// Received is how many bytes of [0,size) the status lists as received.
func (s VideoStatus) Received(size int64) int64 {
	n := size
	for _, r := range s.Missing(size) {
		n -= r.Len()
	}
	return n
}

// Missing returns the byte ranges of [0,size) the status does not list as received, in order,
// each with Total size. Nothing is missing of a complete source; everything is before any byte
// arrived. Ranges the service lists past size are ignored: the caller compares the size.
func (s VideoStatus) Missing(size int64) []ByteRange {
	if size <= 0 || s.Complete() {
		return nil
	}
	var got []ByteRange
	if s.Ingest != nil {
		got = slices.Clone(s.Ingest.ReceivedBytes)
	}
	slices.SortFunc(got, func(a, b ByteRange) int {
		switch {
		case a.From < b.From:
			return -1
		case a.From > b.From:
			return 1
		}
		return 0
	})
	var out []ByteRange
	next := int64(0) // the first byte not yet known to be received
	for _, r := range got {
		if r.To < r.From || r.To < next {
			continue
		}
		if r.From > next {
			out = append(out, ByteRange{From: next, To: min(r.From, size) - 1, Total: size})
		}
		next = r.To + 1
		if next >= size {
			return out
		}
	}
	return append(out, ByteRange{From: next, To: size - 1, Total: size})
}
