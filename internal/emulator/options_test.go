package emulator_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestOptionsValidation(t *testing.T) {
	for name, o := range map[string]emulator.Options{
		"environment":     {Environment: "prod"},
		"negative ttl":    {TokenTTL: -time.Second},
		"negative max":    {MaxWebhooks: -1},
		"relative docs":   {DocsURL: "docs/errors"},
		"negative limit":  {Limits: emulator.Limits{Reads: -1}},
		"negative window": {RateWindow: -time.Second},
		"negative seeds":  {SeedVideos: -1},
		"empty key":       {APIKeys: []string{""}},
		"empty other key": {OtherEnvironmentKeys: []string{""}},
		"shared key":      {APIKeys: []string{"k"}, OtherEnvironmentKeys: []string{"k"}},
		"latency":         {Faults: emulator.Faults{Latency: -time.Second}},
		"burst":           {Faults: emulator.Faults{Burst429: -1}},
		"commit rate":     {Faults: emulator.Faults{CommitThen500Rate: 1.01}},
		"upload commit":   {Faults: emulator.Faults{UploadCommitThen500Rate: -0.1}},
		"upload cuts":     {Faults: emulator.Faults{UploadCuts: -1}},
		"cut bytes":       {Faults: emulator.Faults{UploadCutAfterBytes: -1}},
		"ingest delay":    {IngestDelay: -time.Millisecond},
		"encoding delay":  {EncodingDelay: -time.Millisecond},
		"language":        {DetectedLanguage: "klingon"},
	} {
		if _, err := emulator.New(o); err == nil {
			t.Errorf("%s: New accepted %+v", name, o)
		}
	}
}

func TestTokenTTLRoundedUp(t *testing.T) {
	e := newEnv(t, emulator.Options{TokenTTL: 1500 * time.Millisecond, Environment: "production"})
	if r := e.tokens(); r.num("expires_in") != 2 {
		t.Errorf("expires_in %d for 1.5 s, want 2", r.num("expires_in"))
	}
	if e.emu.Environment() != "production" {
		t.Errorf("Environment() = %q", e.emu.Environment())
	}
}

func TestMethodsForInProcessUse(t *testing.T) {
	start := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	e := newEnv(t, emulator.Options{Now: func() time.Time { return start }})
	if !e.emu.Now().Equal(start) {
		t.Errorf("Now() = %v", e.emu.Now())
	}
	e.emu.AdvanceClock(time.Hour)
	e.emu.AdvanceClock(-time.Hour) // ignored
	if !e.emu.Now().Equal(start.Add(time.Hour)) {
		t.Errorf("Now() after an hour = %v", e.emu.Now())
	}
	ls, err := e.emu.CreateLiveStream("studio")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.emu.CreateLiveStream(" "); !errors.Is(err, emulator.ErrInvalid) {
		t.Errorf("CreateLiveStream with a blank name: %v", err)
	}
	vid, err := e.emu.RecordLiveStream(ls, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.emu.RecordLiveStream("li_none", time.Second); !errors.Is(err, emulator.ErrNotFound) {
		t.Errorf("RecordLiveStream of an unknown stream: %v", err)
	}
	if _, err := e.emu.RecordLiveStream(ls, 31*time.Second); !errors.Is(err, emulator.ErrInvalid) {
		t.Errorf("RecordLiveStream of 31 s in the sandbox: %v", err)
	}
	v := e.api("GET", "/videos/"+vid, nil)
	expectStatus(t, v, http.StatusOK)
	if v.str("createdAt") != "2030-01-02T04:04:05+00:00" {
		t.Errorf("createdAt %q does not follow the injected clock", v.str("createdAt"))
	}
	if id, err := e.emu.GenerateCaption(vid, "de"); err != nil || id == "" {
		t.Errorf("GenerateCaption: %q %v", id, err)
	}
	if _, err := e.emu.GenerateCaption(vid, "???"); !errors.Is(err, emulator.ErrInvalid) {
		t.Errorf("GenerateCaption with a bad language: %v", err)
	}
	if _, err := e.emu.UploadVideo(emulator.VideoInput{Title: "t", Metadata: []emulator.Metadatum{{Key: "", Value: "v"}}}); !errors.Is(err, emulator.ErrInvalid) {
		t.Errorf("UploadVideo with an empty metadata key: %v", err)
	}
	if err := e.emu.SetBroadcasting("li_none", true); !errors.Is(err, emulator.ErrNotFound) {
		t.Errorf("SetBroadcasting of an unknown stream: %v", err)
	}
}
