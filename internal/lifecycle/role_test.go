package lifecycle_test

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// pluginStartTimeout is how long Terraform (go-plugin) waits for a provider's handshake line
// before it gives up with "timeout while waiting for plugin to start".
const pluginStartTimeout = time.Minute

// TestAccInheritedRoleVariableChangesNothing: Terraform passes its environment to the providers
// it starts, so a VIDEOHOST_PROVIDER_ROLE there (a CI job's variables, a wrapper, a shell in which
// a cleaner was once run by hand) must not change what the provider is. Started as Terraform
// starts it, with that variable set and its standard input at end of file or an open pipe that
// nothing writes to, the provider serves the plugin protocol: it prints go-plugin's handshake
// line for protocol 6.
func TestAccInheritedRoleVariableChangesNothing(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("builds the provider: runs with TF_ACC=1, as the acceptance tests do")
	}
	bin := acctest.ProviderBinary(t.Context(), t)
	for _, stdin := range []string{"at end of file", "an open pipe"} {
		t.Run("stdin "+stdin, func(t *testing.T) {
			cmd := exec.Command(bin)
			cmd.Env = append(os.Environ(),
				"TF_PLUGIN_MAGIC_COOKIE=d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
				"PLUGIN_PROTOCOL_VERSIONS=6",
				"VIDEOHOST_PROVIDER_ROLE=delete-unclosed-upload-tokens")
			if stdin == "an open pipe" {
				w, err := cmd.StdinPipe()
				if err != nil {
					t.Fatal(err)
				}
				defer func() { _ = w.Close() }()
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			line := make(chan string, 1)
			go func() {
				l, _ := bufio.NewReader(out).ReadString('\n')
				line <- l
				_, _ = io.Copy(io.Discard, out)
			}()
			select {
			case l := <-line:
				if !strings.HasPrefix(l, "1|6|") {
					t.Fatalf("the provider printed %q, want go-plugin's handshake line for protocol 6 (1|6|...)", l)
				}
			case <-time.After(pluginStartTimeout):
				// Terraform's own bound: it would fail the run here.
				t.Fatalf("no handshake line after %s: Terraform fails with \"timeout while waiting for plugin to start\"", pluginStartTimeout)
			}
		})
	}
}

// TestAccPlanWithTheRoleVariableExported: the same through the real CLI, whose providers take
// its environment and its standard input: with VIDEOHOST_PROVIDER_ROLE exported, a plan reads the
// service through the provider.
func TestAccPlanWithTheRoleVariableExported(t *testing.T) {
	env := acctest.NewAccEnv(t, emulator.Options{})
	w := acctest.NewCLIWorkdir(t.Context(), t, "1.0.0")
	w.WriteConfig(env, "", `
data "videohost_webhooks" "all" {}

output "webhooks" {
  value = length(data.videohost_webhooks.all.webhooks)
}
`)
	w.Env = append(w.Env, "VIDEOHOST_PROVIDER_ROLE=delete-unclosed-upload-tokens")
	if out := w.Run("plan", "-no-color"); !strings.Contains(out, "webhooks = 0") {
		t.Fatalf("the plan does not show the service's 0 webhooks:\n%s", out)
	}
}
