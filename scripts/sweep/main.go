// Command sweep deletes, in the workspace that VIDEOHOST_API_KEY opens at VIDEOHOST_BASE_URL
// (the sandbox by default), every object that the acceptance tests made: those whose name
// carries the test prefix (tf-acc-; a webhook's URL in its path) and, with -ledger, those of
// the kinds without a name (watermarks, upload tokens) whose ids a run's ledger holds. It runs
// one sweeper per resource type, each after those it depends on (acctest.Sweepers), as
// terraform-provider-aws's sweepers run; -run names some of them (their dependencies
// run too). It prints each object it deletes. Before any request with the key, in every mode,
// it refuses any endpoint but the sandbox or an emulator on loopback (one that answers as the
// emulator) unless -allow-production is given, and http:// beyond loopback even then
// (acctest.GuardEndpoint); -check-endpoint does only that check (testacc-remote.sh's).
// Discarded videos are not deleted: the API has no delete of them, and the service purges
// them 90 days after their discard.
//
// -inventory FILE writes every object of every kind to FILE instead, and -compare FILE lists
// them again and exits 1 when they differ from FILE's (CI's check that a run left nothing).
//
//	go run ./scripts/sweep [-allow-production] [-ledger DIR] [-run videohost_video,...]
//	go run ./scripts/sweep [-allow-production] -check-endpoint
//	go run ./scripts/sweep [-allow-production] -inventory FILE | -compare FILE
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// errUsage is a command line that the flags refused (they printed why): exit 2.
var errUsage = errors.New("usage")

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		stop()
		os.Exit(2)
	case err != nil:
		fmt.Fprintln(os.Stderr, "sweep: "+err.Error())
		stop()
		os.Exit(1)
	}
}

// run is the command with its arguments and environment (getenv), writing to stdout what it
// does and to stderr its usage.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sweep", flag.ContinueOnError)
	fs.SetOutput(stderr)
	prod := fs.Bool("allow-production", false, "send the key to an endpoint that is neither the sandbox nor an emulator on loopback (still never http:// beyond loopback)")
	check := fs.Bool("check-endpoint", false, "only check that the endpoint may be given the key (the sandbox, or an emulator on loopback), and exit 0 when it may")
	ledgerDir := fs.String("ledger", "", "a run's ledger directory: also delete the watermarks and upload tokens it created")
	inventory := fs.String("inventory", "", "write every object of every kind to this file and delete nothing")
	compare := fs.String("compare", "", "list every object and exit 1 when the list differs from this file's")
	sweepers := fs.String("run", "", "the sweepers to run, by resource type, comma-separated (their dependencies run too): "+strings.Join(acctest.SweeperNames(), ", "))
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	base := getenv("VIDEOHOST_BASE_URL")
	if base == "" {
		base = videohost.SandboxURL
	}
	// Every mode sends the key (a listing too): the endpoint is checked first, whatever the mode.
	if err := acctest.GuardEndpoint(ctx, base, *prod, "pass -allow-production"); err != nil {
		return err
	}
	if *check {
		fmt.Fprintf(stdout, "sweep: %s may be given the key\n", base)
		return nil
	}
	key := getenv("VIDEOHOST_API_KEY")
	if key == "" {
		return errors.New("VIDEOHOST_API_KEY is not set: give the API key of the workspace to sweep")
	}
	c, err := videohost.New(videohost.Config{BaseURL: base, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "sweep"})
	if err != nil {
		return err
	}
	switch {
	case *inventory != "":
		return writeInventory(ctx, c, *inventory, stdout)
	case *compare != "":
		return compareInventory(ctx, c, *compare, stdout)
	}
	var names []string
	if *sweepers != "" {
		names = strings.Split(*sweepers, ",")
	}
	return sweep(ctx, c, names, *ledgerDir, stdout)
}

func sweep(ctx context.Context, c *videohost.Client, run []string, ledgerDir string, w io.Writer) error {
	var ids map[string]bool
	if ledgerDir != "" {
		entries, err := acctest.ReadLedger(ledgerDir)
		if err != nil {
			return err
		}
		if len(entries) == 0 {
			return fmt.Errorf("-ledger %s holds no ledger file (ledger-*.jsonl): give the directory a remote run printed", ledgerDir)
		}
		ids = acctest.LedgerIDs(entries)
		if n := len(acctest.TallyLedger(entries).Unanswered); n > 0 {
			fmt.Fprintf(w, "sweep: the ledger holds %d creates whose answer no one saw: their objects are deleted only if named with the prefix\n", n)
		}
	}
	deleted, err := acctest.Sweep(ctx, c, run, ids, w)
	fmt.Fprintf(w, "sweep: deleted %d objects\n", len(deleted))
	return err
}

func writeInventory(ctx context.Context, c *videohost.Client, file string, w io.Writer) error {
	all, err := acctest.Inventory(ctx, c)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(all)
	if err == nil {
		err = os.WriteFile(file, raw, 0o600)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "sweep: %d objects in the workspace, listed into %s\n", len(all), file)
	return nil
}

func compareInventory(ctx context.Context, c *videohost.Client, file string, w io.Writer) error {
	raw, err := os.ReadFile(file)
	var before []acctest.Object
	if err == nil {
		err = json.Unmarshal(raw, &before)
	}
	if err != nil {
		return fmt.Errorf("reading the list made before the run: %w", err)
	}
	after, err := acctest.Inventory(ctx, c)
	if err != nil {
		return err
	}
	added, removed := acctest.InventoryDiff(before, after)
	for _, o := range added {
		fmt.Fprintf(w, "left by the run: %s %s %q\n", o.Kind, acctest.ShownID(o), o.Name)
	}
	for _, o := range removed {
		fmt.Fprintf(w, "gone during the run: %s %s %q\n", o.Kind, acctest.ShownID(o), o.Name)
	}
	if len(added)+len(removed) > 0 {
		return fmt.Errorf("the workspace differs from before the run: %d objects more, %d fewer (make sweep deletes what the tests left)", len(added), len(removed))
	}
	fmt.Fprintf(w, "sweep: the workspace holds the same %d objects as before the run (discarded videos aside)\n", len(before))
	return nil
}
