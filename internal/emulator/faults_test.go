package emulator_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestFaultErrorRate(t *testing.T) {
	e := newEnv(t, emulator.Options{Faults: emulator.Faults{ErrorRate: 0.5}})
	var statuses []int
	for range 10 {
		statuses = append(statuses, e.api("GET", "/webhooks", nil).status)
	}
	n500 := 0
	for _, s := range statuses {
		if s == 500 {
			n500++
		}
	}
	if n500 != 5 {
		t.Errorf("%d of 10 answered 500 at rate 0.5: %v", n500, statuses)
	}
	// Injected 500s carry the rate-limit headers.
	e.emu.SetFaults(emulator.Faults{ErrorRate: 1})
	r := e.api("GET", "/webhooks", nil)
	expectStatus(t, r, http.StatusInternalServerError)
	rateHeaders(t, r)
	// Control requests and auth are not subject to faults.
	expectStatus(t, e.ctl("GET", "/stats", nil), http.StatusOK)
	e.tokens()
}

func TestFault429Burst(t *testing.T) {
	e := newEnv(t, emulator.Options{Faults: emulator.Faults{Burst429: 2}})
	for i := range 2 {
		r := e.api("GET", "/webhooks", nil)
		expectStatus(t, r, http.StatusTooManyRequests)
		if _, rem, ra := rateHeaders(t, r); rem != 0 || ra < 1 {
			t.Errorf("burst %d: remaining %d retry %d", i, rem, ra)
		}
	}
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
	f := e.ctl("PUT", "/faults", map[string]any{"burst429": 1})
	expectStatus(t, f, http.StatusOK)
	if f.num("burst429") != 1 {
		t.Errorf("faults answer: %s", f.raw)
	}
	expectStatus(t, e.api("POST", "/webhooks", map[string]any{}), http.StatusTooManyRequests)
	expectStatus(t, e.api("POST", "/webhooks", map[string]any{}), http.StatusBadRequest)
}

func TestFaultCommitThen500(t *testing.T) {
	e := newEnv(t, emulator.Options{Faults: emulator.Faults{CommitThen500Rate: 0.5}})
	var statuses []int
	for i := range 6 {
		statuses = append(statuses, e.api("POST", "/webhooks", map[string]any{"url": fmt.Sprintf("https://r.test/%d", i), "events": []string{"video.summary.generated"}}).status)
	}
	if fmt.Sprint(statuses) != "[201 500 201 500 201 500]" {
		t.Errorf("statuses %v", statuses)
	}
	if n := len(e.emu.Webhooks()); n != 6 {
		t.Errorf("%d webhooks stored, want all 6 (the 500s committed)", n)
	}
}

func TestFaultLatencyAndControl(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	expectStatus(t, e.ctl("PUT", "/faults", map[string]any{"latencyMs": 150}), http.StatusOK)
	start := time.Now()
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Errorf("answer after %v with 150 ms of latency", el)
	}
	if f := e.emu.CurrentFaults(); f.Latency != 150*time.Millisecond {
		t.Errorf("CurrentFaults %+v", f)
	}
	for _, bad := range []any{
		map[string]any{"errorRate": 1.5}, map[string]any{"commitThen500Rate": -0.1}, map[string]any{"latencyMs": -1},
		map[string]any{"burst429": -2}, map[string]any{"unknown": 1}, "{",
	} {
		expectStatus(t, e.ctl("PUT", "/faults", bad), http.StatusBadRequest)
	}
	g := e.ctl("GET", "/faults", nil)
	if g.num("latencyMs") != 150 || g.num("burst429") != 0 {
		t.Errorf("faults after bad PUTs: %s", g.raw)
	}
	if _, err := emulator.New(emulator.Options{Faults: emulator.Faults{ErrorRate: 2}}); err == nil {
		t.Error("New accepted an error rate of 2")
	}
}
