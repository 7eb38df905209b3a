package lifecycle

import (
	"context"
	"log"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// Leftovers are the secrets that the provider's kinds opened for one run and that Terraform did
// not close: the provider deletes them when it ends, and a cleaner those it could not.
type Leftovers interface {
	// Delete deletes what is kept within ctx and returns how many it deleted; what it could not
	// delete stays kept. The error never holds a secret.
	Delete(ctx context.Context) (int, error)
	// Take empties what is kept and returns it, by the client that made each.
	Take() map[*videohost.Client][]string
	// Keep keeps a token of c, for Delete.
	Keep(c *videohost.Client, token string)
}

// Serve serves the provider that server makes to Terraform under address until Terraform stops
// it, then deletes the leftovers of the run (handing to a cleaner those it cannot delete in
// time). A debug run is started by its user, who stops it with Ctrl-C; one started by Terraform
// leaves its stopping to Terraform (see lifecycle.go). server is provider.NewServer's: the
// framework's server with each request's context let go when the request returns.
func Serve(address string, server func() tfprotov6.ProviderServer, leftovers Leftovers, debug bool) error {
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	} else {
		for _, name := range unreadLogs(os.Environ()) {
			_ = os.Setenv(name, "OFF")
		}
		watchProcess(func() { parentGoneExit(leftovers) })
	}
	err := tf6server.Serve(address, server, opts...)
	deleteUnclosedTokens(leftovers)
	return err
}

// unclosedTokensBudget is the time the provider takes, once Terraform has stopped it, to delete
// the ephemeral upload tokens that Terraform did not close: Terraform waits 2 seconds for the
// process to exit before it kills it. The client cuts a delete still in flight at the end of
// this budget (a delete may be sent again), so what is left goes to a cleaner in time (see
// unclosed_tokens_handoff.go).
const unclosedTokensBudget = 1500 * time.Millisecond

// deleteUnclosedTokens deletes the ephemeral upload tokens of this process that Terraform did
// not close (it closes none of a run's ephemeral resources when one opening fails, nor when it
// is interrupted), and hands those it could not delete in its budget to a cleaner process.
// Serve has returned: Terraform has stopped the provider and reads its standard error until it
// exits.
func deleteUnclosedTokens(leftovers Leftovers) {
	ctx, cancel := context.WithTimeout(context.Background(), unclosedTokensBudget)
	defer cancel()
	n, err := leftovers.Delete(ctx)
	if n > 0 {
		log.Printf("[INFO] deleted %d ephemeral upload tokens that Terraform did not close", n)
	}
	if err == nil {
		return
	}
	log.Printf("[INFO] ephemeral upload tokens that Terraform did not close are not deleted yet: %v", err)
	if pid, left, herr := handOffUnclosedTokens(leftovers.Take()); herr != nil {
		log.Printf("[WARN] %d ephemeral upload tokens that Terraform did not close stay until their ttl ends: %v", left, herr)
	} else if left > 0 {
		log.Printf("[INFO] process %d deletes the %d ephemeral upload tokens left, within %s", pid, left, cleanerBudget)
	}
}

// unreadLogs returns the logging variables of the plugin SDK and of the provider to set OFF,
// given the process's environment: all of them when no logging variable is set, none
// otherwise.
//
// Without a level in its environment, every provider built on the plugin SDK writes its logs
// at TRACE to standard error (about 90 JSON lines per resource per plan), and Terraform parses
// and drops them unless TF_LOG or TF_LOG_PROVIDER asks for them. At 3,000 resources the requests
// queued behind that stream held 170 MiB of logging contexts, and the provider peaked above
// 350 MiB. Terraform passes its environment to the provider, so a user who sets any TF_LOG*
// variable (or the test harness's TF_ACC_LOG_PATH) gets every line as before.
func unreadLogs(environ []string) []string {
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		if value != "" && (strings.HasPrefix(name, "TF_LOG") || name == "TF_ACC_LOG_PATH") {
			return nil
		}
	}
	return []string{"TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK", "TF_LOG_PROVIDER"}
}
