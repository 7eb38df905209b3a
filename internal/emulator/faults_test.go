package emulator_test

import (
	"fmt"
	"net/http"
	"strings"
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

func TestFaultReadErrorRate(t *testing.T) {
	e := newEnv(t, emulator.Options{Faults: emulator.Faults{ReadErrorRate: 0.5}})
	created := e.api("POST", "/webhooks", map[string]any{"url": "https://r.test/x", "events": []string{"video.summary.generated"}})
	expectStatus(t, created, http.StatusCreated)
	id := created.str("webhookId")
	// Reads and writes interleaved: every second read fails, no write does.
	var reads, writes []int
	for i := range 8 {
		reads = append(reads, e.api("GET", "/webhooks/"+id, nil).status)
		writes = append(writes, e.api("POST", "/webhooks", map[string]any{"url": fmt.Sprintf("https://r.test/%d", i), "events": []string{"video.summary.generated"}}).status)
	}
	if fmt.Sprint(reads) != "[200 500 200 500 200 500 200 500]" {
		t.Errorf("reads %v", reads)
	}
	if fmt.Sprint(writes) != "[201 201 201 201 201 201 201 201]" {
		t.Errorf("writes %v (ReadErrorRate must not touch writes)", writes)
	}
	expectStatus(t, e.api("DELETE", "/webhooks/"+id, nil), http.StatusNoContent)
	if c := e.emu.FaultCounts(); c != (emulator.FaultCounts{ReadError500: 4}) {
		t.Errorf("FaultCounts %+v, want 4 read 500s only", c)
	}
	// With both rates, ErrorRate draws first and ReadErrorRate only over what it let through.
	e.emu.SetFaults(emulator.Faults{ErrorRate: 0.5, ReadErrorRate: 1})
	for range 4 {
		expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusInternalServerError)
	}
	if c := e.emu.FaultCounts(); c.Error500 != 2 || c.ReadError500 != 6 {
		t.Errorf("FaultCounts %+v, want 2 from ErrorRate and 4+2 from ReadErrorRate", c)
	}
	if _, err := emulator.New(emulator.Options{Faults: emulator.Faults{ReadErrorRate: 1.01}}); err == nil || !strings.Contains(err.Error(), "read error rate") {
		t.Errorf("New with a read error rate of 1.01: %v", err)
	}
}

func TestFaultCounts(t *testing.T) {
	e := newEnv(t, emulator.Options{Faults: emulator.Faults{ErrorRate: 0.5, Burst429: 3, CommitThen500Rate: 1}})
	if c := e.emu.FaultCounts(); c != (emulator.FaultCounts{}) {
		t.Errorf("counts before any request: %+v", c)
	}
	for range 3 {
		expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusTooManyRequests)
	}
	// ErrorRate 0.5: the first POST passes (then commits and answers 500), the second is a 500
	// before the handler, so nothing is stored for it.
	for i := range 2 {
		expectStatus(t, e.api("POST", "/webhooks", map[string]any{"url": fmt.Sprintf("https://r.test/%d", i), "events": []string{"video.summary.generated"}}), http.StatusInternalServerError)
	}
	want := emulator.FaultCounts{Error500: 1, Burst429: 3, CommitThen500: 1}
	if c := e.emu.FaultCounts(); c != want {
		t.Errorf("FaultCounts %+v, want %+v", c, want)
	}
	if n := len(e.emu.Webhooks()); n != 1 {
		t.Errorf("%d webhooks stored, want 1", n)
	}
	// SetFaults keeps the counts.
	e.emu.SetFaults(emulator.Faults{})
	if c := e.emu.FaultCounts(); c != want {
		t.Errorf("FaultCounts after SetFaults %+v, want %+v", c, want)
	}
	// Control requests and token requests are never faulted, so they do not count.
	e.tokens()
	expectStatus(t, e.ctl("GET", "/stats", nil), http.StatusOK)
	if c := e.emu.FaultCounts(); c != want {
		t.Errorf("FaultCounts after control calls %+v, want %+v", c, want)
	}
}

func TestFaultRateKeptAcrossSetFaults(t *testing.T) {
	// Changing other faults (arming a 429 burst) between reads keeps the read rate's sum, so
	// that 0.25 still fails every fourth read; changing the rate itself starts it again.
	e := newEnv(t, emulator.Options{Faults: emulator.Faults{ReadErrorRate: 0.25}})
	var statuses []int
	for i := range 8 {
		if i%2 == 0 {
			e.emu.SetFaults(emulator.Faults{ReadErrorRate: 0.25, Latency: time.Duration(i) * time.Millisecond})
		}
		statuses = append(statuses, e.api("GET", "/webhooks", nil).status)
	}
	if fmt.Sprint(statuses) != "[200 200 200 500 200 200 200 500]" {
		t.Errorf("statuses %v: SetFaults with the same rate restarted its sum", statuses)
	}
	e.emu.SetFaults(emulator.Faults{ReadErrorRate: 0.25})
	expectStatus(t, e.api("GET", "/webhooks", nil), http.StatusOK)
	e.emu.SetFaults(emulator.Faults{ReadErrorRate: 0.5})
	statuses = statuses[:0]
	for range 2 {
		statuses = append(statuses, e.api("GET", "/webhooks", nil).status)
	}
	if fmt.Sprint(statuses) != "[200 500]" {
		t.Errorf("statuses %v after a new rate: its sum must start from 0", statuses)
	}
}
