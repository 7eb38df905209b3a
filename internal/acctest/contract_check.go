package acctest

// The contract check of the acceptance suite: when VIDEOHOST_OPENAPI names the service's
// published OpenAPI document, every request that reaches a test's service and every answer it
// gives is validated against that document (internal/contract). A deviation fails the test that
// made it; the run ends with a summary (requests, operations, the statuses the document does
// not list), also written to the file VIDEOHOST_CONTRACT_REPORT names.

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"sync"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/contract"
)

// envContractReport names a file that receives the contract check's summary at the end of the
// run (go test shows a passing package's output only with -v), or a directory that receives it
// in a file of its own.
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

// reportContract prints the run's summary of the contract check, and writes it to the file
// that VIDEOHOST_CONTRACT_REPORT names. It returns false when the report could not be written.
func reportContract(w io.Writer) bool {
	c, _ := loadedContract()
	if c == nil || os.Getenv("TF_ACC") == "" {
		return true
	}
	s := c.Summary()
	_, _ = s.WriteTo(w)
	name := os.Getenv(envContractReport)
	if name == "" {
		return true
	}
	var f *os.File
	var err error
	if info, serr := os.Stat(name); serr == nil && info.IsDir() {
		// A directory gathers the reports of several runs (one per CLI, run side by side).
		f, err = os.CreateTemp(name, "contract-*.txt")
	} else {
		f, err = os.Create(name)
	}
	if err == nil {
		if cli := os.Getenv("TF_ACC_TERRAFORM_PATH"); cli != "" {
			_, _ = fmt.Fprintf(f, "contract check of the run with %s:\n", cli)
		}
		_, err = s.WriteTo(f)
		err = joinClose(err, f)
	}
	if err != nil {
		fmt.Fprintf(w, "contract check: writing %s: %v\n", name, err)
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
