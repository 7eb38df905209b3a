package emulator

import (
	"net/http"
	"strings"
	"time"
)

// The views that the analytics answer from. The service counts what its player reports; the
// emulator has no player, so the control API records plays (POST /_emulator/plays), each with
// what the player would report of its viewer.

// play is one recorded view of a video or a live stream: its impression (the player loaded),
// and unless Played is false its start, its play and WatchTime seconds watched, and its end
// when Ended.
type play struct {
	MediaID         string    `json:"mediaId"`
	MediaType       string    `json:"mediaType"`
	At              time.Time `json:"at"`
	Viewer          string    `json:"viewer"`
	Country         string    `json:"country,omitempty"`
	Continent       string    `json:"continent,omitempty"`
	DeviceType      string    `json:"deviceType,omitempty"`
	OperatingSystem string    `json:"operatingSystem,omitempty"`
	Browser         string    `json:"browser,omitempty"`
	Referrer        string    `json:"referrer,omitempty"`
	// Tags are the video's when it was played: the tag filter selects by them.
	Tags           []string `json:"tags,omitempty"`
	Played         bool     `json:"played"`
	Ended          bool     `json:"ended,omitempty"`
	WatchTime      float64  `json:"watchTime"`
	ImpressionTime float64  `json:"impressionTime"`
}

// PlayInput describes plays to record; zero values take the defaults that RecordPlays lists.
type PlayInput struct {
	MediaID         string   `json:"mediaId"`
	Viewer          string   `json:"viewer"`
	Country         string   `json:"country"`
	Continent       string   `json:"continent"`
	DeviceType      string   `json:"deviceType"`
	OperatingSystem string   `json:"operatingSystem"`
	Browser         string   `json:"browser"`
	Referrer        string   `json:"referrer"`
	Played          *bool    `json:"played"`
	Ended           bool     `json:"ended"`
	WatchTime       *float64 `json:"watchTime"`
	ImpressionTime  *float64 `json:"impressionTime"`
	At              string   `json:"at"`
	Count           int      `json:"count"`
}

// Defaults and bounds of a recorded play.
const (
	defaultWatchTime      = 10.0  // seconds
	defaultImpressionTime = 500.0 // milliseconds
	maxPlaysAtOnce        = 10000
)

// continents are the continents of the countries that a play names without one (ISO 3166
// alpha-2 to the service's continent codes); a country outside this short list needs continent.
var continents = map[string]string{
	"FR": "EU", "DE": "EU", "GB": "EU", "ES": "EU", "IT": "EU", "NL": "EU", "BE": "EU", "CH": "EU",
	"PL": "EU", "SE": "EU", "IE": "EU", "PT": "EU", "US": "NA", "CA": "NA", "MX": "NA", "BR": "SA",
	"AR": "SA", "CL": "SA", "JP": "AS", "CN": "AS", "IN": "AS", "KR": "AS", "SG": "AS", "AU": "AZ",
	"NZ": "AZ", "ZA": "AF", "NG": "AF", "EG": "AF", "MA": "AF", "KE": "AF",
}

// RecordPlays records in.Count plays (default 1, at most 10,000) of the video or live stream
// in.MediaID, at in.At (RFC 3339; default now), each by its own viewer unless in.Viewer names
// one; played unless in.Played is false, watched for in.WatchTime seconds (default 10), loaded in
// in.ImpressionTime milliseconds (default 500). The country is an ISO 3166 alpha-2 code; the
// continent, when not given, is the country's.
func (e *Emulator) RecordPlays(in PlayInput) ([]play, error) {
	p, count, err := e.newPlay(in)
	if err != nil {
		return nil, err
	}
	out := make([]play, 0, count)
	e.mu.Lock()
	switch {
	case videos.find(&e.st, p.MediaID) >= 0:
		p.MediaType, p.Tags = "video", append([]string(nil), e.st.Videos[videos.find(&e.st, p.MediaID)].Tags...)
	case liveStreams.find(&e.st, p.MediaID) >= 0:
		p.MediaType = "live-stream"
	default:
		e.mu.Unlock()
		return nil, notFoundf("no video or live stream has the id %q", p.MediaID)
	}
	for range count {
		rec := p
		if rec.Viewer == "" {
			rec.Viewer = randomID("viewer_", 12)
		}
		e.st.Plays = append(e.st.Plays, &rec)
		out = append(out, rec)
	}
	e.mu.Unlock()
	e.saveStateLogged()
	return out, nil
}

// newPlay checks in and fills its defaults; the media's type and tags are the caller's.
func (e *Emulator) newPlay(in PlayInput) (play, int, error) {
	p := play{
		MediaID: in.MediaID, Viewer: in.Viewer, Country: strings.ToUpper(in.Country), Continent: strings.ToUpper(in.Continent),
		DeviceType: in.DeviceType, OperatingSystem: in.OperatingSystem, Browser: in.Browser, Referrer: in.Referrer,
		Played: in.Played == nil || *in.Played, Ended: in.Ended, WatchTime: defaultWatchTime, ImpressionTime: defaultImpressionTime,
		At: e.now().UTC(),
	}
	if p.MediaID == "" {
		return p, 0, invalidf("mediaId is required: the id of a video or a live stream")
	}
	if p.Continent == "" {
		p.Continent = continents[p.Country]
	}
	if in.WatchTime != nil {
		p.WatchTime = *in.WatchTime
	}
	if in.ImpressionTime != nil {
		p.ImpressionTime = *in.ImpressionTime
	}
	if p.WatchTime < 0 || p.ImpressionTime < 0 {
		return p, 0, invalidf("watchTime and impressionTime must not be negative")
	}
	if !p.Played {
		p.WatchTime, p.Ended = 0, false
	}
	if in.At != "" {
		at, err := time.Parse(time.RFC3339, in.At)
		if err != nil {
			return p, 0, invalidf("at must be an RFC 3339 date-time, such as 2024-02-05T10:00:00Z")
		}
		p.At = at.UTC()
	}
	count := max(in.Count, 1)
	if in.Count < 0 || count > maxPlaysAtOnce {
		return p, 0, invalidf("count must be between 1 and %d", maxPlaysAtOnce)
	}
	return p, count, nil
}

// ctlRecordPlays serves POST /_emulator/plays.
func (e *Emulator) ctlRecordPlays(_ *http.Request, in PlayInput) ([]play, error) {
	return e.RecordPlays(in)
}

// analyticsControlRoutes are the control API's routes of the analytics (see ControlIndex).
func (e *Emulator) analyticsControlRoutes() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"POST " + controlPrefix + "/plays": simulation(e, http.StatusCreated, "mediaId", e.ctlRecordPlays),
	}
}
