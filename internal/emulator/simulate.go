package emulator

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/events"
)

// Errors of the simulations; the control API answers ErrNotFound with 404 and the others with
// 400.
var (
	ErrNotFound = errors.New("not found")
	ErrInvalid  = errors.New("invalid")
)

// simError is an error of a simulation: its kind (ErrNotFound or ErrInvalid, for errors.Is) and
// the words the control API answers with.
type simError struct {
	kind   error
	detail string
}

func (e *simError) Error() string { return e.kind.Error() + ": " + e.detail }
func (e *simError) Unwrap() error { return e.kind }

func invalidf(format string, a ...any) error {
	return &simError{kind: ErrInvalid, detail: fmt.Sprintf(format, a...)}
}

func notFoundf(format string, a ...any) error {
	return &simError{kind: ErrNotFound, detail: fmt.Sprintf(format, a...)}
}

// Limits of the simulated uploads.
const (
	sandboxMaxDuration    = 30 * time.Second
	productionMaxDuration = 1440 * time.Minute
)

// encodingQualities are the versions encoded for every upload, each once in HLS and once in mp4.
var encodingQualities = []string{"240p", "360p", "480p", "720p", "1080p"}

// VideoInput describes a simulated upload.
type VideoInput struct {
	Title       string
	Description string
	Duration    time.Duration // default 10 s
	Tags        []string
	Metadata    []Metadatum
}

// durationNotPositive refuses the duration of a simulation, or of a control request, that is
// not a positive number of seconds.
func durationNotPositive() error {
	return invalidf("the duration must be a positive number of seconds")
}

// checkPositive refuses a duration that is not positive.
func checkPositive(d time.Duration) error {
	if d <= 0 {
		return durationNotPositive()
	}
	return nil
}

// checkDuration refuses the duration d of a simulated upload or recording (what names them)
// that is not positive or that is longer than the environment allows.
func (e *Emulator) checkDuration(d time.Duration, what string) error {
	if err := checkPositive(d); err != nil {
		return err
	}
	if e.opts.Environment == EnvSandbox && d > sandboxMaxDuration {
		return invalidf("the sandbox limits %s to 30 seconds; this one lasts %g seconds", what, d.Seconds())
	}
	if d > productionMaxDuration {
		return invalidf("%s are limited to 1440 minutes", what)
	}
	return nil
}

// uploadVideo simulates an upload and its encoding: the video is stored and one
// video.encoding.quality.completed event is emitted per finished version (hls and mp4 at 240p,
// 360p, 480p, 720p and 1080p). In the sandbox the video is deleted 24 hours later.
func (e *Emulator) uploadVideo(in VideoInput) (videoWire, error) {
	if in.Duration == 0 {
		in.Duration = 10 * time.Second
	}
	if err := e.checkDuration(in.Duration, "videos"); err != nil {
		return videoWire{}, err
	}
	if strings.TrimSpace(in.Title) == "" {
		return videoWire{}, invalidf("the title is required")
	}
	for _, m := range in.Metadata {
		if m.Key == "" {
			return videoWire{}, invalidf("every metadata item needs a key")
		}
	}
	now := e.now().UTC().Truncate(time.Second)
	v := &video{
		ID:          randomID("vi", 22),
		Title:       in.Title,
		Description: in.Description,
		Language:    "en",
		CreatedAt:   now,
		PublishedAt: now,
		UpdatedAt:   now,
		videoProperties: videoProperties{
			Public: true, MP4Support: true, Tags: slices.Clone(in.Tags), Metadata: slices.Clone(in.Metadata),
		},
		SourceType: sourceUpload,
		Duration:   in.Duration.Seconds(),
		ExpiresAt:  e.sandboxExpiry(now),
		videoMedia: encodedMedia(encodingQualities),
	}
	e.mu.Lock()
	e.purgeExpiredLocked(e.now())
	e.st.Videos = append(e.st.Videos, v)
	wire := e.toVideoWire(v)
	e.mu.Unlock()
	e.saveStateLogged()
	for _, q := range encodingQualities {
		for _, enc := range []string{"hls", "mp4"} {
			e.emit(events.VideoEncodingQualityCompleted, map[string]string{"videoId": v.ID, "encoding": enc, "quality": q})
		}
	}
	return wire, nil
}

// createLiveStream stores a new live stream, not broadcasting.
func (e *Emulator) createLiveStream(name string) (liveStreamWire, error) {
	if strings.TrimSpace(name) == "" {
		return liveStreamWire{}, invalidf("the name is required")
	}
	l := e.newLiveStream(name)
	e.mu.Lock()
	e.st.LiveStreams = append(e.st.LiveStreams, l)
	wire := toLiveStreamWire(l)
	e.mu.Unlock()
	e.saveStateLogged()
	return wire, nil
}

// newStreamKey returns a random version 4 UUID, the form of the service's stream keys.
func newStreamKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms.
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	s := hex.EncodeToString(b[:])
	return s[0:8] + "-" + s[8:12] + "-" + s[12:16] + "-" + s[16:20] + "-" + s[20:32]
}

// liveStreamLocked is the stored live stream id, or an error wrapping ErrNotFound; the caller
// holds e.mu.
func (e *Emulator) liveStreamLocked(id string) (*liveStream, error) {
	i := liveStreams.find(&e.st, id)
	if i < 0 {
		return nil, notFoundf("no live stream %s", id)
	}
	return e.st.LiveStreams[i], nil
}

// setBroadcasting starts (true) or ends (false) a live stream's broadcast and emits
// live-stream.broadcast.started or live-stream.broadcast.ended. Ending sets broadcasting back
// to false, a choice the specification leaves open.
func (e *Emulator) setBroadcasting(liveStreamID string, on bool) (liveStreamWire, error) {
	e.mu.Lock()
	l, err := e.liveStreamLocked(liveStreamID)
	if err != nil {
		e.mu.Unlock()
		return liveStreamWire{}, err
	}
	now := e.now().UTC().Truncate(time.Second)
	l.Broadcasting = on
	l.UpdatedAt = now
	if on {
		l.BroadcastStartedAt = now
	} else {
		l.BroadcastStartedAt = time.Time{}
	}
	wire := toLiveStreamWire(l)
	e.mu.Unlock()
	e.saveStateLogged()
	name := events.LiveStreamBroadcastEnded
	if on {
		name = events.LiveStreamBroadcastStarted
	}
	e.emit(name, map[string]string{"liveStreamId": liveStreamID})
	return wire, nil
}

// recordLiveStream simulates the recording of a live stream: a new video whose
// source.liveStream is the live stream is stored and video.source.recorded is emitted. In the
// sandbox, recordings over 30 s are refused and the video is deleted 24 hours later.
func (e *Emulator) recordLiveStream(liveStreamID string, duration time.Duration) (videoWire, error) {
	if duration == 0 {
		duration = 10 * time.Second
	}
	if err := e.checkDuration(duration, "live streams"); err != nil {
		return videoWire{}, err
	}
	now := e.now().UTC().Truncate(time.Second)
	e.mu.Lock()
	l, err := e.liveStreamLocked(liveStreamID)
	if err != nil {
		e.mu.Unlock()
		return videoWire{}, err
	}
	v := &video{
		ID:              randomID("vi", 22),
		Title:           l.Name + " (recording)",
		Language:        "en",
		CreatedAt:       now,
		PublishedAt:     now,
		UpdatedAt:       now,
		videoProperties: videoProperties{Public: l.Public, MP4Support: true},
		SourceType:      sourceLive,
		LiveStreamID:    l.ID,
		Duration:        duration.Seconds(),
		ExpiresAt:       e.sandboxExpiry(now),
		videoMedia:      encodedMedia(sourceQualities),
	}
	e.purgeExpiredLocked(e.now())
	e.st.Videos = append(e.st.Videos, v)
	wire := e.toVideoWire(v)
	e.mu.Unlock()
	e.saveStateLogged()
	e.emit(events.VideoSourceRecorded, map[string]string{"liveStreamId": liveStreamID, "videoId": v.ID})
	return wire, nil
}

// languageTag is a loose IETF language tag: a primary language and optional subtags.
var languageTag = regexp.MustCompile(`^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$`)

// generateCaption simulates an automatic caption (generationMode transcript) of a video in
// language and emits video.caption.generated.
func (e *Emulator) generateCaption(videoID, language string) (map[string]string, error) {
	if language == "" {
		language = "en"
	}
	if !languageTag.MatchString(language) {
		return nil, invalidf("language must be an IETF language tag such as en or fr-CA")
	}
	if err := e.requireVideo(videoID); err != nil {
		return nil, err
	}
	out := map[string]string{
		"videoId":        videoID,
		"captionId":      randomID("caption_", 22),
		"generationMode": "transcript",
		"language":       language,
	}
	e.emit(events.VideoCaptionGenerated, out)
	return out, nil
}

// generateSummary simulates an automatic summary of a video and emits video.summary.generated;
// the video then has a summary, so asking for another is 409.
func (e *Emulator) generateSummary(videoID string) (map[string]string, error) {
	found := false
	summaryID := ""
	e.withFreshStore(func() {
		if i := videos.find(&e.st, videoID); i >= 0 {
			found = true
			v := *e.st.Videos[i]
			v.SummaryMade = true
			e.st.Videos[i] = &v
			summaryID = e.summaryOfLocked(&v)
		}
	})
	if !found {
		return nil, notFoundf("no video %s", videoID)
	}
	e.saveStateLogged()
	out := map[string]string{"videoId": videoID, "summaryId": summaryID}
	e.emit(events.VideoSummaryGenerated, out)
	return out, nil
}

func (e *Emulator) requireVideo(id string) error {
	var ok bool
	e.withFreshStore(func() { ok = videos.find(&e.st, id) >= 0 })
	if !ok {
		return notFoundf("no video %s", id)
	}
	return nil
}

// UploadVideo simulates an upload and its encoding (see the control API's POST
// /_emulator/videos) and returns the new video's id.
func (e *Emulator) UploadVideo(in VideoInput) (string, error) {
	v, err := e.uploadVideo(in)
	return v.VideoID, err
}

// CreateLiveStream stores a new live stream and returns its id.
func (e *Emulator) CreateLiveStream(name string) (string, error) {
	l, err := e.createLiveStream(name)
	return l.LiveStreamID, err
}

// SetBroadcasting starts (true) or ends (false) a live stream's broadcast and emits the event.
func (e *Emulator) SetBroadcasting(liveStreamID string, on bool) error {
	_, err := e.setBroadcasting(liveStreamID, on)
	return err
}

// RecordLiveStream simulates a recording of the live stream and returns the new video's id.
func (e *Emulator) RecordLiveStream(liveStreamID string, duration time.Duration) (string, error) {
	v, err := e.recordLiveStream(liveStreamID, duration)
	return v.VideoID, err
}

// GenerateCaption simulates an automatic caption and returns the caption's id.
func (e *Emulator) GenerateCaption(videoID, language string) (string, error) {
	c, err := e.generateCaption(videoID, language)
	return c["captionId"], err
}

// GenerateSummary simulates an automatic summary and returns the summary's id.
func (e *Emulator) GenerateSummary(videoID string) (string, error) {
	s, err := e.generateSummary(videoID)
	return s["summaryId"], err
}
