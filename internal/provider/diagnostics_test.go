package provider

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
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

// TestDiagnosticsRestreamProblemInWords: a 400 that names a restream's field lands on it and
// names it by the restream's place, and by the API's name.
func TestDiagnosticsRestreamProblemInWords(t *testing.T) {
	err := &videohost.Error{
		Method: "PATCH", Path: "/live-streams/li1", Status: 400, Title: "Invalid attributes.",
		Problems: []videohost.Problem{{Title: "This attribute must be an RTMP URL.", Name: "restreams[2][serverUrl]"}},
	}
	var diags diag.Diagnostics
	addAPIErrorDiagnostics(&diags, "Unable to Update Live Stream", err, testProviderData(), liveStreamAttributePaths)
	want := path.Root("restreams").AtListIndex(2).AtName("server_url")
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	if wp, ok := diags[0].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(want) {
		t.Errorf("the error is not on %s: %#v", want, diags[0])
	}
	requireContains(t, diags[0].Detail(), "The service rejected the value of restreams[2].server_url (the server_url of "+
		"restream 3 of restreams), which the API names restreams[2][serverUrl]", "This attribute must be an RTMP URL.")
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
	if wp, ok := diags[0].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(path.Root("id")) {
		t.Errorf("a not-found of a read by id must be an error on id: %#v", diags[0])
	}
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

// TestDiagnosticsEachKind checks that each kind of client error gets its own advice, that each
// fact of the error is said once (the advice does not restate the client's words), and where
// the diagnostic lands.
func TestDiagnosticsEachKind(t *testing.T) {
	redirectHint := "The service responded with a redirect to http://other.test/v1/webhooks; the client does not " +
		"follow redirects, which would carry the credentials to an address that was not configured: set base_url " +
		"to http://other.test/v1"
	cases := []struct {
		name string
		err  error
		// want are in the detail; once are in it exactly once; absent are not in it.
		want, once, absent []string
		on                 string // the attribute of the diagnostic; empty for none
	}{
		{name: "rate limited",
			err: &videohost.Error{Method: "POST", Path: "/webhooks", Status: 429, Title: "Too many requests.",
				Class: videohost.ClassWrites, Limit: 40, Retries: 3, Type: testDocs + "/too-many-requests"},
			want: []string{"re-running is safe", "(40 per window)", "(about a minute on the service)", "production environment"},
			once: []string{"Too many requests.", testDocs + "/too-many-requests", "writes rate limit"}},
		{name: "rate limited in a window of 2 s",
			err: &videohost.Error{Method: "POST", Path: "/webhooks", Status: 429, Title: "Too many requests.",
				Class: videohost.ClassWrites, Limit: 8, Window: 2 * time.Second, Retries: 3},
			want:   []string{"writes rate limit (8 per 2 s)", "Waiting for the window to reset (2 s)"},
			absent: []string{"minute"}},
		{name: "redirect with the client's hint",
			err: &videohost.Error{Method: "POST", Path: "/webhooks", Status: 307,
				Location: "http://other.test/v1/webhooks", Hint: redirectHint},
			once: []string{"http://other.test/v1/webhooks", "set base_url to http://other.test/v1", "does not follow redirects",
				"[status 307 on POST /webhooks]"}},
		{name: "redirect without a hint",
			err:  &videohost.Error{Method: "GET", Path: "/webhooks", Status: 302},
			want: []string{"https://api.example.test", "Set base_url"}, once: []string{"does not follow"}},
		{name: "unauthorized says what to check once",
			err: &videohost.Error{Method: "GET", Path: "/webhooks", Status: 401, Title: "Unauthorized",
				Hint: "The service refused the credentials: check that the API key belongs to the production environment"},
			once: []string{"sandbox and production keys differ", "Unauthorized"}, absent: []string{"refused the credentials"}},
		{name: "unreadable response with the client's hint",
			err: &videohost.DecodeError{Method: "GET", Path: "/webhooks", Status: 200, Problem: "decoding the response: not JSON",
				Hint: "check that base_url (https://api.example.test) is the address of the API"},
			want: []string{"cannot read the service's response", "GET /webhooks: decoding the response: not JSON"},
			once: []string{"check that base_url"}},
		{name: "unreadable response without a hint",
			err:  &videohost.DecodeError{Method: "GET", Path: "/webhooks", Status: 200, Problem: "decoding the response", Err: errors.New("json: cannot unmarshal")},
			want: []string{"check that base_url is the address of the API", "json: cannot unmarshal"}},
		{name: "interrupted before sending",
			err:  fmt.Errorf("POST /webhooks: interrupted while waiting: %w", errors.Join(videohost.ErrInterrupted, context.Canceled)),
			want: []string{"cancelled", "was not sent changed nothing", "interrupted while waiting"}},
		{name: "invalid id",
			err:  &videohost.IDError{Reason: `the id ".." holds the path step ".."`},
			want: []string{"cannot be sent to the service", `holds the path step`}},
		{name: "ambiguous without a response gives its cause, not its restatement",
			err:  &videohost.AmbiguousError{Method: "POST", Path: "/webhooks", Err: errors.New("connection reset by peer")},
			want: []string{"connection reset by peer"}, once: []string{"may already have been applied"},
			absent: []string{"the outcome is unknown"}},
		{name: "invalid input naming a mapped parameter",
			err:  &videohost.Error{Method: "POST", Path: "/webhooks", Status: 400, Title: "This attribute must be a URL.", Name: "url"},
			want: []string{"correct what it names", "(parameter url)"}, once: []string{"This attribute must be a URL."},
			on: "url"},
		{name: "not found naming no mapped parameter",
			err:  &videohost.Error{Method: "GET", Path: "/webhooks/x", Status: 404, Title: "The requested resource could not be found."},
			want: []string{"no such object"}},
		{name: "unknown endpoint names base_url, not an object",
			err: &videohost.Error{Method: "GET", Path: "/webhooks/x", Status: 404, Title: "Unrecognized request URL.",
				Type: testDocs + "/unrecognized-request-url"},
			want: []string{"no endpoint of its API, so base_url is wrong", "https://api.example.test", "without a path such as /v1",
				"[status 404 on GET /webhooks/x]"},
			once: []string{"Unrecognized request URL."}, absent: []string{"no such object", "the id is wrong"}},
		{name: "unknown endpoint even where the read maps the 404's parameter",
			err:  &videohost.Error{Method: "GET", Path: "/webhooks", Status: 404, Title: "Unrecognized request URL.", Name: "url"},
			want: []string{"base_url is wrong"}, absent: []string{"no such object"}},
		{name: "another refusal",
			err:  &videohost.Error{Method: "DELETE", Path: "/webhooks", Status: 405, Title: "Method is not allowed for this route."},
			want: []string{"correct what it names", "Method is not allowed", "[status 405 on DELETE /webhooks]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diags := diagnose(t, c.err)
			if len(diags) != 1 {
				t.Fatalf("want one diagnostic, got %v", diags)
			}
			detail := diags[0].Detail()
			requireContains(t, detail, c.want...)
			for _, s := range c.once {
				if n := strings.Count(detail, s); n != 1 {
					t.Errorf("%q is said %d times, want once:\n%s", s, n, detail)
				}
			}
			for _, s := range c.absent {
				if strings.Contains(detail, s) {
					t.Errorf("%q is restated:\n%s", s, detail)
				}
			}
			wp, onAttr := diags[0].(diag.DiagnosticWithPath)
			switch {
			case c.on == "" && onAttr:
				t.Errorf("an error on %s, want one on no attribute", wp.Path())
			case c.on != "" && (!onAttr || !wp.Path().Equal(path.Root(c.on))):
				t.Errorf("want an error on %s, got %#v", c.on, diags[0])
			}
		})
	}
}

// requireContains stops the test when s lacks one of wants.
func requireContains(t *testing.T, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Fatalf("%q\ndoes not contain %q", s, w)
		}
	}
}

// wrappedPhrases matches the phrases in this order in Terraform's output, which wraps long
// lines: a space of a phrase matches any run of white space.
func wrappedPhrases(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// TestAccWrongBaseURLPath points a configuration whose webhook is in the state at the emulator's
// address plus "/v1". The service answers "Unrecognized request URL." to every call under it:
// the refresh must fail with an error that names base_url, for both authentication schemes and
// whether or not the token call gets through (a proxy may serve /auth under any prefix), and
// must neither take the webhook for deleted outside Terraform nor drop it from the state: with
// the right address again, the plan is empty.
func TestAccWrongBaseURLPath(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	env.requireEmulator(t)
	// The same emulator behind a second address whose /v1/auth/ calls reach it: there the token
	// call succeeds and the webhook's read is the first call to meet the unknown endpoint.
	_, tokenOK := serveEmulator(t, emulator.Options{}, func(*emulator.Emulator) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/v1/auth/") {
				r.URL.Path = strings.TrimPrefix(r.URL.Path, "/v1")
			}
			env.Emu.ServeHTTP(w, r)
		})
	})
	right := webhookConfig(env, "", "https://hooks.example.test/wrong-address", "video.source.recorded")
	wrong := func(base, scheme string) string {
		return strings.Replace(right, hcl(env.BaseURL), hcl(base+"/v1")+"\n  auth_scheme = "+hcl(scheme), 1)
	}
	want := func(call string) *regexp.Regexp {
		return wrappedPhrases("Unable to Read Webhook",
			"answered that the address is no endpoint of its API, so base_url is wrong: no object or id is involved",
			"without a path such as /v1", "Unrecognized request URL.", "[status 404 on "+call+"]")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: right},
			{Config: wrong(env.BaseURL, "bearer"), ExpectError: want("POST /auth/api-key")},
			{Config: wrong(tokenOK, "bearer"), ExpectError: want("GET /webhooks")},
			{Config: wrong(env.BaseURL, "basic"), ExpectError: want("GET /webhooks")},
			{
				Config: right,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
		},
	})
}
