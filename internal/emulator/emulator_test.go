package emulator_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestDateFollowsClock: the service's answers, errors included, are dated by the emulator's
// clock, which AdvanceClock moves, so that a client that judges an expiry by the service's
// time sees the time that expired it, not the machine's.
func TestDateFollowsClock(t *testing.T) {
	start := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEnv(t, emulator.Options{Now: func() time.Time { return start }})
	e.emu.AdvanceClock(time.Hour)
	for _, path := range []string{"/webhooks", "/upload-tokens/to0000000000000000000000"} {
		r := e.do(http.MethodGet, path, basic(e.key), nil)
		got, err := http.ParseTime(r.header.Get("Date"))
		if err != nil || !got.Equal(start.Add(time.Hour)) {
			t.Errorf("GET %s (%d): Date %q, want %s", path, r.status, r.header.Get("Date"), start.Add(time.Hour).Format(http.TimeFormat))
		}
	}
}
