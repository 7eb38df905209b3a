package uploadtoken_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestAccUploadTokenEphemeral opens the ephemeral upload token in a plan and an apply: the echo
// provider shows the token it gave (a real one, whose id is its fingerprint), every token it
// made was deleted when it was closed, and the service holds no token after the test. Nothing
// of it is in the state but the echo's copy.
func TestAccUploadTokenEphemeral(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	noTokenLeft := func() error {
		toks, err := acctest.ServiceClient(t, env).ListUploadTokens(context.Background(), videohost.UploadTokenFilter{})
		if err != nil {
			return err
		}
		// Against a real endpoint other tests hold tokens on the account: the counts of this
		// test's own requests say it.
		if len(toks) != 0 && env.Emu != nil {
			return fmt.Errorf("%d upload tokens left on the service, want none: every token opened is deleted when closed", len(toks))
		}
		made, deleted := env.RequestCount(http.MethodPost, "/upload-tokens"), env.RequestCount(http.MethodDelete, "/upload-tokens")
		if made < 2 || deleted != made {
			return fmt.Errorf("%d tokens made and %d deleted; want one per plan and apply, each deleted", made, deleted)
		}
		return nil
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.AccessTokenProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		CheckDestroy:             func(*terraform.State) error { return noTokenLeft() },
		Steps: []resource.TestStep{
			// OpenTofu 1.11 lists an ephemeral resource's opening in the plan (see
			// emptyPlanAfterApply).
			acctest.EmptyPlanAfterApply(t, resource.TestStep{
				Config: env.ProviderConfig("") + `
ephemeral "videohost_upload_token" "run" {
  ttl = 900
}

provider "echo" {
  data = ephemeral.videohost_upload_token.run
}

resource "echo" "token" {}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("token"),
						knownvalue.StringRegexp(regexp.MustCompile(`^to[0-9A-Za-z]{22}$`))),
					statecheck.ExpectKnownValue("echo.token", tfjsonpath.New("data").AtMapKey("ttl"), knownvalue.Int64Exact(900)),
					acctest.StateCheckFunc(func(s *tfjson.State) error {
						r, err := acctest.StateResource(s, "echo.token")
						if err != nil {
							return err
						}
						data, _ := r.AttributeValues["data"].(map[string]any)
						token, _ := data["token"].(string)
						if id, _ := data["id"].(string); id != uploadtoken.UploadTokenFingerprint(token) {
							return fmt.Errorf("id %q is not the token's fingerprint", id)
						}
						if data["expires_at"] == nil {
							return errors.New("expires_at is null for a token with a ttl")
						}
						for _, other := range s.Values.RootModule.Resources {
							if other.Address != "echo.token" && other.Type != "echo" {
								return fmt.Errorf("%s in the state: an ephemeral resource is never in it", other.Address)
							}
						}
						// Closed at the end of the apply: the token the apply used is gone.
						if _, err := acctest.ServiceClient(t, env).GetUploadToken(context.Background(), token); !errors.Is(err, videohost.ErrNotFound) {
							return fmt.Errorf("the token the apply opened is still on the service after it (%v)", err)
						}
						return noTokenLeft()
					}),
				},
			}),
		},
	})
}

// TestAccUploadTokenEphemeralBadTTL: a ttl of 0 (a token that would outlive a killed run
// forever) is an error on ttl before any request.
func TestAccUploadTokenEphemeralBadTTL(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_10_0)},
		Steps: []resource.TestStep{{
			Config: env.ProviderConfig("") + `
ephemeral "videohost_upload_token" "run" {
  ttl = 0
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)ttl.*between 1 and 2147483647`),
		}},
	})
}

// refuseNthTokenCreate wraps the emulator so that the nth POST /upload-tokens counted from the
// last arm is answered 400 (nothing stored): one opening of a run fails, after which Terraform
// closes none of the run's ephemeral resources.
type refuseNthTokenCreate struct {
	mu   sync.Mutex
	left int // POSTs before the refused one; 0 when disarmed
}

func (f *refuseNthTokenCreate) arm(n int) { f.mu.Lock(); f.left = n; f.mu.Unlock() }

func (f *refuseNthTokenCreate) wrap(e *emulator.Emulator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/upload-tokens" {
			f.mu.Lock()
			refuse := f.left == 1
			if f.left > 0 {
				f.left--
			}
			f.mu.Unlock()
			if refuse {
				// As the service answers a 400, by its published document.
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusBadRequest)
				_, _ = io.WriteString(w, `{"type":"https://docs.api.video/reference/invalid-attribute","title":"An attribute is invalid.","status":400,"name":"ttl"}`)
				return
			}
		}
		e.ServeHTTP(w, r)
	})
}

// TestAccUploadTokenEphemeralLeavesNoTokenAfterAFailedRun drives the real CLI against a service
// that stores every create and answers 500 (each opening adopts its token) and refuses one
// create of a run. Terraform then closes none of that run's tokens; the provider deletes them
// when Terraform stops it, so the service holds no token after a failed plan or a failed apply.
func TestAccUploadTokenEphemeralLeavesNoTokenAfterAFailedRun(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	acctest.Parallel(t)
	refuse := &refuseNthTokenCreate{}
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{Limits: acctest.RaisedLimits, Faults: emulator.Faults{CommitThen500Rate: 1}}, refuse.wrap)
	w := acctest.NewCLIWorkdir(t.Context(), t, "1.10.0")
	w.Write("main.tf", fmt.Sprintf(`
terraform {
  required_providers {
    videohost = { source = "videohost/videohost" }
  }
}
provider "videohost" {
  base_url = %q
  api_key  = %q
}
ephemeral "videohost_upload_token" "t" {
  count = 5
  ttl   = 900
}
resource "terraform_data" "run" {}
`, baseURL, emu.APIKeys()[0]))
	client, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: emu.APIKeys()[0], AuthScheme: videohost.AuthBasic})
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) (string, error) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), w.Bin, args...)
		cmd.Dir, cmd.Env = w.Dir, w.Env
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	noTokenLeft := func(what string) {
		t.Helper()
		left, lerr := client.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
		if lerr != nil {
			t.Fatal(lerr)
		}
		if len(left) != 0 {
			t.Errorf("after a failed %s the service holds %d upload tokens, want none", what, len(left))
		}
	}
	refuse.arm(3)
	if out, err := run("plan", "-no-color"); err == nil || !strings.Contains(out, "Unable to Create Upload Token") {
		t.Fatalf("the plan must fail on the refused token: %v\n%s", err, out)
	}
	noTokenLeft("plan")
	posts := emu.RequestCount(http.MethodPost, "/upload-tokens")
	// The apply's plan opens 5 tokens; the third opening of its apply phase is refused.
	refuse.arm(5 + 3)
	out, err := run("apply", "-auto-approve", "-no-color")
	switch made := emu.RequestCount(http.MethodPost, "/upload-tokens") - posts; {
	case made == 5 && err == nil:
		// OpenTofu 1.12 opens an ephemeral resource in the apply phase only where the apply
		// uses its value, and nothing here does: the run's only openings were its plan's,
		// which it closed. There is no failed apply phase to make on this CLI.
		line, _ := acctest.CliVersionLine()
		t.Logf("%s opened the tokens in the apply's plan only; its apply phase opened none", line)
	case made < 8:
		t.Errorf("the apply made %d tokens: the refused one was not in the apply's openings\n%s", made, out)
	case err == nil || !strings.Contains(out, "Unable to Create Upload Token"):
		t.Fatalf("the apply must fail on the refused token: %v\n%s", err, out)
	}
	noTokenLeft("apply")
	if emu.FaultCounts().CommitThen500 == 0 {
		t.Error("no create was stored and answered 500: a failed opening's own token was not tested")
	}
}

// TestOpeningThatCannotTellItsTokenSaysSo: an opening whose create is stored and answered 500
// while another client creates a token of the same ttl cannot tell which token is its own. It
// fails, deletes neither (one is another run's credential), keeps neither for deletion at exit,
// says until when the token it may have made lives, and does not suggest an import, which an
// ephemeral resource cannot have.
func TestOpeningThatCannotTellItsTokenSaysSo(t *testing.T) {
	var armed atomic.Bool
	emu, pd := acctest.AdoptionEnv(t, emulator.Options{Limits: acctest.RaisedLimits}, acctest.OtherClientCreates("/upload-tokens", &armed))
	armed.Store(true)
	emu.SetFaults(emulator.Faults{CommitThen500Rate: 1})
	var diags diag.Diagnostics
	if _, ok := uploadtoken.OpenUploadToken(t.Context(), pd, 600, &diags); ok || !diags.HasError() {
		t.Fatalf("the opening succeeded (%v): it cannot know which token is its own", diags)
	}
	d := diags.Errors()[0]
	if d.Summary() != "Unable to Tell Which Upload Token This Create Stored" {
		t.Errorf("summary %q", d.Summary())
	}
	for _, want := range []string{"stays usable until its ttl ends", "at the latest", "videohost_upload_tokens", "own ttl"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("the detail does not say %q: %s", want, d.Detail())
		}
	}
	if strings.Contains(strings.ToLower(d.Detail()), "import") {
		t.Errorf("the detail suggests an import, impossible for an ephemeral resource: %s", d.Detail())
	}
	emu.SetFaults(emulator.Faults{})
	listed, err := pd.Client.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
	if err != nil || len(listed) != 2 {
		t.Fatalf("%d tokens (%v) on the service; want both candidates, neither deleted", len(listed), err)
	}
	for _, tok := range listed {
		uploadtoken.UnclosedUploadTokens.Mu.Lock()
		_, kept := uploadtoken.UnclosedUploadTokens.Tokens[tok.Token]
		uploadtoken.UnclosedUploadTokens.Mu.Unlock()
		if kept {
			t.Errorf("candidate %s is kept for deletion at exit: it is not provably this opening's", uploadtoken.UploadTokenFingerprint(tok.Token))
		}
	}
}
