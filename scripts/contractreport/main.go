// Command contractreport prints the contract check's summary of each run from the directory
// that the acceptance tests wrote their reports into (VIDEOHOST_CONTRACT_REPORT): every package
// of the provider is a test binary of its own, and each writes what it saw, so that a run's
// summary is theirs added up. It exits 1 when a run saw a deviation, or when it finds no report.
//
//	go run ./scripts/contractreport DIR
package main

import (
	"fmt"
	"os"

	"github.com/videohost/terraform-provider-videohost/internal/contract"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: contractreport DIR (the directory VIDEOHOST_CONTRACT_REPORT named)")
		os.Exit(2)
	}
	names, runs, err := contract.ReadSummaries(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "contractreport: %v\n", err)
		os.Exit(1)
	}
	if len(names) == 0 {
		fmt.Fprintf(os.Stderr, "contractreport: %s holds no report: did the acceptance tests run with VIDEOHOST_OPENAPI set?\n", os.Args[1])
		os.Exit(1)
	}
	code := 0
	for _, name := range names {
		fmt.Printf("contract check of the run with %s:\n", name)
		s := runs[name]
		if _, err := s.WriteTo(os.Stdout); err != nil {
			fmt.Fprintf(os.Stderr, "contractreport: %v\n", err)
			os.Exit(1)
		}
		if len(s.Deviations) > 0 {
			code = 1
		}
	}
	os.Exit(code)
}
