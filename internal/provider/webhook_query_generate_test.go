package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// TestAccWebhookQueryGenerateConfig runs what a user runs to adopt many webhooks at once:
// terraform query -generate-config-out over 130 webhooks made outside Terraform (two pages of
// the service's list), then apply and plan on the generated configuration. The testing
// framework cannot apply a file it did not write, so the test builds the provider, points
// Terraform at it with dev_overrides in its own CLI configuration, and runs the terraform of
// TF_ACC_TERRAFORM_PATH (else the one on PATH) directly. It needs Terraform 1.14 or later and is
// skipped, naming the version found, below it.
func TestAccWebhookQueryGenerateConfig(t *testing.T) {
	const n = 130
	env := newAccEnv(t, emulator.Options{MaxWebhooks: 200})
	requireCLIFeature(t, featureQuery)
	env.requireEmulator(t)
	parallel(t)
	ctx, cancel := context.WithTimeout(t.Context(), 6*time.Minute)
	defer cancel()
	cli := newCLIWorkdir(ctx, t, "1.14.0")

	seeded := seedWebhooks(t, env.Emu, n)
	cli.write("main.tf", `terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
`+env.providerConfig(""))
	cli.write("webhooks.tfquery.hcl", `list "videohost_webhook" "all" {
  provider = videohost
  limit    = 1000
}
`)

	lists, singles := readsDuring(env.Emu, "/webhooks", func() { cli.run("query", "-no-color", "-generate-config-out=generated.tf") })
	t.Logf("terraform query -generate-config-out over %d webhooks: %d list reads, %d single reads (bound ceil(N/100)+1 = %d)",
		n, lists, singles, pagesFor(n)+1)
	if lists > pagesFor(n)+1 || singles != 0 {
		t.Errorf("%d list reads and %d single reads for %d webhooks, want at most %d and none", lists, singles, n, pagesFor(n)+1)
	}

	generated, err := os.ReadFile(filepath.Join(cli.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(regexp.MustCompile(`(?m)^resource "videohost_webhook" `).FindAll(generated, -1)); got != n {
		t.Errorf("generated.tf has %d videohost_webhook resource blocks, want %d", got, n)
	}
	if got := len(regexp.MustCompile(`(?m)^import \{`).FindAll(generated, -1)); got != n {
		t.Errorf("generated.tf has %d import blocks, want %d", got, n)
	}
	for id, w := range seeded {
		if !bytes.Contains(generated, []byte(hcl(id))) || !bytes.Contains(generated, []byte(hcl(w.URL))) {
			t.Fatalf("generated.tf does not name webhook %s (%s):\n%s", id, w.URL, generated)
		}
		if bytes.Contains(generated, []byte(w.SignatureSecret)) {
			t.Fatal("generated.tf holds a signature secret")
		}
	}

	out := cli.run("apply", "-no-color", "-auto-approve")
	if want := fmt.Sprintf("%d imported, 0 added, 0 changed, 0 destroyed", n); !strings.Contains(out, want) {
		t.Errorf("apply of the generated configuration did not say %q:\n%s", want, out)
	}
	cli.run("plan", "-no-color", "-detailed-exitcode")

	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Type   string            `json:"type"`
					Values map[string]any    `json:"values"`
					ID     map[string]string `json:"identity"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(cli.run("show", "-json")), &state); err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, r := range state.Values.RootModule.Resources {
		if r.Type != "videohost_webhook" {
			continue
		}
		id, _ := r.Values["id"].(string)
		secret, _ := r.Values["signature_secret"].(string)
		if w, ok := seeded[id]; !ok || secret == "" || secret != w.SignatureSecret {
			t.Errorf("webhook %s is in the state without the service's signature secret", id)
		}
		found++
	}
	if found != n || len(env.Emu.Webhooks()) != n {
		t.Errorf("%d webhooks in the state and %d on the service, want %d and %d", found, len(env.Emu.Webhooks()), n, n)
	}
}
