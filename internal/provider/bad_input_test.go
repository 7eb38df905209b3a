package provider

import (
	"encoding/base64"
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

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// badInputRow is one configuration that must fail with a diagnostic that says what is wrong and
// what to do.
type badInputRow struct {
	name string
	// config is the configuration after the provider block; providerBody is what the provider
	// block holds besides base_url and api_key (or in their place, when it sets them).
	config       string
	providerBody string
	// ownProvider marks a providerBody that sets base_url and api_key itself; %[1]s is the
	// base address and %[2]s the key.
	ownProvider bool
	// importID makes the row an ImportState step on videohost_webhook.test with this id.
	importID *string
	want     string
	// configOnly: the configuration alone is wrong, so the service must see no write.
	configOnly bool
	// noRequest: caught before the provider sends anything (validate, plan or Configure).
	noRequest bool
	// hostile answers in place of the emulator; it reports what it saw after the run.
	hostile func(t *testing.T) (baseURL string, after func(t *testing.T))
	// notOnOpenTofu, when set, says why the row cannot hold on OpenTofu, which skips it.
	notOnOpenTofu string
}

const okWebhook = `
resource "videohost_webhook" "test" {
  url    = "https://hooks.example.test/bad-input"
  events = ["video.source.recorded"]
}
`

func webhookWith(url, events string) string {
	return fmt.Sprintf(`
resource "videohost_webhook" "test" {
  url    = %s
  events = %s
}
`, url, events)
}

func dataWith(kind, body string) string {
	return fmt.Sprintf("data %q \"test\" {\n%s\n}\n", kind, body)
}

func importBlock(id string) string {
	return fmt.Sprintf("import {\n  to = videohost_webhook.test\n  id = %s\n}\n", id) + okWebhook
}

// sourceLines are the lines of the configuration that Terraform quotes under a diagnostic.
var sourceLines = regexp.MustCompile(`(?m)^\s*\d+:.*$`)

func ptr[T any](v T) *T { return &v }

// oneOfEvents is how the framework refuses a name that is not an event of the service.
const oneOfEvents = `value must be one of:.*video\.encoding\.quality\.completed.*live-stream\.broadcast\.started`

// TestAccBadInput runs every row as its own subtest against its own emulator (or hostile
// server) and checks the diagnostic, that no secret is in it, that a configuration error
// wrote nothing, and which rows never reached the service.
func TestAccBadInput(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	rows := slices.Concat(webhookBadInput(), providerBadInput(), dataSourceIDBadInput(), dataSourceFilterBadInput(),
		importBadInput(), hostileBadInput())
	var mu sync.Mutex
	var silent []string
	t.Cleanup(func() {
		t.Logf("%d rows; %d caught before any request to the service: %s", len(rows), len(silent), strings.Join(silent, "; "))
	})
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			parallel(t)
			if row.notOnOpenTofu != "" && cliIsOpenTofu(t) {
				t.Skip(row.notOnOpenTofu)
			}
			if runBadInputRow(t, row) {
				mu.Lock()
				silent = append(silent, row.name)
				mu.Unlock()
			}
		})
	}
}

// runBadInputRow runs one row and reports whether it was caught before any request to the
// emulator; false against a hostile server, which checks what it saw itself.
func runBadInputRow(t *testing.T, row badInputRow) (silent bool) {
	var env *accEnv
	var after func(*testing.T)
	if row.hostile != nil {
		env = &accEnv{APIKey: "hostile-key-9Zx4"}
		env.BaseURL, after = row.hostile(t)
	} else {
		env = newAccEnv(t, emulator.Options{})
		env.requireEmulator(t)
	}
	providerBlock := env.providerConfig(row.providerBody)
	if row.hostile != nil {
		providerBlock = fmt.Sprintf("provider \"videohost\" {\n  base_url = %q\n  api_key = %q\n  %s\n}\n",
			env.BaseURL, env.APIKey, row.providerBody)
	}
	if row.ownProvider {
		providerBlock = fmt.Sprintf("provider \"videohost\" {\n  "+row.providerBody+"\n}\n", env.BaseURL, env.APIKey)
	}
	want := regexp.MustCompile(row.want)
	// ExpectError cannot also check what a message must not hold, so the error is taken by
	// ErrorCheck, which the framework calls only without ExpectError.
	var got atomic.Pointer[string]
	step := resource.TestStep{Config: providerBlock + row.config}
	if row.importID != nil {
		step.ImportState, step.ResourceName, step.ImportStateId = true, "videohost_webhook.test", *row.importID
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		ErrorCheck:               badInputErrorCheck(env, want, &got),
		Steps:                    []resource.TestStep{step},
	})
	if got.Load() == nil {
		t.Errorf("no error, want one matching %s", want)
	}
	if after != nil {
		after(t)
	}
	if env.Emu == nil {
		return false
	}
	writes := env.Emu.RequestCount(http.MethodPost, "/webhooks") + env.Emu.RequestCount(http.MethodDelete, "/")
	all := env.Emu.RequestCount("", "")
	if row.configOnly && writes != 0 {
		t.Errorf("the configuration alone is wrong, yet the service saw %d writes", writes)
	}
	if row.noRequest && all != 0 {
		t.Errorf("want the error before any request, but the service saw %d", all)
	}
	return all == 0
}

// badInputErrorCheck matches the error against want, refuses one that holds the key, and keeps
// the message in got.
func badInputErrorCheck(env *accEnv, want *regexp.Regexp, got *atomic.Pointer[string]) resource.ErrorCheckFunc {
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

// webhookBadInput are the rows of the webhook resource.
func webhookBadInput() []badInputRow {
	return []badInputRow{
		{name: "webhook/unknown event", config: webhookWith(`"https://h.example.test/x"`, `["video.uploaded"]`),
			want: `(?s)Invalid Attribute Value Match.*events.*` + oneOfEvents, configOnly: true, noRequest: true},
		{name: "webhook/empty events", config: webhookWith(`"https://h.example.test/x"`, `[]`),
			want: `(?s)events.*set must contain at least 1 elements`, configOnly: true, noRequest: true},
		{name: "webhook/empty event name", config: webhookWith(`"https://h.example.test/x"`, `["", "video.source.recorded"]`),
			want: `(?s)events.*` + oneOfEvents, configOnly: true, noRequest: true},
		{name: "webhook/events null", config: webhookWith(`"https://h.example.test/x"`, `null`),
			want: `(?s)Missing required argument|(?s)events.*required`, configOnly: true, noRequest: true},
		{name: "webhook/ftp url", config: webhookWith(`"ftp://files.example.test/hook"`, `["video.source.recorded"]`),
			want: `(?s)Invalid URL.*Set url to an absolute http or https URL.*scheme "ftp", not http or https`, configOnly: true, noRequest: true},
		{name: "webhook/relative url", config: webhookWith(`"/hooks/x"`, `["video.source.recorded"]`),
			want: `(?s)Invalid URL.*Set url to an absolute http or https URL.*scheme "", not http or https`, configOnly: true, noRequest: true},
		{name: "webhook/url without host", config: webhookWith(`"https:///hook"`, `["video.source.recorded"]`),
			want: `(?s)Invalid URL.*Set url to an absolute.*has no host`, configOnly: true, noRequest: true},
		{name: "webhook/url with a leading space", config: webhookWith(`" https://h.example.test/x"`, `["video.source.recorded"]`),
			want: `(?s)Invalid URL.*Set url to an absolute.*does not parse as a URL`, configOnly: true, noRequest: true},
		{name: "webhook/javascript url", config: webhookWith(`"javascript:alert(1)"`, `["video.source.recorded"]`),
			want: `(?s)Invalid URL.*scheme "javascript", not http or https`, configOnly: true, noRequest: true},
	}
}

// providerBadInput are the rows of the provider block; they are the provider's plan-time checks.
func providerBadInput() []badInputRow {
	return []badInputRow{
		{name: "provider/unknown environment", providerBody: `environment = "staging"`, config: okWebhook,
			want: `(?s)environment.*value must be one of.*"sandbox".*"production"`, configOnly: true, noRequest: true},
		{name: "provider/base_url without scheme", ownProvider: true, providerBody: `base_url = "api.example.test"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url "api\.example\.test" is not an http or https address: use an absolute http or https address`, configOnly: true, noRequest: true},
		{name: "provider/base_url ftp", ownProvider: true, providerBody: `base_url = "ftp://api.example.test"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url "ftp://api\.example\.test" is not an http or https address`, configOnly: true, noRequest: true},
		{name: "provider/base_url without host", ownProvider: true, providerBody: `base_url = "https://"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url.*has no host`, configOnly: true, noRequest: true},
		{name: "provider/base_url with a query", ownProvider: true, providerBody: `base_url = "%[1]s/?version=2"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url.*carries a query or a fragment: remove it`, configOnly: true, noRequest: true},
		{name: "provider/base_url with the key as user", ownProvider: true, providerBody: `base_url = "http://%[2]s@127.0.0.1:1"
  api_key = %[2]q`, config: okWebhook,
			want: `(?s)Invalid URL.*base_url.*REDACTED@127\.0\.0\.1:1.*carries user information.*remove it.*API key has a setting of its own`, configOnly: true, noRequest: true},
		{name: "provider/empty api_key", ownProvider: true, providerBody: `base_url = %[1]q
  api_key = ""`, config: okWebhook,
			want: `(?s)Missing API Key.*Set the provider attribute api_key or the environment variable VIDEOHOST_API_KEY`, configOnly: true, noRequest: true},
		{name: "provider/api_key with a newline", ownProvider: true, providerBody: `base_url = %[1]q
  api_key = "%[2]s\n"`, config: okWebhook,
			want: `(?s)Invalid Provider Configuration.*white space: remove it`, configOnly: true, noRequest: true},
		{name: "provider/unknown auth_scheme", providerBody: `auth_scheme = "digest"`, config: okWebhook,
			want: `(?s)auth_scheme.*value must be one of.*"bearer".*"basic"`, configOnly: true, noRequest: true},
		{name: "provider/negative max_retries", providerBody: `max_retries = -1`, config: okWebhook,
			want: `(?s)max_retries.*value must be at least 0`, configOnly: true, noRequest: true},
		{name: "provider/unknown attribute", providerBody: `timeout = 5`, config: okWebhook,
			want: `(?s)Unsupported argument.*"timeout" is not expected here`, configOnly: true, noRequest: true},
	}
}

// dataSourceIDBadInput are the ids of data sources that could name another endpoint: they are
// refused at validation.
func dataSourceIDBadInput() []badInputRow {
	return []badInputRow{
		{name: "data webhook/empty id", config: dataWith("videohost_webhook", `id = ""`),
			want: `(?s)id.*string length must be at least 1`, configOnly: true, noRequest: true},
		{name: "data webhook/id ../videos", config: dataWith("videohost_webhook", `id = "../videos"`),
			want: `(?s)Invalid ID.*Set id to the id of a webhook \(its webhookId\) as the videohost_webhooks data source lists it.*"\.\./videos" holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "data webhook/id ..", config: dataWith("videohost_webhook", `id = ".."`),
			want: `(?s)Invalid ID.*the id "\.\." holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "data video/empty id", config: dataWith("videohost_video", `id = ""`),
			want: `(?s)id.*string length must be at least 1`, configOnly: true, noRequest: true},
		{name: "data video/id with dot steps", config: dataWith("videohost_video", `id = "vi1/../../webhooks"`),
			want: `(?s)Invalid ID.*a video \(its videoId\).*videohost_videos.*holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "data video/unicode id with a slash", config: dataWith("videohost_video", `id = "vidéo-ü/"`),
			want: `(?s)Invalid ID.*holds a slash`, configOnly: true, noRequest: true},
		// Unicode alone is escaped into the path and answered by the service.
		{name: "data video/unicode id is escaped", config: dataWith("videohost_video", `id = "vidéo-ü"`),
			want: `(?s)Unable to Read Video.*no such object in this workspace.*Check the id.*GET\s+/videos/vid%C3%A9o-%C3%BC`, configOnly: true},
		{name: "data live_stream/id with a backslash", config: dataWith("videohost_live_stream", `id = "..\\videos"`),
			want: `(?s)Invalid ID.*a live stream \(its liveStreamId\).*holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "data live_stream/id with a trailing space", config: dataWith("videohost_live_stream", `id = "li_1 "`),
			want: `(?s)Invalid ID.*starts or ends with white space; remove it`, configOnly: true, noRequest: true},
		{name: "data live_stream/id with a line break", config: dataWith("videohost_live_stream", `id = "li_1\nli_2"`),
			want: `(?s)Invalid ID.*holds a control character`, configOnly: true, noRequest: true},
	}
}

// dataSourceFilterBadInput are the filters of data sources out of range.
func dataSourceFilterBadInput() []badInputRow {
	return []badInputRow{
		{name: "data webhooks/unknown event", config: dataWith("videohost_webhooks", `event = "video.uploaded"`),
			want: `(?s)event.*` + oneOfEvents, configOnly: true, noRequest: true},
		{name: "data webhooks/empty event", config: dataWith("videohost_webhooks", `event = ""`),
			want: `(?s)event.*value must be one of`, configOnly: true, noRequest: true},
		{name: "data videos/unknown sort_by", config: dataWith("videohost_videos", `sort_by = "duration"`),
			want: `(?s)sort_by.*value must be one of.*"title".*"createdAt".*"publishedAt".*"updatedAt"`, configOnly: true, noRequest: true},
		{name: "data videos/unknown sort_order", config: dataWith("videohost_videos", `sort_order = "newest"`),
			want: `(?s)sort_order.*value must be one of.*"asc".*"desc"`, configOnly: true, noRequest: true},
		{name: "data videos/empty title", config: dataWith("videohost_videos", `title = ""`),
			want: `(?s)title.*string length must be at least 1`, configOnly: true, noRequest: true},
		{name: "data live_streams/empty name", config: dataWith("videohost_live_streams", `name = ""`),
			want: `(?s)name.*string length must be at least 1`, configOnly: true, noRequest: true},
		{name: "data live_streams/unknown sort_by", config: dataWith("videohost_live_streams", `sort_by = "title"`),
			want: `(?s)sort_by.*value must be one of.*"name".*"createdAt".*"updatedAt"`, configOnly: true, noRequest: true},
	}
}

// importBadInput are import ids: refused before any request is built from them.
func importBadInput() []badInputRow {
	return []badInputRow{
		{name: "import block/id ../videos", config: importBlock(`"../videos"`),
			want: `(?s)Invalid Import ID.*Import a webhook by its id \(webhookId\) exactly as the service gives it.*"\.\./videos" holds the path step "\.\."`, configOnly: true, noRequest: true},
		{name: "import block/empty id", config: importBlock(`""`),
			want: `(?s)Invalid import id argument.*evaluates to an empty string, please provide a non-empty value`, configOnly: true, noRequest: true,
			notOnOpenTofu: "OpenTofu 1.11 drops an import block whose id is empty, without an error, and plans a create; TestAccEmptyImportID checks what it does"},
		{name: "import block/unicode id", config: importBlock(`"wébhook-ü"`),
			want: `(?s)Cannot import non-existent remote object.*videohost_webhook\.test`, configOnly: true},
		{name: "import step/id with a slash", config: okWebhook, importID: ptr("wh/1"),
			want: `(?s)Invalid Import ID.*"wh/1" holds a slash`, configOnly: true, noRequest: true},
		{name: "import step/id ..", config: okWebhook, importID: ptr(".."),
			want: `(?s)Invalid Import ID.*"\.\." holds the path step "\.\."`, configOnly: true, noRequest: true},
	}
}

// hostileBadInput are hostile responses: base_url points at a server that is not the API.
func hostileBadInput() []badInputRow {
	return []badInputRow{
		{name: "hostile/HTML error page", providerBody: `auth_scheme = "basic"
  max_retries = 0`, config: dataWith("videohost_webhooks", ""), hostile: hostileServer(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>")
		}),
			want: `(?s)Unable to List Webhooks.*The service failed \(a server error\).*Re-run later.*not the API's JSON.*502 Bad Gateway.*\[status 502 on GET /webhooks\]`},
		{name: "hostile/truncated JSON", providerBody: `auth_scheme = "basic"`, config: dataWith("videohost_webhook", `id = "wh_1"`),
			hostile: hostileServer(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"data":[{"webhookId":"wh_1","url":"https://h.example.test/x","eve`)
			}),
			want: `(?s)Unable to Read Webhook.*cannot read the service's response.*decoding the response.*not valid JSON, as if it was cut short.*check that base_url`},
		{name: "hostile/HTML on a 200 (bearer)", config: dataWith("videohost_videos", ""),
			hostile: hostileServer(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = io.WriteString(w, "<!doctype html><html><body>Welcome to our video platform</body></html>")
			}),
			want: `(?s)Unable to List Videos.*cannot read the service's response.*POST /auth/api-key: decoding the response.*text/html; charset=utf-8, not JSON.*check that base_url`},
		{name: "hostile/huge body", providerBody: `auth_scheme = "basic"`, config: dataWith("videohost_webhooks", ""),
			hostile: hostileServer(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, `{"data":[`)
				chunk := []byte(strings.Repeat(`{"webhookId":"wh","url":"https://h.example.test/x","events":[]},`, 1024))
				for written := 0; written < 1<<30 && r.Context().Err() == nil; written += len(chunk) {
					if _, err := w.Write(chunk); err != nil {
						return
					}
				}
			}),
			want: `(?s)Unable to List Webhooks.*larger than 8 MiB.*stopped reading.*check that base_url`},
		{name: "hostile/redirect to another host (basic)", providerBody: `auth_scheme = "basic"`, config: okWebhook,
			hostile: redirectingServer, want: `(?s)Unable to Create Webhook.*responded with a redirect to http://127\.0\.0\.1:\d+/v1/webhooks;.*does not follow redirects.*set base_url to http://127\.0\.0\.1:\d+/v1.*\[status 307 on POST /webhooks\]`},
		{name: "hostile/redirect to another host (bearer)", config: dataWith("videohost_webhooks", ""),
			hostile: redirectingServer, want: `(?s)Unable to List Webhooks.*responded with a redirect to http://127\.0\.0\.1:\d+/v1/auth/api-key;.*does not follow redirects.*\[status 307 on POST /auth/api-key\]`},
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
