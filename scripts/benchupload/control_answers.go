package main

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// classRate is one rate class of "rateLimits" in GET /_emulator/stats; First and Last are RFC
// 3339 in nanoseconds, null before the class's first request.
type classRate struct {
	Requests        int     `json:"requests"`
	TooManyRequests int     `json:"tooManyRequests"`
	Early           int     `json:"early"`
	First           *string `json:"first"`
	Last            *string `json:"last"`
}

// emulatorStats is what the bench reads of GET /_emulator/stats: the uploads rate class, and the
// bytes of source files received, in all and per video (refused, cut and re-sent chunks
// included).
type emulatorStats struct {
	RateLimits struct {
		Uploads classRate `json:"uploads"`
	} `json:"rateLimits"`
	Uploads struct {
		Bytes  int64            `json:"bytes"`
		Videos map[string]int64 `json:"videos"`
	} `json:"uploads"`
}

func parseStats(b []byte) (emulatorStats, error) {
	var s emulatorStats
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("the emulator's stats are not JSON: %w", err)
	}
	return s, nil
}

// videoIDs are the videos that received source bytes, sorted.
func (s emulatorStats) videoIDs() []string { return slices.Sorted(maps.Keys(s.Uploads.Videos)) }

// uploadsFirst and uploadsLast are when the first and the last upload request arrived.
func (s emulatorStats) uploadsFirst() (time.Time, error) {
	return stamp("rateLimits.uploads.first", s.RateLimits.Uploads.First)
}

func (s emulatorStats) uploadsLast() (time.Time, error) {
	return stamp("rateLimits.uploads.last", s.RateLimits.Uploads.Last)
}

// videoSource is GET /_emulator/videos/{id}/source: SHA256 is null until every chunk arrived,
// CompletedAt when an upload's last chunk made the source complete.
type videoSource struct {
	VideoID     string  `json:"videoId"`
	Complete    bool    `json:"complete"`
	SHA256      *string `json:"sha256"`
	CompletedAt *string `json:"completedAt"`
}

func parseSource(b []byte) (videoSource, error) {
	var s videoSource
	if err := json.Unmarshal(b, &s); err != nil {
		return s, fmt.Errorf("the emulator's report of a source is not JSON: %w", err)
	}
	return s, nil
}

// sha256 is the source's SHA-256, empty while it is incomplete.
func (s videoSource) sha256() string {
	if s.SHA256 == nil {
		return ""
	}
	return *s.SHA256
}

func (s videoSource) completedAt() (time.Time, error) {
	return stamp("the completedAt of the source of "+s.VideoID, s.CompletedAt)
}

func stamp(what string, v *string) (time.Time, error) {
	if v == nil || *v == "" {
		return time.Time{}, fmt.Errorf("the emulator gives no %s", what)
	}
	t, err := time.Parse(time.RFC3339Nano, *v)
	if err != nil {
		return t, fmt.Errorf("the emulator's %s: %w", what, err)
	}
	return t, nil
}

// injectedUploadFaults prints the upload faults of GET /_emulator/faults's "injected" as
// "uploadCommitThen500:4, uploadCut:1", in the answer's order.
func injectedUploadFaults(b []byte) (string, error) {
	var a struct {
		Injected json.RawMessage `json:"injected"`
	}
	if err := json.Unmarshal(b, &a); err != nil || a.Injected == nil {
		return "", fmt.Errorf("the emulator's faults have no \"injected\": %s", b)
	}
	// A decoder keeps the members' order, which a map would lose.
	dec := json.NewDecoder(strings.NewReader(string(a.Injected)))
	var parts []string
	if _, err := dec.Token(); err != nil {
		return "", err
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return "", err
		}
		var n json.Number
		if err := dec.Decode(&n); err != nil {
			return "", err
		}
		if name, _ := k.(string); strings.HasPrefix(name, "upload") {
			parts = append(parts, name+":"+n.String())
		}
	}
	return strings.Join(parts, ", "), nil
}

// itemsTotal reads pagination.itemsTotal of a list answer of the service.
func itemsTotal(b []byte) (int, error) {
	var a struct {
		Pagination *struct {
			ItemsTotal int `json:"itemsTotal"`
		} `json:"pagination"`
	}
	if err := json.Unmarshal(b, &a); err != nil || a.Pagination == nil {
		return 0, fmt.Errorf("the list of videos has no pagination.itemsTotal")
	}
	return a.Pagination.ItemsTotal, nil
}

// uploadShape is what the provider's debug log says of an upload: the chunks in flight and the
// chunk size it chose (the last upload of the log), and how often the rate limiter held a call,
// by reason.
type uploadShape struct {
	inFlight int
	chunkMiB string
	held     string
}

var (
	shapeInFlight = regexp.MustCompile(`chunks_in_flight=([0-9]+)`)
	shapeChunk    = regexp.MustCompile(`chunk_size_mib=([0-9.]+)`)
	heldLine      = regexp.MustCompile(`videohost waiting for the rate limit: .*reason="[^"]*"`)
	heldReason    = regexp.MustCompile(`reason="[^"]*"`)
)

// parseUploadLog reads the provider's debug log of one apply. held is "none" when the limiter
// held nothing, else "N reason=\"...\"" per reason, sorted by reason and joined by commas.
func parseUploadLog(log string) (uploadShape, error) {
	var s uploadShape
	n := shapeInFlight.FindAllStringSubmatch(log, -1)
	c := shapeChunk.FindAllStringSubmatch(log, -1)
	if len(n) == 0 || len(c) == 0 {
		return s, fmt.Errorf("the provider's log has no upload shape line")
	}
	var err error
	if s.inFlight, err = strconv.Atoi(n[len(n)-1][1]); err != nil {
		return s, fmt.Errorf("the provider's log gives chunks_in_flight=%s: %w", n[len(n)-1][1], err)
	}
	s.chunkMiB = c[len(c)-1][1]
	counts := map[string]int{}
	for _, line := range heldLine.FindAllString(log, -1) {
		for _, r := range heldReason.FindAllString(line, -1) {
			counts[r]++
		}
	}
	var parts []string
	for _, r := range slices.Sorted(maps.Keys(counts)) {
		parts = append(parts, fmt.Sprintf("%d %s", counts[r], r))
	}
	s.held = strings.Join(parts, ", ")
	if s.held == "" {
		s.held = "none"
	}
	return s, nil
}
