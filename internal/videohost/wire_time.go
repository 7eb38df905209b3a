package videohost

import (
	"encoding/json"
	"fmt"
	"time"
)

var _ json.Unmarshaler = (*wireTime)(nil)

// wireLayouts are the date-time forms the service is known to send: RFC 3339 with an offset
// (ATOM, e.g. 2024-08-08T14:12:18+00:00) or Z, with or without fractions, and the ISO 8601
// offset without a colon that some serialisers write.
var wireLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999Z0700"}

// wireTime decodes one date-time member; an absent, null or empty member leaves it unset, so
// that a record without the member still decodes.
type wireTime struct {
	t   time.Time
	set bool
}

func (w *wireTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("videohost: a date-time must be a string, got %s", b)
	}
	if s == "" {
		return nil
	}
	t, err := parseWireTime(s)
	if err != nil {
		return err
	}
	w.t, w.set = t, true
	return nil
}

func (w wireTime) ptr() *time.Time {
	if !w.set {
		return nil
	}
	t := w.t
	return &t
}

func parseWireTime(s string) (time.Time, error) {
	for _, layout := range wireLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("videohost: %q is not an RFC 3339 date-time", s)
}
