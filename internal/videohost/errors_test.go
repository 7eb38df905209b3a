package videohost

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestErrorRowsOfTheSpecification sends one request per row of the specification's error
// table to a service that answers with that row's body, and checks the decoded *Error, its
// one-line message, and errors.Is.
func TestErrorRowsOfTheSpecification(t *testing.T) {
	tests := []struct {
		name        string
		method      string
		path        string
		status      int
		contentType string
		body        string
		want        Error // compared on the exported fields
		msg         string
		is          []error
	}{
		{
			name: "400 invalid attributes with problems and the attribute's member", method: "POST", path: "/webhooks",
			status: 400,
			body: `{"type":"` + docs + `/invalid-attribute","title":"Invalid attributes.","name":"events","status":400,
				"events":"This attribute must be an array.",
				"problems":[{"type":"` + docs + `/invalid-attribute","title":"This attribute must be an array.","name":"events"}]}`,
			want: Error{Method: "POST", Path: "/webhooks", Status: 400, Type: docs + "/invalid-attribute",
				Title: "Invalid attributes.", Name: "events",
				Problems: []Problem{{Type: docs + "/invalid-attribute", Title: "This attribute must be an array.", Name: "events"}},
				Extra:    map[string]any{"events": "This attribute must be an array."}},
			msg: "POST /webhooks: 400 Invalid attributes. (events: This attribute must be an array.)",
			is:  []error{ErrInvalidInput},
		},
		{
			name: "400 missing attributes, one problem each", method: "POST", path: "/webhooks", status: 400,
			body: `{"type":"` + docs + `/attribute-required","title":"This attribute is required.","name":"url","status":400,
				"problems":[{"type":"` + docs + `/attribute-required","title":"This attribute is required.","name":"url"},
				{"type":"` + docs + `/attribute-required","title":"This attribute is required.","name":"events"}]}`,
			want: Error{Method: "POST", Path: "/webhooks", Status: 400, Type: docs + "/attribute-required",
				Title: "This attribute is required.", Name: "url", Problems: []Problem{
					{Type: docs + "/attribute-required", Title: "This attribute is required.", Name: "url"},
					{Type: docs + "/attribute-required", Title: "This attribute is required.", Name: "events"},
				}},
			msg: "POST /webhooks: 400 This attribute is required. (url: This attribute is required.; events: This attribute is required.)",
			is:  []error{ErrInvalidInput},
		},
		{
			name: "400 payload invalid", method: "POST", path: "/webhooks", status: 400,
			body: `{"type":"` + docs + `/invalid-payload","title":"The payload is invalid.","status":400}`,
			want: Error{Method: "POST", Path: "/webhooks", Status: 400, Type: docs + "/invalid-payload", Title: "The payload is invalid."},
			msg:  "POST /webhooks: 400 The payload is invalid.",
			is:   []error{ErrInvalidInput},
		},
		{
			name: "400 webhook limit", method: "POST", path: "/webhooks", status: 400,
			body: `{"type":"` + docs + `/webhook-limit","title":"Your account has reached the webhook urls limit.","status":400}`,
			want: Error{Method: "POST", Path: "/webhooks", Status: 400, Type: docs + "/webhook-limit",
				Title: "Your account has reached the webhook urls limit."},
			msg: "POST /webhooks: 400 Your account has reached the webhook urls limit.",
			is:  []error{ErrWebhookLimit},
		},
		{
			name: "401", method: "GET", path: "/webhooks", status: 401,
			body: `{"type":"` + docs + `/unauthorized","title":"Unauthorized.","status":401}`,
			want: Error{Method: "GET", Path: "/webhooks", Status: 401, Type: docs + "/unauthorized", Title: "Unauthorized."},
			msg: "GET /webhooks: 401 Unauthorized. The service refused the credentials: check that the API key " +
				"belongs to the sandbox environment (sandbox and production keys differ)",
			is: []error{ErrUnauthorized},
		},
		{
			name: "404 with the parameter's name", method: "GET", path: "/webhooks/wh-nope", status: 404,
			body: `{"type":"` + docs + `/resource-not-found","title":"The requested resource could not be found.","name":"webhookId","status":404}`,
			want: Error{Method: "GET", Path: "/webhooks/wh-nope", Status: 404, Type: docs + "/resource-not-found",
				Title: "The requested resource could not be found.", Name: "webhookId"},
			msg: "GET /webhooks/wh-nope: 404 The requested resource could not be found. (parameter: webhookId)",
			is:  []error{ErrNotFound},
		},
		{
			name: "404 unrecognized URL", method: "GET", path: "/nothing-here", status: 404,
			body: `{"type":"` + docs + `/unrecognized-request-url","title":"Unrecognized request URL.","status":404}`,
			want: Error{Method: "GET", Path: "/nothing-here", Status: 404, Type: docs + "/unrecognized-request-url",
				Title: "Unrecognized request URL."},
			msg: "GET /nothing-here: 404 Unrecognized request URL. {base}/nothing-here is no endpoint of the API, so " +
				"the base address {base} is wrong (a path after the host, such as /v1, is a common cause): set it " +
				"to the address the API answers at, such as https://sandbox.api.video or https://ws.api.video",
			is: []error{ErrUnknownEndpoint},
		},
		{
			// A proxy in front of the API may keep the title and drop the documentation link.
			name: "404 unrecognized URL by its title alone", method: "DELETE", path: "/webhooks/wh-1", status: 404,
			body: `{"title":"Unrecognized request URL.","status":404}`,
			want: Error{Method: "DELETE", Path: "/webhooks/wh-1", Status: 404, Title: "Unrecognized request URL."},
			msg: "DELETE /webhooks/wh-1: 404 Unrecognized request URL. {base}/webhooks/wh-1 is no endpoint of the API, " +
				"so the base address {base} is wrong (a path after the host, such as /v1, is a common cause): set it " +
				"to the address the API answers at, such as https://sandbox.api.video or https://ws.api.video",
			is: []error{ErrUnknownEndpoint},
		},
		{
			name: "404 without a body is an unknown object", method: "GET", path: "/webhooks/wh-1", status: 404,
			want: Error{Method: "GET", Path: "/webhooks/wh-1", Status: 404},
			msg:  "GET /webhooks/wh-1: 404 Not Found",
			is:   []error{ErrNotFound},
		},
		{
			name: "405", method: "POST", path: "/webhooks/wh-1", status: 405,
			body: `{"type":"` + docs + `/method-not-allowed","title":"Method is not allowed for this route.","status":405}`,
			want: Error{Method: "POST", Path: "/webhooks/wh-1", Status: 405, Type: docs + "/method-not-allowed",
				Title: "Method is not allowed for this route."},
			msg: "POST /webhooks/wh-1: 405 Method is not allowed for this route.",
		},
		{
			name: "429 after the last retry", method: "GET", path: "/webhooks", status: 429,
			body: `{"type":"` + docs + `/too-many-requests","title":"Too many requests.","status":429}`,
			want: Error{Method: "GET", Path: "/webhooks", Status: 429, Type: docs + "/too-many-requests",
				Title: "Too many requests.", Class: ClassReads},
			msg: "GET /webhooks: 429 Too many requests. (reads limit: 100 per window; retried once)",
			is:  []error{ErrRateLimited},
		},
		{
			name: "500 after the last retry", method: "GET", path: "/webhooks", status: 500,
			body: `{"type":"` + docs + `/server-error","title":"Server error","status":500}`,
			want: Error{Method: "GET", Path: "/webhooks", Status: 500, Type: docs + "/server-error", Title: "Server error"},
			msg:  "GET /webhooks: 500 Server error (retried once)",
			is:   []error{ErrServer},
		},
		{
			name: "502 with an HTML page", method: "GET", path: "/webhooks", status: 502, contentType: "text/html",
			body: "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>\n",
			want: Error{Method: "GET", Path: "/webhooks", Status: 502,
				Body: "<html>\n<head><title>502 Bad Gateway</title></head>\n<body>nginx</body>\n</html>\n"},
			msg: "GET /webhooks: 502 Bad Gateway (retried once): <html> <head><title>502 Bad Gateway</title></head> <body>nginx</body> </html>",
			is:  []error{ErrServer},
		},
		{
			name: "a long text body is cut", method: "DELETE", path: "/webhooks/wh-1", status: 418, contentType: "text/plain",
			body: strings.Repeat("é", 150),
			want: Error{Method: "DELETE", Path: "/webhooks/wh-1", Status: 418, Body: strings.Repeat("é", 100) + "…"},
			msg:  "DELETE /webhooks/wh-1: 418 I'm a teapot: " + strings.Repeat("é", 100) + "…",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
				ct := tt.contentType
				if ct == "" {
					ct = "application/json"
				}
				w.Header().Set("Content-Type", ct)
				rateHeadersOf(w, 100, 10, 0)
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			})
			c := f.client(t, basic, func(cfg *Config) { cfg.MaxRetries = 1 })
			c.minRateWait = time.Millisecond
			err := c.do(t.Context(), request{method: tt.method, path: tt.path}, nil)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v (%T), want *Error", err, err)
			}
			got := Error{Method: e.Method, Path: e.Path, Status: e.Status, Type: e.Type, Title: e.Title, Name: e.Name,
				Detail: e.Detail, Problems: e.Problems, Extra: e.Extra, Body: e.Body, Class: e.Class}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded\n %#v\nwant\n %#v", got, tt.want)
			}
			if msg := strings.ReplaceAll(tt.msg, "{base}", f.srv.URL); e.Error() != msg {
				t.Errorf("message\n %q\nwant\n %q", e.Error(), msg)
			}
			for _, sentinel := range allKinds {
				want := false
				for _, s := range tt.is {
					want = want || s == sentinel
				}
				if errors.Is(err, sentinel) != want {
					t.Errorf("errors.Is(err, %v) = %v, want %v", sentinel, !want, want)
				}
			}
			if strings.Contains(err.Error(), testKey) || strings.Contains(err.Error(), "Basic ") {
				t.Errorf("message leaks the credentials: %s", err)
			}
		})
	}
}

func TestDecodeErrorShapes(t *testing.T) {
	tests := []struct {
		name string
		body string
		want string
	}{
		{"array body kept as text", `[1,2]`, "GET /x: 400 Bad Request: [1,2]"},
		{"empty body", ``, "GET /x: 400 Bad Request"},
		{"detail and extra members", `{"title":"Nope.","detail":"More words.","url":"must be http","count":3}`,
			"GET /x: 400 Nope. More words. (url: must be http)"},
		{"problem without a name", `{"title":"Invalid attributes.","problems":[{"title":"Something."}]}`,
			"GET /x: 400 Invalid attributes. (Something.)"},
		{"members of the wrong type go to Extra", `{"title":7,"status":"x"}`, "GET /x: 400 Bad Request"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := decodeError("GET", "/x", 400, []byte(tt.body)).Error(); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
	e := decodeError("GET", "/x", 400, []byte(`{"title":7}`))
	if e.Extra["title"] != float64(7) {
		t.Errorf("Extra = %v, want the undecodable title kept", e.Extra)
	}
	if got := (&Error{Method: "GET", Path: "/x", Status: 599}).Error(); got != "GET /x: 599 unexpected status" {
		t.Errorf("unknown status: %q", got)
	}
	if got := (&Error{Method: "GET", Path: "/x", Status: 429, Class: ClassWrites}).Error(); got != "GET /x: 429 Too Many Requests (writes limit)" {
		t.Errorf("429 without a learned limit: %q", got)
	}
}

// TestEachFailureAnswersToItsKind drives one failure of each kind that the specification's
// error table does not already cover through the request path, and checks that the error
// answers errors.Is to its kind and to no other, keeping the words the caller shows.
func TestEachFailureAnswersToItsKind(t *testing.T) {
	tests := []struct {
		name   string
		method string
		status int
		header map[string]string
		body   string
		kinds  []error
		check  func(t *testing.T, err error)
	}{
		{
			name: "webhook limit named by the emulator's slug alone", method: "POST", status: 400,
			body:  `{"type":"` + docs + `/webhook-limit-reached","title":"Too many.","status":400}`,
			kinds: []error{ErrWebhookLimit},
		},
		{
			name: "403 asks to check the key", method: "GET", status: 403,
			body:  `{"title":"Forbidden.","status":403}`,
			kinds: []error{ErrUnauthorized},
			check: func(t *testing.T, err error) {
				e := mustAPIError(t, err)
				if !strings.Contains(e.Hint, "sandbox environment") {
					t.Errorf("Hint = %q, want it to name the environment", e.Hint)
				}
			},
		},
		{
			name: "redirect keeps where it pointed and what to set", method: "GET", status: 301,
			header: map[string]string{"Location": "https://api.example.test/v2/webhooks?token=abc"},
			kinds:  []error{ErrRedirect},
			check: func(t *testing.T, err error) {
				e := mustAPIError(t, err)
				if e.Location != "https://api.example.test/v2/webhooks" {
					t.Errorf("Location = %q, want the target without its query", e.Location)
				}
				if !strings.Contains(e.Hint, "set base_url to https://api.example.test/v2") {
					t.Errorf("Hint = %q, want the base_url to set", e.Hint)
				}
			},
		},
		{
			name: "429 keeps its class and limit", method: "POST", status: 429,
			body:  `{"title":"Too many requests.","status":429}`,
			kinds: []error{ErrRateLimited},
			check: func(t *testing.T, err error) {
				e := mustAPIError(t, err)
				if e.Class != ClassWrites || e.Limit != 100 || e.Retries != 0 {
					t.Errorf("Class, Limit, Retries = %q, %d, %d; want writes, 100, 0", e.Class, e.Limit, e.Retries)
				}
			},
		},
		{
			name: "a write's 500 is ambiguous and a server error", method: "POST", status: 500,
			body:  `{"title":"Server error","status":500}`,
			kinds: []error{ErrAmbiguous, ErrServer},
		},
		{
			name: "an HTML page where JSON was expected", method: "GET", status: 200,
			header: map[string]string{"Content-Type": "text/html"},
			body:   "<html>login</html>",
			kinds:  []error{ErrUndecodable},
			check: func(t *testing.T, err error) {
				var de *DecodeError
				if !errors.As(err, &de) || de.Status != 200 || !strings.Contains(de.Problem, "text/html, not JSON") ||
					!strings.Contains(de.Hint, "check that base_url") {
					t.Errorf("err = %#v, want a *DecodeError naming the content type and base_url", err)
				}
			},
		},
		{
			name: "JSON of another shape", method: "GET", status: 200, body: `{"webhookId":7}`,
			kinds: []error{ErrUndecodable},
			check: func(t *testing.T, err error) {
				var te *json.UnmarshalTypeError
				if !errors.As(err, &te) {
					t.Errorf("err = %v, want the decoder's error kept", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				for k, v := range tt.header {
					w.Header().Set(k, v)
				}
				rateHeadersOf(w, 100, 10, 1)
				w.WriteHeader(tt.status)
				_, _ = w.Write([]byte(tt.body))
			})
			c := f.client(t, basic, func(cfg *Config) { cfg.MaxRetries = NoRetries })
			var out Webhook
			err := c.do(t.Context(), request{method: tt.method, path: "/webhooks", body: map[string]string{}}, &out)
			if err == nil {
				t.Fatal("no error")
			}
			wantKinds(t, err, tt.kinds...)
			if tt.check != nil {
				tt.check(t, err)
			}
		})
	}
}

// TestInterruptedBeforeSending cancels a call while it waits for the rate limit: nothing is
// sent, and the error says it was interrupted, as ErrInterrupted and context.Canceled.
func TestInterruptedBeforeSending(t *testing.T) {
	f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, webhookJSON("wh-1", false))
	})
	c := f.client(t, basic)
	c.limiters[ClassWrites].block(time.Hour, time.Hour)
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	_, err := c.CreateWebhook(ctx, CreateWebhookInput{URL: "https://example.org/h", Events: []string{"x"}})
	wantKinds(t, err, ErrInterrupted)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled too", err)
	}
	wantError(t, err, "POST /webhooks: interrupted while waiting for the writes rate limit, before the request was sent")
	if n := len(f.requests()); n != 0 {
		t.Errorf("the service saw %d requests, want none", n)
	}
}

// TestErrorServiceTime: an error carries when the service answered by its own clock (the
// response's Date), which may be far from the machine's; zero when the answer has no Date.
func TestErrorServiceTime(t *testing.T) {
	serviceNow := time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, tc := range []struct {
		name, date string
		want       time.Time
	}{
		{"dated", serviceNow.Format(http.TimeFormat), serviceNow},
		{"undated", "", time.Time{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeService(t, func(w http.ResponseWriter, _ *http.Request) {
				if tc.date == "" {
					w.Header()["Date"] = nil // the server adds none
				} else {
					w.Header().Set("Date", tc.date)
				}
				writeJSON(w, http.StatusNotFound, map[string]any{"title": "The requested resource was not found.", "status": 404})
			})
			_, err := f.client(t).GetUploadToken(t.Context(), "to1234567890123456789012")
			var e *Error
			if !errors.Is(err, ErrNotFound) || !errors.As(err, &e) {
				t.Fatalf("err = %v, want a 404 *Error", err)
			}
			if !e.ServiceTime.Equal(tc.want) {
				t.Errorf("ServiceTime = %s, want %s", e.ServiceTime, tc.want)
			}
		})
	}
}
