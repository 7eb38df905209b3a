package provider

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// The actions over the protocol, as Terraform 1.14 calls them, so that these run in every go
// test whatever CLI is on PATH (the acceptance tests of actions_test.go need Terraform 1.14).

// invoke calls InvokeAction and returns its progress messages and its final diagnostics.
func (p *protoServer) invoke(actionType string, config map[string]tftypes.Value) ([]string, []*tfprotov6.Diagnostic) {
	p.t.Helper()
	s, ok := p.schemas.ActionSchemas[actionType]
	if !ok {
		p.t.Fatalf("no action schema %s", actionType)
	}
	as, ok := p.srv.(tfprotov6.ActionServer)
	if !ok {
		p.t.Fatalf("the provider server %T serves no actions", p.srv)
	}
	stream, err := as.InvokeAction(p.t.Context(), &tfprotov6.InvokeActionRequest{
		ActionType: actionType,
		Config:     p.dynamic(s.Schema.ValueType(), config),
	})
	if err != nil {
		p.t.Fatal(err)
	}
	var progress []string
	var diags []*tfprotov6.Diagnostic
	for ev := range stream.Events {
		switch e := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			progress = append(progress, e.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			diags = e.Diagnostics
		}
	}
	return progress, diags
}

func errorText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			b.WriteString(d.Summary + ": " + d.Detail + "\n")
		}
	}
	return b.String()
}

// TestLiveStreamCompleteWaits: the action reads the live stream until it no longer broadcasts,
// saying so while it waits. The service here takes the complete and ends the broadcast only
// when the stream has been read once after it; with wait = false the stream is not read.
func TestLiveStreamCompleteWaits(t *testing.T) {
	var completes, readsAfter atomic.Int32
	var id string
	emu, baseURL := serveEmulator(t, emulator.Options{}, func(e *emulator.Emulator) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/complete"):
				completes.Add(1)
				w.WriteHeader(http.StatusAccepted)
				return
			case r.Method == http.MethodGet && r.URL.Path == "/live-streams/"+id && completes.Load() > 0:
				if readsAfter.Add(1) == 2 {
					if err := e.SetBroadcasting(id, false); err != nil {
						t.Error(err)
					}
				}
			}
			e.ServeHTTP(w, r)
		})
	})
	key := emu.APIKeys()[0]
	c, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	ls, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: "studio"})
	if err != nil {
		t.Fatal(err)
	}
	id = ls.ID
	if err := emu.SetBroadcasting(id, true); err != nil {
		t.Fatal(err)
	}
	p := newProtoServer(t, baseURL, key, map[string]tftypes.Value{"auth_scheme": str("basic")})

	progress, diags := p.invoke("videohost_live_stream_complete", map[string]tftypes.Value{"live_stream_id": str(id)})
	requireNoErrors(t, "InvokeAction", diags)
	text := strings.Join(progress, "\n")
	for _, want := range []string{"Asking the service to end the broadcast of live stream " + id, "still broadcasts", "no longer broadcasts"} {
		if !strings.Contains(text, want) {
			t.Errorf("progress does not say %q:\n%s", want, text)
		}
	}
	if n := readsAfter.Load(); n != 2 {
		t.Errorf("the live stream was read %d times after the complete, want 2 (broadcasting, then not)", n)
	}

	if err := emu.SetBroadcasting(id, true); err != nil {
		t.Fatal(err)
	}
	readsAfter.Store(0)
	progress, diags = p.invoke("videohost_live_stream_complete", map[string]tftypes.Value{"live_stream_id": str(id), "wait": tftypes.NewValue(tftypes.Bool, false)})
	requireNoErrors(t, "InvokeAction", diags)
	if n := readsAfter.Load(); n != 0 || completes.Load() != 2 || !strings.Contains(strings.Join(progress, "\n"), "not waiting") {
		t.Errorf("wait = false: %d completes, %d reads after; progress %q", completes.Load(), n, progress)
	}
}

// TestWebhookCheckRefusals: an event the webhook does not subscribe to is refused on event, and
// an unknown webhook on webhook_id, before anything is sent to a receiver.
func TestWebhookCheckRefusals(t *testing.T) {
	emu, baseURL := serveEmulator(t, emulator.Options{}, nil)
	key := emu.APIKeys()[0]
	c, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	var received atomic.Int32
	receiver := newCountingServer(t, &received)
	w, err := c.CreateWebhook(t.Context(), videohost.CreateWebhookInput{URL: receiver, Events: []string{events.VideoSourceRecorded}})
	if err != nil {
		t.Fatal(err)
	}
	p := newProtoServer(t, baseURL, key, map[string]tftypes.Value{"auth_scheme": str("basic")})

	_, diags := p.invoke("videohost_webhook_check", map[string]tftypes.Value{"webhook_id": str(w.ID), "event": str(events.VideoSummaryGenerated)})
	if text := errorText(diags); !strings.Contains(text, "Event Not Subscribed") || !strings.Contains(text, events.VideoSourceRecorded) {
		t.Errorf("an event not subscribed: %q", text)
	}
	if len(diags) == 0 || diags[0].Attribute == nil || !diags[0].Attribute.Equal(tftypes.NewAttributePath().WithAttributeName("event")) {
		t.Errorf("the refusal is not on event: %+v", diags)
	}
	_, diags = p.invoke("videohost_webhook_check", map[string]tftypes.Value{"webhook_id": str("webhook_doesnotexist00000")})
	if errorText(diags) == "" {
		t.Error("a check of an unknown webhook succeeded")
	}
	if n := received.Load(); n != 0 {
		t.Errorf("the receiver got %d deliveries from refused checks", n)
	}
}

// newCountingServer is a receiver that counts what it gets and answers 204; it returns its address.
func newCountingServer(t *testing.T, n *atomic.Int32) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		n.Add(1)
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
