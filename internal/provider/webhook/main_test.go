package webhook_test

import (
	"os"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
)

// TestMain runs the package's tests with a CLI configuration of their own and the contract
// check's summary (acctest.RunWithOwnCLIConfig).
func TestMain(m *testing.M) { os.Exit(acctest.RunWithOwnCLIConfig(m)) }

// hookURL is the address of a test's webhook what: the service keeps a webhook's URL as its
// name, so its path carries env.Name (the run's prefix and the test's name), by which a run's
// ledger and `make sweep` find it.
func hookURL(env *acctest.AccEnv, what string) string {
	return "https://hooks.example.test/" + env.Name(what)
}
