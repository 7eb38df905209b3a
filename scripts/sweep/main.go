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
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func main() {
	prod := flag.Bool("allow-production", false, "send the key to an endpoint that is neither the sandbox nor an emulator on loopback (still never http:// beyond loopback)")
	check := flag.Bool("check-endpoint", false, "only check that the endpoint may be given the key (the sandbox, or an emulator on loopback), and exit 0 when it may")
	ledgerDir := flag.String("ledger", "", "a run's ledger directory: also delete the watermarks and upload tokens it created")
	inventory := flag.String("inventory", "", "write every object of every kind to this file and delete nothing")
	compare := flag.String("compare", "", "list every object and exit 1 when the list differs from this file's")
	run := flag.String("run", "", "the sweepers to run, by resource type, comma-separated (their dependencies run too): "+strings.Join(acctest.SweeperNames(), ", "))
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	base := os.Getenv("VIDEOHOST_BASE_URL")
	if base == "" {
		base = acctest.SandboxURL
	}
	// Every mode sends the key (a listing too): the endpoint is checked first, whatever the mode.
	if err := acctest.GuardEndpoint(ctx, base, *prod, "pass -allow-production"); err != nil {
		fail(err.Error())
	}
	if *check {
		fmt.Printf("sweep: %s may be given the key\n", base)
		return
	}
	key := os.Getenv("VIDEOHOST_API_KEY")
	if key == "" {
		fail("VIDEOHOST_API_KEY is not set: give the API key of the workspace to sweep")
	}
	c, err := videohost.New(videohost.Config{BaseURL: base, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "sweep"})
	if err != nil {
		fail(err.Error())
	}
	switch {
	case *inventory != "":
		writeInventory(ctx, c, *inventory)
	case *compare != "":
		compareInventory(ctx, c, *compare)
	default:
		var names []string
		if *run != "" {
			names = strings.Split(*run, ",")
		}
		sweep(ctx, c, names, *ledgerDir)
	}
}

func sweep(ctx context.Context, c *videohost.Client, run []string, ledgerDir string) {
	var ids map[string]bool
	if ledgerDir != "" {
		entries, err := acctest.ReadLedger(ledgerDir)
		if err != nil {
			fail(err.Error())
		}
		if len(entries) == 0 {
			fail(fmt.Sprintf("-ledger %s holds no ledger file (ledger-*.jsonl): give the directory a remote run printed", ledgerDir))
		}
		ids = acctest.LedgerIDs(entries)
		if n := len(acctest.TallyLedger(entries).Unanswered); n > 0 {
			fmt.Printf("sweep: the ledger holds %d creates whose answer no one saw: their objects are deleted only if named with the prefix\n", n)
		}
	}
	deleted, err := acctest.Sweep(ctx, c, run, ids, os.Stdout)
	fmt.Printf("sweep: deleted %d objects\n", len(deleted))
	if err != nil {
		fail(err.Error())
	}
}

func writeInventory(ctx context.Context, c *videohost.Client, file string) {
	all, err := acctest.Inventory(ctx, c)
	if err != nil {
		fail(err.Error())
	}
	raw, err := json.Marshal(all)
	if err == nil {
		err = os.WriteFile(file, raw, 0o600)
	}
	if err != nil {
		fail(err.Error())
	}
	fmt.Printf("sweep: %d objects in the workspace, listed into %s\n", len(all), file)
}

func compareInventory(ctx context.Context, c *videohost.Client, file string) {
	raw, err := os.ReadFile(file)
	var before []acctest.Object
	if err == nil {
		err = json.Unmarshal(raw, &before)
	}
	if err != nil {
		fail(fmt.Sprintf("reading the list made before the run: %v", err))
	}
	after, err := acctest.Inventory(ctx, c)
	if err != nil {
		fail(err.Error())
	}
	added, removed := acctest.InventoryDiff(before, after)
	for _, o := range added {
		fmt.Printf("left by the run: %s %s %q\n", o.Kind, acctest.ShownID(o), o.Name)
	}
	for _, o := range removed {
		fmt.Printf("gone during the run: %s %s %q\n", o.Kind, acctest.ShownID(o), o.Name)
	}
	if len(added)+len(removed) > 0 {
		fail(fmt.Sprintf("the workspace differs from before the run: %d objects more, %d fewer (make sweep deletes what the tests left)", len(added), len(removed)))
	}
	fmt.Printf("sweep: the workspace holds the same %d objects as before the run (discarded videos aside)\n", len(before))
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "sweep: "+msg)
	os.Exit(1)
}
