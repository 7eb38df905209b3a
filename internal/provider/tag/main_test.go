package tag_test

import (
	"os"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
)

// TestMain runs the package's tests with a CLI configuration of their own and the contract
// check's summary (acctest.RunWithOwnCLIConfig).
func TestMain(m *testing.M) { os.Exit(acctest.RunWithOwnCLIConfig(m)) }
