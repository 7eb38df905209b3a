package emulator_test

import (
	"fmt"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestLiveStreamAndPlayerRateClasses checks that the writes of both collections (POST, PATCH,
// DELETE) use the writes window and their reads the reads window, with the headers on each.
func TestLiveStreamAndPlayerRateClasses(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Reads: 50, Writes: 7}})
	steps := []struct {
		method, path string
		body         any
		status       int
		write        bool
	}{
		{method: "POST", path: "/players", body: map[string]any{}, status: 201, write: true},
		{method: "GET", path: "/players", status: 200},
		{method: "PATCH", path: "/players/pt_none", body: map[string]any{}, status: 404, write: true},
		{method: "DELETE", path: "/players/pt_none", status: 404, write: true},
		{method: "GET", path: "/players/pt_none", status: 404},
		{method: "POST", path: "/live-streams", body: map[string]any{"name": "s"}, status: 200, write: true},
		{method: "GET", path: "/live-streams", status: 200},
		{method: "PATCH", path: "/live-streams/li_none", body: map[string]any{}, status: 404, write: true},
		{method: "DELETE", path: "/live-streams/li_none", status: 404, write: true},
		{method: "GET", path: "/live-streams/li_none", status: 404},
	}
	reads, writes := 0, 0
	for _, s := range steps {
		r := e.api(s.method, s.path, s.body)
		expectStatus(t, r, s.status)
		limit, remaining, _ := rateHeaders(t, r)
		if s.write {
			writes++
			if limit != 7 || remaining != 7-writes {
				t.Errorf("%s %s: limit %d remaining %d, want the writes window (%d left)", s.method, s.path, limit, remaining, 7-writes)
			}
		} else {
			reads++
			if limit != 50 || remaining != 50-reads {
				t.Errorf("%s %s: limit %d remaining %d, want the reads window (%d left)", s.method, s.path, limit, remaining, 50-reads)
			}
		}
	}
	expectStatus(t, e.api("PATCH", "/players/pt_none", map[string]any{}), http.StatusNotFound)
	expectStatus(t, e.api("POST", "/live-streams", map[string]any{"name": "over"}), http.StatusTooManyRequests)
	if st := e.emu.RateStats(); st.Writes.Requests != 8 || st.Writes.TooManyRequests != 1 || st.Reads.Requests != 4 {
		t.Errorf("RateStats %+v", st)
	}
	for _, tc := range []struct {
		method, prefix string
		want           int
	}{
		{method: "PATCH", prefix: "/players", want: 2},
		{method: "POST", prefix: "/live-streams", want: 2},
		{method: "", prefix: "/live-streams", want: 6},
		{method: "DELETE", prefix: "/players/pt_none", want: 1},
	} {
		if n := e.emu.RequestCount(tc.method, tc.prefix); n != tc.want {
			t.Errorf("RequestCount(%q, %q) = %d, want %d", tc.method, tc.prefix, n, tc.want)
		}
	}
}

// TestLiveStreamAndPlayerFaults checks that the injected faults reach both collections: 500s
// before the handler for any method, read errors for GET only, and commit-then-500 on creates
// and updates, which store the change and answer 500 all the same.
func TestLiveStreamAndPlayerFaults(t *testing.T) {
	e := newEnv(t, emulator.Options{Limits: emulator.Limits{Writes: 1000, Reads: 1000}})
	ls := e.createLiveStream(map[string]any{"name": "s"}).str("liveStreamId")
	pt := e.createPlayer(map[string]any{}).str("playerId")
	doomed := e.createLiveStream(map[string]any{"name": "doomed"}).str("liveStreamId")

	e.emu.SetFaults(emulator.Faults{CommitThen500Rate: 1})
	for _, tc := range []struct {
		method, path string
		body         map[string]any
	}{
		{method: "POST", path: "/live-streams", body: map[string]any{"name": "committed"}},
		{method: "PATCH", path: "/live-streams/" + ls, body: map[string]any{"name": "renamed"}},
		{method: "POST", path: "/players", body: map[string]any{"name": "committed"}},
		{method: "PATCH", path: "/players/" + pt, body: map[string]any{"name": "renamed"}},
	} {
		r := e.api(tc.method, tc.path, tc.body)
		expectStatus(t, r, http.StatusInternalServerError)
		rateHeaders(t, r)
	}
	// Deletes are not drawn: they answer as usual.
	expectStatus(t, e.api("DELETE", "/live-streams/"+doomed, nil), http.StatusNoContent)
	if c := e.emu.FaultCounts(); c.CommitThen500 != 4 {
		t.Errorf("FaultCounts %+v, want 4 commit-then-500s", c)
	}
	e.emu.SetFaults(emulator.Faults{})
	var names []string
	for _, path := range []string{"/live-streams", "/players?sortBy=createdAt"} {
		for _, it := range e.api("GET", path, nil).data() {
			names = append(names, fmt.Sprint(it["name"]))
		}
	}
	if fmt.Sprint(names) != "[renamed committed renamed committed]" {
		t.Errorf("stored after commit-then-500: %v", names)
	}

	e.emu.SetFaults(emulator.Faults{ReadErrorRate: 1})
	expectStatus(t, e.api("GET", "/live-streams/"+ls, nil), http.StatusInternalServerError)
	expectStatus(t, e.api("GET", "/players", nil), http.StatusInternalServerError)
	expectStatus(t, e.api("PATCH", "/players/"+pt, map[string]any{}), http.StatusOK)
	e.emu.SetFaults(emulator.Faults{ErrorRate: 1})
	expectStatus(t, e.api("DELETE", "/players/"+pt, nil), http.StatusInternalServerError)
	expectStatus(t, e.api("PATCH", "/live-streams/"+ls, map[string]any{"name": "not stored"}), http.StatusInternalServerError)
	e.emu.SetFaults(emulator.Faults{Latency: 100 * time.Millisecond})
	start := time.Now()
	expectStatus(t, e.api("DELETE", "/players/"+pt, nil), http.StatusNoContent)
	if d := time.Since(start); d < 100*time.Millisecond {
		t.Errorf("delete answered after %v with 100 ms of latency", d)
	}
	if g := e.api("GET", "/live-streams/"+ls, nil); g.str("name") != "renamed" {
		t.Errorf("a 500 before the handler changed the live stream: %s", g.raw)
	}
}

func TestLiveStreamsAndPlayersSurviveRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.json")
	opts := emulator.Options{APIKeys: []string{"k"}, StatePath: path}
	first := newEnv(t, opts)
	pt := first.createPlayer(map[string]any{"name": "Brand", "link": "rgba(1,2,3,.5)", "hideTitle": true})
	ls := first.createLiveStream(map[string]any{
		"name": "Show", "public": false, "playerId": pt.str("playerId"),
		"restreams": []map[string]any{{"name": "R", "serverUrl": "rtmp://h.test/app", "streamKey": "secret"}},
	})
	updated := first.api("PATCH", "/live-streams/"+ls.str("liveStreamId"), map[string]any{"name": "Show 2"})
	expectStatus(t, updated, http.StatusOK)
	if err := first.emu.Close(); err != nil {
		t.Fatal(err)
	}

	second := newEnv(t, opts)
	for _, want := range []response{pt, updated} {
		path := "/players/" + want.str("playerId")
		if want.str("liveStreamId") != "" {
			path = "/live-streams/" + want.str("liveStreamId")
		}
		if g := second.api("GET", path, nil); string(g.raw) != string(want.raw) {
			t.Errorf("after restart %s = %s, want %s", path, g.raw, want.raw)
		}
	}
	// The restored theme is still known to the live streams' rules.
	second.api("DELETE", "/players/"+pt.str("playerId"), nil)
	if g := second.api("GET", "/live-streams/"+ls.str("liveStreamId"), nil); g.str("playerId") != "" {
		t.Errorf("restored live stream kept a deleted theme: %s", g.raw)
	}
}
