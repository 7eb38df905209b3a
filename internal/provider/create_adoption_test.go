package provider

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

type fakeObject struct {
	id, value string
	created   time.Time
}

// fakeCreates is a service of fakeObjects whose creates fail with an unknown outcome as
// often as told, storing the object or not. Every create sends the value "v".
type fakeCreates struct {
	objects  []fakeObject
	creates  int
	failures []bool // per failing attempt: whether it stored the object
}

func (f *fakeCreates) adoptable() adoptableCreate[fakeObject] {
	const value = "v"
	return adoptableCreate[fakeObject]{
		kind: "thing", path: "/things",
		create: func(context.Context) (fakeObject, error) {
			f.creates++
			o := fakeObject{id: fmt.Sprintf("o%d", len(f.objects)), value: value, created: time.Now()}
			if len(f.failures) > 0 {
				stored := f.failures[0]
				f.failures = f.failures[1:]
				if stored {
					f.objects = append(f.objects, o)
				}
				return fakeObject{}, &videohost.AmbiguousError{Method: "POST", Path: "/things", Err: errors.New("502")}
			}
			f.objects = append(f.objects, o)
			return o, nil
		},
		list:    func(context.Context) ([]fakeObject, error) { return append([]fakeObject(nil), f.objects...), nil },
		matches: func(o fakeObject) bool { return o.value == value },
		id:      func(o fakeObject) string { return o.id },
		created: func(o fakeObject) *time.Time { return &o.created },
	}
}

func TestCreateAdoptingAdoptsWhatTheAttemptStored(t *testing.T) {
	pd := &providerData{baseURL: "http://adopt-" + t.Name()}
	f := &fakeCreates{failures: []bool{true}}
	// An object with the same value made long before: not what this create stored.
	f.objects = []fakeObject{{id: "old", value: "v", created: time.Now().Add(-time.Hour)}}
	got, err := createAdopting(t.Context(), pd, f.adoptable())
	if err != nil || got.id != "o1" || f.creates != 1 {
		t.Fatalf("got %+v, %v after %d creates; want the stored o1 adopted after one create", got, err, f.creates)
	}
}

func TestCreateAdoptingSendsAgainWhenNothingWasStored(t *testing.T) {
	pd := &providerData{baseURL: "http://adopt-" + t.Name()}
	f := &fakeCreates{failures: []bool{false}}
	got, err := createAdopting(t.Context(), pd, f.adoptable())
	if err != nil || f.creates != 2 || len(f.objects) != 1 || got.id != f.objects[0].id {
		t.Fatalf("got %+v, %v after %d creates, objects %v; want one object from the second create", got, err, f.creates, f.objects)
	}
}

func TestCreateAdoptingGivesUpAmbiguous(t *testing.T) {
	pd := &providerData{baseURL: "http://adopt-" + t.Name()}
	f := &fakeCreates{failures: []bool{false, false, false}}
	_, err := createAdopting(t.Context(), pd, f.adoptable())
	if !errors.Is(err, videohost.ErrAmbiguous) || f.creates != adoptionCreateAttempts {
		t.Fatalf("err %v after %d creates; want ErrAmbiguous after %d", err, f.creates, adoptionCreateAttempts)
	}
}

func TestCreateAdoptingNeverTakesAClaimedObject(t *testing.T) {
	pd := &providerData{baseURL: "http://adopt-" + t.Name()}
	f := &fakeCreates{}
	first, err := createAdopting(t.Context(), pd, f.adoptable())
	if err != nil {
		t.Fatal(err)
	}
	// A second create of the same value whose attempt stored nothing must not take the
	// first one's object, which another resource now holds.
	f.failures = []bool{false}
	second, err := createAdopting(t.Context(), pd, f.adoptable())
	if err != nil || second.id == first.id || f.creates != 3 {
		t.Fatalf("second = %+v, %v after %d creates; first was %s", second, err, f.creates, first.id)
	}
}
