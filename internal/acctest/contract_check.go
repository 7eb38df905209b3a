package acctest

// The contract check of the acceptance suite: when VIDEOHOST_OPENAPI names the service's
// published OpenAPI document, every request that reaches a test's service and every answer it
// gives is validated against that document (internal/contract). A deviation fails the test that
// made it; the run ends with a summary (requests, operations, the statuses the document does
// not list), written into the directory VIDEOHOST_CONTRACT_REPORT names.

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/contract"
)

// envContractReport names a directory that receives each test binary's contract summary in a
// file of its own (go test shows a passing package's output only with -v).
const envContractReport = "VIDEOHOST_CONTRACT_REPORT"

var (
	contractOnce    sync.Once
	contractChecker *contract.Checker
	contractErr     error
)

// loadedContract returns the checker of the document VIDEOHOST_OPENAPI names, loaded once per
// run, or nil when the variable is not set.
func loadedContract() (*contract.Checker, error) {
	contractOnce.Do(func() {
		if path := os.Getenv(contract.EnvDocument); path != "" {
			contractChecker, contractErr = contract.Load(path)
		}
	})
	return contractChecker, contractErr
}

// checkContract wraps h in the contract check when the run has a document, and fails t at its
// end with every deviation that its traffic showed.
func checkContract(t *testing.T, h http.Handler) http.Handler {
	t.Helper()
	c, err := loadedContract()
	if err != nil {
		t.Fatalf("contract check: %v", err)
	}
	if c == nil {
		return h
	}
	var mu sync.Mutex
	var found []contract.Deviation
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, d := range found {
			t.Errorf("contract check: %s", d)
		}
	})
	return c.Middleware(h, func(d contract.Deviation) {
		mu.Lock()
		defer mu.Unlock()
		found = append(found, d)
	})
}

// announceContract says, before an acceptance run, whether its traffic is checked.
func announceContract(w io.Writer) {
	if os.Getenv("TF_ACC") == "" {
		return
	}
	if os.Getenv(contract.EnvDocument) == "" {
		fmt.Fprintf(w, "contract check: off (the acceptance tests run unchecked): %s\n", contract.HowToGet)
	}
}

// reportContract writes what this test binary's contract check saw into the directory that
// VIDEOHOST_CONTRACT_REPORT names, as JSON that scripts/contractreport adds up with the other
// packages' (every package of the provider is a test binary of its own), or prints it when no
// directory is named. It returns false when the report could not be written.
func reportContract(w io.Writer) bool {
	c, _ := loadedContract()
	if c == nil || os.Getenv("TF_ACC") == "" {
		return true
	}
	s := c.Summary()
	dir := os.Getenv(envContractReport)
	if dir == "" {
		_, _ = s.WriteTo(w)
		return true
	}
	run := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if run == "" {
		run = "the terraform on PATH"
	}
	err := os.MkdirAll(dir, 0o700)
	var f *os.File
	if err == nil {
		f, err = os.CreateTemp(dir, "contract-*.json")
	}
	if err == nil {
		err = joinClose(s.WriteJSON(f, run), f)
	}
	if err != nil {
		fmt.Fprintf(w, "contract check: writing a report into %s: %v\n", dir, err)
		return false
	}
	return true
}

func joinClose(err error, c io.Closer) error {
	if cerr := c.Close(); err == nil {
		return cerr
	}
	return err
}
