package emulator_test

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

func TestWebhookLifecycle(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	before := time.Now().UTC().Add(-time.Second)
	c := e.createWebhook("https://receiver.test/hook", "video.encoding.quality.completed", "live-stream.broadcast.started")
	id := c.str("webhookId")
	if !webhookIDRe.MatchString(id) {
		t.Errorf("webhookId %q does not look like webhook_ + base62", id)
	}
	if !atomRe.MatchString(c.str("createdAt")) {
		t.Errorf("createdAt %q is not ATOM UTC", c.str("createdAt"))
	}
	created, err := time.Parse(time.RFC3339, c.str("createdAt"))
	if err != nil || created.Before(before.Truncate(time.Second)) || created.After(time.Now().Add(time.Second)) {
		t.Errorf("createdAt %q is not now (%v)", c.str("createdAt"), err)
	}
	if _, has := c.body["signatureSecret"]; has {
		t.Error("create answer carries signatureSecret")
	}
	if c.str("url") != "https://receiver.test/hook" || fmt.Sprint(c.body["events"]) != "[video.encoding.quality.completed live-stream.broadcast.started]" {
		t.Errorf("create answer: %s", c.raw)
	}

	g := e.api("GET", "/webhooks/"+id, nil)
	expectStatus(t, g, http.StatusOK)
	if _, has := g.body["signatureSecret"]; has || g.str("webhookId") != id || g.str("createdAt") != c.str("createdAt") {
		t.Errorf("get answer: %s", g.raw)
	}

	l := e.api("GET", "/webhooks", nil)
	expectStatus(t, l, http.StatusOK)
	items := l.data()
	if len(items) != 1 || items[0]["webhookId"] != id {
		t.Fatalf("list: %s", l.raw)
	}
	secret, _ := items[0]["signatureSecret"].(string)
	if len(secret) < 16 {
		t.Errorf("list item signatureSecret %q", secret)
	}
	for _, bad := range [][2]string{{"ftp://x.test", "video.summary.generated"}, {"https://x.test", "video.nope"}} {
		if _, err := e.emu.CreateWebhook(bad[0], []string{bad[1]}); !errors.Is(err, emulator.ErrInvalid) {
			t.Errorf("CreateWebhook(%q, %q) = %v, want ErrInvalid", bad[0], bad[1], err)
		}
	}
	if stored := e.emu.Webhooks(); len(stored) != 1 || stored[0].SignatureSecret != secret || stored[0].WebhookID != id {
		t.Errorf("Webhooks() = %+v", stored)
	}

	d := e.api("DELETE", "/webhooks/"+id, nil)
	expectStatus(t, d, http.StatusNoContent)
	if len(d.raw) != 0 {
		t.Errorf("204 has a body: %q", d.raw)
	}
	for _, m := range []string{"GET", "DELETE"} {
		nf := e.api(m, "/webhooks/"+id, nil)
		expectStatus(t, nf, http.StatusNotFound)
		if nf.str("name") != "webhookId" || nf.str("title") != "The requested resource could not be found." ||
			nf.str("type") != "https://docs.api.video/reference/resource-not-found" || nf.num("status") != 404 {
			t.Errorf("%s 404 body: %s", m, nf.raw)
		}
	}
}

func TestWebhookSecretInResponses(t *testing.T) {
	e := newEnv(t, emulator.Options{SecretInResponses: true})
	c := e.createWebhook("http://receiver.test/", "video.summary.generated")
	if c.str("signatureSecret") == "" {
		t.Fatalf("create answer lacks the secret: %s", c.raw)
	}
	g := e.api("GET", "/webhooks/"+c.str("webhookId"), nil)
	if g.str("signatureSecret") != c.str("signatureSecret") {
		t.Errorf("get answer secret %q, want %q", g.str("signatureSecret"), c.str("signatureSecret"))
	}
}

func TestWebhookCreateErrors(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	const docs = "https://docs.api.video/reference/"
	for _, tc := range []struct {
		name     string
		body     any
		typ      string
		title    string
		problems []string // names, in order
		member   string   // attribute member expected to carry the title
	}{
		{name: "missing both", body: map[string]any{}, typ: docs + "attribute-required", title: "This attribute is required.", problems: []string{"events", "url"}, member: "events"},
		{name: "missing url", body: map[string]any{"events": []string{"video.summary.generated"}}, typ: docs + "attribute-required", title: "This attribute is required.", problems: []string{"url"}, member: "url"},
		{name: "null events", body: map[string]any{"events": nil, "url": "https://a.test"}, typ: docs + "attribute-required", title: "This attribute is required.", problems: []string{"events"}, member: "events"},
		{name: "events not an array", body: map[string]any{"events": "video.summary.generated", "url": "https://a.test"}, typ: docs + "invalid-attribute", title: "This attribute must be an array.", problems: []string{"events"}, member: "events"},
		{name: "events of numbers", body: map[string]any{"events": []int{1}, "url": "https://a.test"}, typ: docs + "invalid-attribute", title: "This attribute must be an array of strings.", problems: []string{"events"}, member: "events"},
		{name: "unknown event", body: map[string]any{"events": []string{"video.deleted"}, "url": "https://a.test"}, typ: docs + "invalid-attribute", problems: []string{"events"}, member: "events"},
		{name: "empty events", body: map[string]any{"events": []string{}, "url": "https://a.test"}, typ: docs + "invalid-attribute", problems: []string{"events"}, member: "events"},
		{name: "ftp url", body: map[string]any{"events": []string{"video.summary.generated"}, "url": "ftp://a.test/x"}, typ: docs + "invalid-attribute", title: "This attribute must be a valid http or https URL.", problems: []string{"url"}, member: "url"},
		{name: "url without host", body: map[string]any{"events": []string{"video.summary.generated"}, "url": "https://"}, typ: docs + "invalid-attribute", title: "This attribute must be a valid http or https URL.", problems: []string{"url"}, member: "url"},
		{name: "url not a string", body: map[string]any{"events": []string{"video.summary.generated"}, "url": 5}, typ: docs + "invalid-attribute", title: "This attribute must be a string.", problems: []string{"url"}, member: "url"},
		{name: "unknown attribute", body: map[string]any{"events": []string{"video.summary.generated"}, "url": "https://a.test", "secret": "x"}, typ: docs + "invalid-attribute", title: "This attribute does not exist for this endpoint.", problems: []string{"secret"}, member: "secret"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.api("POST", "/webhooks", tc.body)
			expectStatus(t, r, http.StatusBadRequest)
			if r.str("type") != tc.typ || r.num("status") != 400 || r.str("name") != tc.problems[0] {
				t.Errorf("body: %s", r.raw)
			}
			if tc.title != "" && r.str("title") != tc.title {
				t.Errorf("title %q, want %q", r.str("title"), tc.title)
			}
			var names []string
			for _, p := range r.problems() {
				names = append(names, fmt.Sprint(p["name"]))
				if !strings.HasPrefix(fmt.Sprint(p["type"]), docs) || p["title"] == "" {
					t.Errorf("problem %v", p)
				}
			}
			if fmt.Sprint(names) != fmt.Sprint(tc.problems) {
				t.Errorf("problems %v, want %v", names, tc.problems)
			}
			if r.str(tc.member) == "" {
				t.Errorf("no member named %s: %s", tc.member, r.raw)
			}
		})
	}
	for _, body := range []any{nil, "", "{", "[1]", "null", `"text"`} {
		r := e.api("POST", "/webhooks", body)
		expectStatus(t, r, http.StatusBadRequest)
		if r.str("title") != "The payload is invalid." || r.num("status") != 400 || !strings.HasPrefix(r.str("type"), docs) {
			t.Errorf("payload %v: %s", body, r.raw)
		}
	}
	if n := len(e.emu.Webhooks()); n != 0 {
		t.Errorf("%d webhooks stored by failing creates", n)
	}
}

func TestWebhookLimit(t *testing.T) {
	for _, tc := range []struct {
		max, want int
	}{{0, 20}, {3, 3}} {
		e := newEnv(t, emulator.Options{MaxWebhooks: tc.max, Limits: emulator.Limits{Writes: 100}})
		for i := range tc.want {
			e.createWebhook(fmt.Sprintf("https://r.test/%d", i), "video.summary.generated")
		}
		r := e.api("POST", "/webhooks", map[string]any{"url": "https://r.test/over", "events": []string{"video.summary.generated"}})
		expectStatus(t, r, http.StatusBadRequest)
		if r.str("title") != "Your account has reached the webhook urls limit." {
			t.Errorf("limit %d: %s", tc.want, r.raw)
		}
		// The control API is held to the same limit.
		if _, err := e.emu.CreateWebhook("https://r.test/ctl", []string{"video.summary.generated"}); !errors.Is(err, emulator.ErrWebhookLimit) {
			t.Errorf("limit %d: CreateWebhook went over the limit", tc.want)
		}
		if got := len(e.emu.Webhooks()); got != tc.want {
			t.Errorf("%d webhooks stored, want %d", got, tc.want)
		}
	}
}

func TestWebhookListFilterAndQueryErrors(t *testing.T) {
	e := newEnv(t, emulator.Options{})
	a := e.createWebhook("https://r.test/a", "video.summary.generated", "video.caption.generated")
	e.createWebhook("https://r.test/b", "video.caption.generated")
	c := e.createWebhook("https://r.test/c", "video.summary.generated")
	r := e.api("GET", "/webhooks?events=video.summary.generated", nil)
	expectStatus(t, r, http.StatusOK)
	var ids []any
	for _, it := range r.data() {
		ids = append(ids, it["webhookId"])
	}
	if fmt.Sprint(ids) != fmt.Sprint([]any{a.str("webhookId"), c.str("webhookId")}) {
		t.Errorf("filtered ids %v", ids)
	}
	if r.pagination()["itemsTotal"] != float64(2) {
		t.Errorf("pagination: %v", r.pagination())
	}
	for _, q := range []string{
		"events=video.deleted", "events=a&events=b", "currentPage=0", "currentPage=-1", "currentPage=x",
		"pageSize=0", "pageSize=101", "pageSize=2.5", "pageSize=", "unknown=1", "currentPage=1&currentPage=2",
	} {
		r := e.api("GET", "/webhooks?"+q, nil)
		expectStatus(t, r, http.StatusBadRequest)
		if !strings.HasSuffix(r.str("type"), "/invalid-attribute") || len(r.problems()) == 0 || r.str("name") == "" {
			t.Errorf("%s: %s", q, r.raw)
		}
	}
	for _, q := range []string{"pageSize=1", "pageSize=100", "currentPage=99"} {
		expectStatus(t, e.api("GET", "/webhooks?"+q, nil), http.StatusOK)
	}
}
