package provider_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/livestream"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

const testDocs = "https://docs.example.test/reference"

// diagnose runs addAPIErrorDiagnostics and returns its diagnostics.
func diagnose(t *testing.T, err error) diag.Diagnostics {
	t.Helper()
	var diags diag.Diagnostics
	framework.AddAPIErrorDiagnostics(&diags, "Unable to Create Webhook", err, acctest.TestProviderData(), webhook.WebhookAttributePaths)
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
	acctest.RequireContains(t, diags[0].Detail(), "This attribute is required.", testDocs+"/attribute-required", "correct it")
	acctest.RequireContains(t, diags[1].Detail(), "This attribute must be a URL.", testDocs+"/invalid-attribute")
	acctest.RequireContains(t, diags[2].Detail(), "colour", "Unknown attribute.")
}

// TestDiagnosticsRestreamProblemInWords: a 400 that names a restream's field lands on it and
// names it by the restream's place, and by the API's name.
func TestDiagnosticsRestreamProblemInWords(t *testing.T) {
	err := &videohost.Error{
		Method: "PATCH", Path: "/live-streams/li1", Status: 400, Title: "Invalid attributes.",
		Problems: []videohost.Problem{{Title: "This attribute must be an RTMP URL.", Name: "restreams[2][serverUrl]"}},
	}
	var diags diag.Diagnostics
	framework.AddAPIErrorDiagnostics(&diags, "Unable to Update Live Stream", err, acctest.TestProviderData(), livestream.LiveStreamAttributePaths)
	want := path.Root("restreams").AtListIndex(2).AtName("server_url")
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	if wp, ok := diags[0].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(want) {
		t.Errorf("the error is not on %s: %#v", want, diags[0])
	}
	acctest.RequireContains(t, diags[0].Detail(), "The service rejected the value of restreams[2].server_url (the server_url of "+
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
	acctest.RequireContains(t, diags[0].Detail(), "This attribute must be an array.", "Invalid attributes.", testDocs+"/invalid-attribute")
}

func TestDiagnosticsUnauthorized(t *testing.T) {
	err := &videohost.Error{Method: "GET", Path: "/webhooks", Status: 401, Title: "Unauthorized", Type: testDocs + "/unauthorized"}
	d := diagnose(t, err)[0]
	acctest.RequireContains(t, d.Detail(),
		"API key was refused by the production environment at https://api.example.test; sandbox and production keys differ",
		"Unauthorized", testDocs+"/unauthorized")
}

func TestDiagnosticsRateLimited(t *testing.T) {
	err := &videohost.Error{Method: "POST", Path: "/webhooks", Status: 429, Title: "Too many requests.", Class: videohost.ClassWrites, Type: testDocs + "/too-many-requests"}
	d := diagnose(t, fmt.Errorf("creating: %w", err))[0]
	acctest.RequireContains(t, d.Detail(), "writes rate limit", "re-running is safe", "Too many requests.", testDocs+"/too-many-requests")
}

func TestDiagnosticsWebhookLimit(t *testing.T) {
	err := &videohost.Error{Method: "POST", Path: "/webhooks", Status: 400, Title: "Your account has reached the webhook urls limit.", Type: testDocs + "/webhook-limit"}
	diags := diagnose(t, err)
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	acctest.RequireContains(t, diags[0].Detail(), "Delete a webhook", "limit to be raised", "Your account has reached the webhook urls limit.", testDocs+"/webhook-limit")
}

func TestDiagnosticsNotFound(t *testing.T) {
	err := &videohost.Error{Method: "GET", Path: "/webhooks/x", Status: 404, Title: "The requested resource could not be found.", Name: "webhookId"}
	var diags diag.Diagnostics
	framework.AddAPIErrorDiagnostics(&diags, "Unable to Read Webhook", err, acctest.TestProviderData(), map[string]path.Path{"webhookId": path.Root("id")})
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	acctest.RequireContains(t, diags[0].Detail(), "no such object", "The requested resource could not be found.", "webhookId")
	if wp, ok := diags[0].(diag.DiagnosticWithPath); !ok || !wp.Path().Equal(path.Root("id")) {
		t.Errorf("a not-found of a read by id must be an error on id: %#v", diags[0])
	}
}

func TestDiagnosticsAmbiguous(t *testing.T) {
	cause := &videohost.Error{Method: "POST", Path: "/webhooks", Status: 500, Title: "Server error"}
	err := &videohost.AmbiguousError{Method: "POST", Path: "/webhooks", Err: cause}
	d := diagnose(t, err)[0]
	acctest.RequireContains(t, d.Detail(), "may already have been applied", "https://api.example.test")
}

func TestDiagnosticsServerError(t *testing.T) {
	err := &videohost.Error{Method: "GET", Path: "/videos", Status: 500, Title: "Server error"}
	d := diagnose(t, err)[0]
	acctest.RequireContains(t, d.Detail(), "server error", "Re-run later", "Server error")
}

func TestDiagnosticsTransportAndCancel(t *testing.T) {
	d := diagnose(t, errors.New("dial tcp 127.0.0.1:1: connection refused"))[0]
	acctest.RequireContains(t, d.Detail(), "could not be reached", "https://api.example.test", "connection refused")

	d = diagnose(t, fmt.Errorf("GET /webhooks: %w", context.Canceled))[0]
	acctest.RequireContains(t, d.Detail(), "interrupted", "A read changes nothing")
}

func TestDiagnosticsWithoutProviderData(t *testing.T) {
	var diags diag.Diagnostics
	framework.AddAPIErrorDiagnostics(&diags, "Unable to Read Webhook", &videohost.Error{Status: 401}, nil, webhook.WebhookAttributePaths)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail(), "refused") {
		t.Fatalf("got %v", diags)
	}
	framework.AddAPIErrorDiagnostics(&diags, "Unused", nil, nil, nil)
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
			acctest.RequireContains(t, detail, c.want...)
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

// TestAccWrongBaseURLPath points a configuration whose webhook is in the state at the emulator's
// address plus "/v1". The service answers "Unrecognized request URL." to every call under it:
// the refresh must fail with an error that names base_url, for both authentication schemes and
// whether or not the token call gets through (a proxy may serve /auth under any prefix), and
// must neither take the webhook for deleted outside Terraform nor drop it from the state: with
// the right address again, the plan is empty.
func TestAccWrongBaseURLPath(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	env.RequireEmulator(t)
	// The same emulator behind a second address whose /v1/auth/ calls reach it: there the token
	// call succeeds and the webhook's read is the first call to meet the unknown endpoint.
	_, tokenOK := acctest.ServeEmulator(t, emulator.Options{}, func(*emulator.Emulator) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/v1/auth/") {
				r.URL.Path = strings.TrimPrefix(r.URL.Path, "/v1")
			}
			env.Emu.ServeHTTP(w, r)
		})
	})
	right := acctest.WebhookConfig(env, "", "https://hooks.example.test/wrong-address", "video.source.recorded")
	wrong := func(base, scheme string) string {
		return strings.Replace(right, acctest.Hcl(env.BaseURL), acctest.Hcl(base+"/v1")+"\n  auth_scheme = "+acctest.Hcl(scheme), 1)
	}
	want := func(call string) *regexp.Regexp {
		return acctest.WrappedPhrases("Unable to Read Webhook",
			"answered that the address is no endpoint of its API, so base_url is wrong: no object or id is involved",
			"without a path such as /v1", "Unrecognized request URL.", "[status 404 on "+call+"]")
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
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

// sourceLines are the lines of the configuration that Terraform quotes under a diagnostic.
var sourceLines = regexp.MustCompile(`(?m)^\s*\d+:.*$`)

// TestAccBadInput runs every row as its own subtest against its own emulator, or the endpoint
// through a proxy of its own (or a hostile server), and checks the diagnostic, that no secret
// is in it, that a configuration error wrote nothing, and which rows never reached the service.
func TestAccBadInput(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	rows := slices.Concat(webhookBadInput(), providerBadInput(), acctest.DataSourceIDBadInput(), acctest.DataSourceFilterBadInput(),
		importBadInput(), hostileBadInput())
	var mu sync.Mutex
	var silent []string
	t.Cleanup(func() {
		t.Logf("%d rows; %d caught before any request to the service: %s", len(rows), len(silent), strings.Join(silent, "; "))
	})
	for _, row := range rows {
		t.Run(row.Name, func(t *testing.T) {
			acctest.Parallel(t)
			if row.NotOnOpenTofu != "" && acctest.CliIsOpenTofu(t) {
				t.Skip(row.NotOnOpenTofu)
			}
			if runBadInputRow(t, row) {
				mu.Lock()
				silent = append(silent, row.Name)
				mu.Unlock()
			}
		})
	}
}

// runBadInputRow runs one row and reports whether it was caught before any request to the
// service; false against a hostile server, which checks what it saw itself.
func runBadInputRow(t *testing.T, row acctest.BadInputRow) (silent bool) {
	var env *acctest.AccEnv
	var after func(*testing.T)
	if row.Hostile != nil {
		env = &acctest.AccEnv{APIKey: "hostile-key-9Zx4"}
		env.BaseURL, after = row.Hostile(t)
	} else {
		env = acctest.NewAccEnv(t, emulator.Options{})
		if row.OwnProvider && env.Emu == nil {
			// Against a real endpoint the key stays out of the configuration files: a row that
			// writes the provider block itself gets a stand-in key, which every such row refuses
			// before any request, as it would the real one.
			stand := *env
			stand.APIKey = "stand-in-key-4Rq8"
			env = &stand
		}
	}
	providerBlock := env.ProviderConfig(row.ProviderBody)
	if row.Hostile != nil {
		providerBlock = fmt.Sprintf("provider \"videohost\" {\n  base_url = %q\n  api_key = %q\n  %s\n}\n",
			env.BaseURL, env.APIKey, row.ProviderBody)
	}
	if row.OwnProvider {
		providerBlock = fmt.Sprintf("provider \"videohost\" {\n  "+row.ProviderBody+"\n}\n", env.BaseURL, env.APIKey)
	}
	want := regexp.MustCompile(row.Want)
	// ExpectError cannot also check what a message must not hold, so the error is taken by
	// ErrorCheck, which the framework calls only without ExpectError.
	var got atomic.Pointer[string]
	step := resource.TestStep{Config: providerBlock + row.Config}
	if row.ImportID != nil {
		step.ImportState, step.ResourceName, step.ImportStateId = true, "videohost_webhook.test", *row.ImportID
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		ErrorCheck:               badInputErrorCheck(env, want, &got),
		Steps:                    []resource.TestStep{step},
	})
	if got.Load() == nil {
		t.Errorf("no error, want one matching %s", want)
	}
	if after != nil {
		after(t)
		return false
	}
	// What reached the service: the emulator's count in-process, the test's proxy's against a
	// real endpoint.
	writes := env.RequestCount(http.MethodPost, "/webhooks") + env.RequestCount(http.MethodDelete, "/")
	all := env.RequestCount("", "")
	if row.ConfigOnly && writes != 0 {
		t.Errorf("the configuration alone is wrong, yet the service saw %d writes", writes)
	}
	if row.NoRequest && all != 0 {
		t.Errorf("want the error before any request, but the service saw %d", all)
	}
	return all == 0
}

// badInputErrorCheck matches the error against want, refuses one that holds the key, and keeps
// the message in got.
func badInputErrorCheck(env *acctest.AccEnv, want *regexp.Regexp, got *atomic.Pointer[string]) resource.ErrorCheckFunc {
	return func(err error) error {
		// Terraform wraps lines and quotes the configuration's own lines, which hold whatever
		// the user wrote, key included; the provider's words are the rest.
		msg := strings.Join(strings.Fields(sourceLines.ReplaceAllString(err.Error(), "")), " ")
		got.Store(&msg)
		if !want.MatchString(msg) {
			return fmt.Errorf("the error does not match %s:\n%w", want, err)
		}
		for _, secret := range []string{env.APIKey, base64.StdEncoding.EncodeToString([]byte(env.APIKey + ":")), "QUERY-MUST-NOT-SHOW"} {
			if strings.Contains(msg, secret) {
				return fmt.Errorf("the error holds the API key or its Basic credential:\n%w", err)
			}
		}
		return nil
	}
}

// hostileBadInput are hostile responses: base_url points at a server that is not the API.
func hostileBadInput() []acctest.BadInputRow {
	return []acctest.BadInputRow{
		{Name: "hostile/HTML error page", ProviderBody: `auth_scheme = "basic"
  max_retries = 0`, Config: acctest.DataWith("videohost_webhooks", ""), Hostile: hostileServer(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>")
		}),
			Want: `(?s)Unable to List Webhooks.*The service failed \(a server error\).*Re-run later.*not the API's JSON.*502 Bad Gateway.*\[status 502 on GET /webhooks\]`},
		{Name: "hostile/truncated JSON", ProviderBody: `auth_scheme = "basic"`, Config: acctest.DataWith("videohost_webhook", `id = "wh_1"`),
			Hostile: hostileServer(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"data":[{"webhookId":"wh_1","url":"https://h.example.test/x","eve`)
			}),
			Want: `(?s)Unable to Read Webhook.*cannot read the service's response.*decoding the response.*not valid JSON, as if it was cut short.*check that base_url`},
		{Name: "hostile/HTML on a 200 (bearer)", Config: acctest.DataWith("videohost_videos", ""),
			Hostile: hostileServer(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = io.WriteString(w, "<!doctype html><html><body>Welcome to our video platform</body></html>")
			}),
			Want: `(?s)Unable to List Videos.*cannot read the service's response.*POST /auth/api-key: decoding the response.*text/html; charset=utf-8, not JSON.*check that base_url`},
		{Name: "hostile/huge body", ProviderBody: `auth_scheme = "basic"`, Config: acctest.DataWith("videohost_webhooks", ""),
			Hostile: hostileServer(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"data":[`)
				chunk := []byte(strings.Repeat(`{"webhookId":"wh","url":"https://h.example.test/x","events":[]},`, 1024))
				for written := 0; written < 1<<30 && r.Context().Err() == nil; written += len(chunk) {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			}),
			Want: `(?s)Unable to List Webhooks.*larger than 8 MiB.*stopped reading.*check that base_url`},
		{Name: "hostile/redirect to another host (basic)", ProviderBody: `auth_scheme = "basic"`, Config: acctest.OkWebhook,
			Hostile: redirectingServer, Want: `(?s)Unable to Create Webhook.*responded with a redirect to http://127\.0\.0\.1:\d+/v1/webhooks;.*does not follow redirects.*set base_url to http://127\.0\.0\.1:\d+/v1.*\[status 307 on POST /webhooks\]`},
		{Name: "hostile/redirect to another host (bearer)", Config: acctest.DataWith("videohost_webhooks", ""),
			Hostile: redirectingServer, Want: `(?s)Unable to List Webhooks.*responded with a redirect to http://127\.0\.0\.1:\d+/v1/auth/api-key;.*does not follow redirects.*\[status 307 on POST /auth/api-key\]`},
	}
}

// hostileServer starts a server on loopback that answers every request with h, and after the
// run checks that it never saw a write.
func hostileServer(h http.HandlerFunc) func(t *testing.T) (string, func(*testing.T)) {
	return func(t *testing.T) (string, func(*testing.T)) {
		var writes atomic.Int64
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet && !strings.HasPrefix(r.URL.Path, "/auth/") {
				writes.Add(1)
			}
			h(w, r)
		}))
		t.Cleanup(srv.Close)
		return srv.URL, func(t *testing.T) {
			if n := writes.Load(); n != 0 {
				t.Errorf("the hostile server saw %d writes; every row of it only reads", n)
			}
		}
	}
}

// redirectingServer answers every request with a 307 to the same path under /v1 of another
// server, which must receive nothing: neither the Authorization header nor the key in the body
// of /auth/api-key.
func redirectingServer(t *testing.T) (string, func(*testing.T)) {
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		mu.Lock()
		seen = append(seen, fmt.Sprintf("%s %s authorization=%q body=%q", r.Method, r.URL.Path, r.Header.Get("Authorization"), body))
		mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	t.Cleanup(other.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", other.URL+"/v1"+r.URL.Path+"?token=QUERY-MUST-NOT-SHOW")
		w.WriteHeader(http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, func(t *testing.T) {
		mu.Lock()
		defer mu.Unlock()
		if len(seen) != 0 {
			t.Errorf("the other host received %d requests: %q", len(seen), seen)
		}
	}
}

// webhookBadInput are the rows of the webhook resource.
func webhookBadInput() []acctest.BadInputRow {
	return []acctest.BadInputRow{
		{Name: "webhook/unknown event", Config: webhookWith(`"https://h.example.test/x"`, `["video.uploaded"]`),
			Want: `(?s)Invalid Attribute Value Match.*events.*` + acctest.OneOfEvents, ConfigOnly: true, NoRequest: true},
		{Name: "webhook/empty events", Config: webhookWith(`"https://h.example.test/x"`, `[]`),
			Want: `(?s)events.*set must contain at least 1 elements`, ConfigOnly: true, NoRequest: true},
		{Name: "webhook/empty event name", Config: webhookWith(`"https://h.example.test/x"`, `["", "video.source.recorded"]`),
			Want: `(?s)events.*` + acctest.OneOfEvents, ConfigOnly: true, NoRequest: true},
		{Name: "webhook/events null", Config: webhookWith(`"https://h.example.test/x"`, `null`),
			Want: `(?s)Missing required argument|(?s)events.*required`, ConfigOnly: true, NoRequest: true},
		{Name: "webhook/ftp url", Config: webhookWith(`"ftp://files.example.test/hook"`, `["video.source.recorded"]`),
			Want: `(?s)Invalid URL.*Set url to an absolute http or https URL.*scheme "ftp", not http or https`, ConfigOnly: true, NoRequest: true},
		{Name: "webhook/relative url", Config: webhookWith(`"/hooks/x"`, `["video.source.recorded"]`),
			Want: `(?s)Invalid URL.*Set url to an absolute http or https URL.*scheme "", not http or https`, ConfigOnly: true, NoRequest: true},
		{Name: "webhook/url without host", Config: webhookWith(`"https:///hook"`, `["video.source.recorded"]`),
			Want: `(?s)Invalid URL.*Set url to an absolute.*has no host`, ConfigOnly: true, NoRequest: true},
		{Name: "webhook/url with a leading space", Config: webhookWith(`" https://h.example.test/x"`, `["video.source.recorded"]`),
			Want: `(?s)Invalid URL.*Set url to an absolute.*does not parse as a URL`, ConfigOnly: true, NoRequest: true},
		{Name: "webhook/javascript url", Config: webhookWith(`"javascript:alert(1)"`, `["video.source.recorded"]`),
			Want: `(?s)Invalid URL.*scheme "javascript", not http or https`, ConfigOnly: true, NoRequest: true},
	}
}

func webhookWith(url, events string) string {
	return fmt.Sprintf(`
resource "videohost_webhook" "test" {
  url    = %s
  events = %s
}
`, url, events)
}

// importBadInput are import ids: refused before any request is built from them.
func importBadInput() []acctest.BadInputRow {
	return []acctest.BadInputRow{
		{Name: "import block/id ../videos", Config: acctest.ImportBlock(`"../videos"`),
			Want: `(?s)Invalid Import ID.*Import a webhook by its id \(webhookId\) exactly as the service gives it.*"\.\./videos" holds the path step "\.\."`, ConfigOnly: true, NoRequest: true},
		{Name: "import block/empty id", Config: acctest.ImportBlock(`""`),
			Want: `(?s)Invalid import id argument.*evaluates to an empty string, please provide a non-empty value`, ConfigOnly: true, NoRequest: true,
			NotOnOpenTofu: "OpenTofu 1.11 drops an import block whose id is empty, without an error, and plans a create; TestAccEmptyImportID checks what it does"},
		{Name: "import block/unicode id", Config: acctest.ImportBlock(`"wébhook-ü"`),
			Want: `(?s)Cannot import non-existent remote object.*videohost_webhook\.test`, ConfigOnly: true},
		{Name: "import step/id with a slash", Config: acctest.OkWebhook, ImportID: acctest.Ptr("wh/1"),
			Want: `(?s)Invalid Import ID.*"wh/1" holds a slash`, ConfigOnly: true, NoRequest: true},
		{Name: "import step/id ..", Config: acctest.OkWebhook, ImportID: acctest.Ptr(".."),
			Want: `(?s)Invalid Import ID.*"\.\." holds the path step "\.\."`, ConfigOnly: true, NoRequest: true},
	}
}
