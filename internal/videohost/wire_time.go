package videohost

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
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

// decodeRecord is the UnmarshalJSON of the API's records (a struct of exported fields): it
// decodes b into rec as encoding/json would, except that the date-times (its time.Time and
// *time.Time fields) are decoded as wireTime, since time.Time's own decoding refuses an empty
// date-time and an offset without a colon. An absent, null or empty date-time leaves its field
// zero (nil). The decoding goes through a struct of the same fields and tags in which the
// date-times are wireTime (recordShadow): it has none of the record's methods, so that the
// record's UnmarshalJSON is not called again. The other fields are copied into the shadow first
// and back after, so that members absent from b leave rec's values as they were, as json does.
func decodeRecord[T any](b []byte, rec *T) error {
	dst := reflect.ValueOf(rec).Elem()
	shadow := reflect.New(recordShadow(dst.Type())).Elem()
	for i := range dst.NumField() {
		if !isDateTime(dst.Type().Field(i).Type) {
			shadow.Field(i).Set(dst.Field(i))
		}
	}
	if err := json.Unmarshal(b, shadow.Addr().Interface()); err != nil {
		return err
	}
	for i := range dst.NumField() {
		f := shadow.Field(i)
		if !isDateTime(dst.Type().Field(i).Type) {
			dst.Field(i).Set(f)
			continue
		}
		w, _ := f.Addr().Interface().(*wireTime) // The shadow's date-times are wireTime.
		if dst.Type().Field(i).Type == timeType {
			dst.Field(i).Set(reflect.ValueOf(w.t))
		} else {
			dst.Field(i).Set(reflect.ValueOf(w.ptr()))
		}
	}
	return nil
}

var (
	timeType     = reflect.TypeFor[time.Time]()
	timePtrType  = reflect.TypeFor[*time.Time]()
	wireTimeType = reflect.TypeFor[wireTime]()
)

// recordShadows holds each record type's shadow, made once.
var recordShadows struct {
	sync.RWMutex
	of map[reflect.Type]reflect.Type
}

func isDateTime(t reflect.Type) bool { return t == timeType || t == timePtrType }

// recordShadow is the struct that decodeRecord decodes a record of type t into: t's fields and
// tags, the date-times as wireTime.
func recordShadow(t reflect.Type) reflect.Type {
	recordShadows.RLock()
	s, ok := recordShadows.of[t]
	recordShadows.RUnlock()
	if ok {
		return s
	}
	fields := make([]reflect.StructField, t.NumField())
	for i := range fields {
		f := t.Field(i)
		fields[i] = reflect.StructField{Name: f.Name, Type: f.Type, Tag: f.Tag}
		if isDateTime(f.Type) {
			fields[i].Type = wireTimeType
		}
	}
	s = reflect.StructOf(fields)
	recordShadows.Lock()
	defer recordShadows.Unlock()
	if recordShadows.of == nil {
		recordShadows.of = map[reflect.Type]reflect.Type{}
	}
	recordShadows.of[t] = s
	return s
}
