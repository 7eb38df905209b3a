package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testDocs = "https://docs.example.test/reference"

func testProviderData() *providerData {
	return &providerData{environment: videohost.EnvironmentProduction, baseURL: "https://api.example.test"}
}

// diagnose runs addAPIErrorDiagnostics and returns its diagnostics.
func diagnose(t *testing.T, err error) diag.Diagnostics {
	t.Helper()
	var diags diag.Diagnostics
	addAPIErrorDiagnostics(&diags, "Unable to Create Webhook", err, testProviderData(), webhookAttributePaths)
	if len(diags) == 0 {
		t.Fatalf("no diagnostic for %v", err)
	}
	for _, d := range diags {
		if d.Severity() != diag.SeverityError {
			t.Errorf("severity %v, want error: %v", d.Severity(), d)
		}
		if d.Summary() != "Unable to Create Webhook" {
			t.Errorf("summary %q, want the caller's", d.Summary())
		}
	}
	return diags
}

func requireContains(t *testing.T, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%q\ndoes not contain %q", s, w)
		}
	}
}

func TestDiagnosticsProblemsOnAttributes(t *testing.T) {
	err := &videohost.Error{
		Method: "POST", Path: "/webhooks", Status: 400,
		Type: testDocs + "/attribute-required", Title: "This attribute is required.", Name: "events",
		Problems: []videohost.Problem{
			{Type: testDocs + "/attribute-required", Title: "This attribute is required.", Name: "events"},
			{Type: testDocs + "/invalid-attribute", Title: "This attribute must be a URL.", Name: "url"},
			{Type: testDocs + "/invalid-attribute", Title: "Unknown attribute.", Name: "colour"},
		},
	}
	diags := diagnose(t, err)
	if len(diags) != 3 {
		t.Fatalf("got %d diagnostics, want one per problem: %v", len(diags), diags)
	}
	wantPaths := []path.Path{path.Root("events"), path.Root("url")}
	for i, want := range wantPaths {
		wp, ok := diags[i].(diag.DiagnosticWithPath)
		if !ok || !wp.Path().Equal(want) {
			t.Errorf("diagnostic %d is not on %s: %#v", i, want, diags[i])
		}
	}
	if _, ok := diags[2].(diag.DiagnosticWithPath); ok {
		t.Errorf("a problem naming no attribute must not be an attribute error: %#v", diags[2])
	}
	requireContains(t, diags[0].Detail(), "This attribute is required.", testDocs+"/attribute-required", "correct it")
	requireContains(t, diags[1].Detail(), "This attribute must be a URL.", testDocs+"/invalid-attribute")
	requireContains(t, diags[2].Detail(), "colour", "Unknown attribute.")
}

func TestDiagnosticsExtraMemberOnAttribute(t *testing.T) {
	err := &videohost.Error{
		Method: "POST", Path: "/webhooks", Status: 400, Type: testDocs + "/invalid-attribute",
		Title: "Invalid attributes.", Extra: map[string]any{"events": "This attribute must be an array."},
	}
	diags := diagnose(t, err)
	wp, ok := diags[0].(diag.DiagnosticWithPath)
	if len(diags) != 1 || !ok || !wp.Path().Equal(path.Root("events")) {
		t.Fatalf("want one error on events, got %v", diags)
	}
	requireContains(t, diags[0].Detail(), "This attribute must be an array.", "Invalid attributes.", testDocs+"/invalid-attribute")
}

func TestDiagnosticsUnauthorized(t *testing.T) {
	err := &videohost.Error{Method: "GET", Path: "/webhooks", Status: 401, Title: "Unauthorized", Type: testDocs + "/unauthorized"}
	d := diagnose(t, err)[0]
	requireContains(t, d.Detail(),
		"API key was refused by the production environment at https://api.example.test; sandbox and production keys differ",
		"Unauthorized", testDocs+"/unauthorized")
}

func TestDiagnosticsRateLimited(t *testing.T) {
	err := &videohost.Error{Method: "POST", Path: "/webhooks", Status: 429, Title: "Too many requests.", Class: videohost.ClassWrites, Type: testDocs + "/too-many-requests"}
	d := diagnose(t, fmt.Errorf("creating: %w", err))[0]
	requireContains(t, d.Detail(), "writes rate limit", "re-running is safe", "Too many requests.", testDocs+"/too-many-requests")
}

func TestDiagnosticsWebhookLimit(t *testing.T) {
	err := &videohost.Error{Method: "POST", Path: "/webhooks", Status: 400, Title: "Your account has reached the webhook urls limit.", Type: testDocs + "/webhook-limit"}
	diags := diagnose(t, err)
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	requireContains(t, diags[0].Detail(), "Delete a webhook", "limit to be raised", "Your account has reached the webhook urls limit.", testDocs+"/webhook-limit")
}

func TestDiagnosticsNotFound(t *testing.T) {
	err := &videohost.Error{Method: "GET", Path: "/webhooks/x", Status: 404, Title: "The requested resource could not be found.", Name: "webhookId"}
	var diags diag.Diagnostics
	addAPIErrorDiagnostics(&diags, "Unable to Read Webhook", err, testProviderData(), map[string]path.Path{"webhookId": path.Root("id")})
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	requireContains(t, diags[0].Detail(), "no such object", "The requested resource could not be found.", "webhookId")
}

func TestDiagnosticsAmbiguous(t *testing.T) {
	cause := &videohost.Error{Method: "POST", Path: "/webhooks", Status: 500, Title: "Server error"}
	err := &videohost.AmbiguousError{Method: "POST", Path: "/webhooks", Err: cause}
	d := diagnose(t, err)[0]
	requireContains(t, d.Detail(), "may already have been applied", "https://api.example.test")
}

func TestDiagnosticsServerError(t *testing.T) {
	err := &videohost.Error{Method: "GET", Path: "/videos", Status: 500, Title: "Server error"}
	d := diagnose(t, err)[0]
	requireContains(t, d.Detail(), "server error", "Re-run later", "Server error")
}

func TestDiagnosticsTransportAndCancel(t *testing.T) {
	d := diagnose(t, errors.New("dial tcp 127.0.0.1:1: connection refused"))[0]
	requireContains(t, d.Detail(), "could not be reached", "https://api.example.test", "connection refused")

	d = diagnose(t, fmt.Errorf("GET /webhooks: %w", context.Canceled))[0]
	requireContains(t, d.Detail(), "interrupted", "A read changes nothing")
}

func TestDiagnosticsWithoutProviderData(t *testing.T) {
	var diags diag.Diagnostics
	addAPIErrorDiagnostics(&diags, "Unable to Read Webhook", &videohost.Error{Status: 401}, nil, webhookAttributePaths)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "refused") {
		t.Fatalf("got %v", diags)
	}
	addAPIErrorDiagnostics(&diags, "Unused", nil, nil, nil)
	if len(diags) != 1 {
		t.Fatalf("a nil error added a diagnostic: %v", diags)
	}
}
