package videohost

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// datedKind is a record type of the API with its date-time members, decoded from a body into
// the values of those members in their order (nil for an unset one).
type datedKind struct {
	name    string
	members []string
	decode  func([]byte) ([]*time.Time, error)
}

// valueTime is a time.Time field as the pointer the table compares: nil when zero.
func valueTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

// datedKinds are every record type whose UnmarshalJSON is decodeRecord.
var datedKinds = []datedKind{
	{"Video", []string{"createdAt", "publishedAt", "updatedAt", "discardedAt", "deletesAt"}, func(b []byte) ([]*time.Time, error) {
		var v Video
		err := json.Unmarshal(b, &v)
		return []*time.Time{v.CreatedAt, v.PublishedAt, v.UpdatedAt, v.DiscardedAt, v.DeletesAt}, err
	}},
	{"LiveStream", []string{"createdAt", "updatedAt"}, func(b []byte) ([]*time.Time, error) {
		var l LiveStream
		err := json.Unmarshal(b, &l)
		return []*time.Time{l.CreatedAt, l.UpdatedAt}, err
	}},
	{"PlayerTheme", []string{"createdAt", "updatedAt"}, func(b []byte) ([]*time.Time, error) {
		var p PlayerTheme
		err := json.Unmarshal(b, &p)
		return []*time.Time{p.CreatedAt, p.UpdatedAt}, err
	}},
	{"Summary", []string{"createdAt", "updatedAt"}, func(b []byte) ([]*time.Time, error) {
		var s Summary
		err := json.Unmarshal(b, &s)
		return []*time.Time{s.CreatedAt, s.UpdatedAt}, err
	}},
	{"UploadToken", []string{"createdAt", "expiresAt"}, func(b []byte) ([]*time.Time, error) {
		var u UploadToken
		err := json.Unmarshal(b, &u)
		return []*time.Time{u.CreatedAt, u.ExpiresAt}, err
	}},
	{"Watermark", []string{"createdAt"}, func(b []byte) ([]*time.Time, error) {
		var w Watermark
		err := json.Unmarshal(b, &w)
		return []*time.Time{w.CreatedAt}, err
	}},
	{"Webhook", []string{"createdAt"}, func(b []byte) ([]*time.Time, error) {
		var w Webhook
		err := json.Unmarshal(b, &w)
		return []*time.Time{valueTime(w.CreatedAt)}, err
	}},
	{"AnalyticsTimeframe", []string{"from", "to"}, func(b []byte) ([]*time.Time, error) {
		var a AnalyticsTimeframe
		err := json.Unmarshal(b, &a)
		return []*time.Time{a.From, a.To}, err
	}},
}

// datedBody is a record with every member of names set to value (raw JSON), and a member that
// no record has.
func datedBody(names []string, value string) []byte {
	parts := []string{`"somethingNew": {"x": 1}`}
	for _, n := range names {
		parts = append(parts, `"`+n+`": `+value)
	}
	return []byte("{" + strings.Join(parts, ", ") + "}")
}

// TestRecordDateTimes: every record decodes its date-times in each form the service is known
// to send (with an offset, Z, fractions, an offset without a colon) to the same instant, leaves
// them unset when they are null, empty or absent, and refuses one that is not a date-time.
func TestRecordDateTimes(t *testing.T) {
	instant := time.Date(2024, 8, 8, 14, 12, 18, 0, time.UTC)
	for _, k := range datedKinds {
		for _, form := range []string{`"2024-08-08T14:12:18+00:00"`, `"2024-08-08T14:12:18Z"`, `"2024-08-08T16:12:18.000+02:00"`, `"2024-08-08T16:12:18+0200"`} {
			got, err := k.decode(datedBody(k.members, form))
			if err != nil {
				t.Errorf("%s, %s: %v", k.name, form, err)
				continue
			}
			for i, m := range k.members {
				if got[i] == nil || !got[i].Equal(instant) {
					t.Errorf("%s.%s from %s: %v, want %v", k.name, m, form, got[i], instant)
				}
			}
		}
		for _, unset := range []string{`null`, `""`} {
			got, err := k.decode(datedBody(k.members, unset))
			for i, m := range k.members {
				if err != nil || got[i] != nil {
					t.Errorf("%s.%s from %s: %v, %v; want unset", k.name, m, unset, got[i], err)
				}
			}
		}
		if got, err := k.decode([]byte(`{}`)); err != nil || got[0] != nil {
			t.Errorf("%s without date-times: %v, %v", k.name, got, err)
		}
		for _, bad := range []string{`"yesterday"`, `12`} {
			if _, err := k.decode(datedBody(k.members[:1], bad)); err == nil {
				t.Errorf("%s.%s = %s decoded without an error", k.name, k.members[0], bad)
			}
		}
	}
}

// TestRecordDecodesAsJSONDoes: apart from the date-times, a record decodes as encoding/json
// decodes a struct: members match their field ignoring case, and a member absent from the
// body leaves its field as it was, while the date-times are always those of the body.
func TestRecordDecodesAsJSONDoes(t *testing.T) {
	earlier := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	v := Video{ID: "vi_kept", Tags: []string{"kept"}, CreatedAt: &earlier, UpdatedAt: &earlier}
	if err := json.Unmarshal([]byte(`{"TITLE": "New", "updatedAt": "2024-08-08T14:12:18Z"}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.ID != "vi_kept" || len(v.Tags) != 1 || v.Title != "New" {
		t.Errorf("decoded into a video: %+v", v)
	}
	if v.CreatedAt != nil || v.UpdatedAt == nil || v.UpdatedAt.Year() != 2024 {
		t.Errorf("date-times %v %v, want nil and the body's", v.CreatedAt, v.UpdatedAt)
	}
	var wrong Video
	if err := json.Unmarshal([]byte(`{"title": 12}`), &wrong); err == nil {
		t.Error("a title that is a number decoded without an error")
	}
}
