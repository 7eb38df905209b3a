// Command ledgerreport prints the ledger of a remote acceptance run from the directory the
// tests wrote it into (VIDEOHOST_LEDGER): by kind, how many objects the run created and
// deleted, then each object it left, with its id, name and test, and the videos it deleted
// that the workspace keeps discarded (Video Restore), with the day the service purges them.
// It reads the discarded videos with VIDEOHOST_API_KEY at VIDEOHOST_BASE_URL. It exits 1 when
// the run left an object or named one without the run's prefix and its test's name.
//
//	go run ./scripts/ledgerreport DIR
package main

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: ledgerreport DIR (the directory VIDEOHOST_LEDGER named)")
		os.Exit(2)
	}
	entries, err := acctest.ReadLedger(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "ledgerreport: %v\n", err)
		os.Exit(1)
	}
	t := acctest.TallyLedger(entries)
	kinds := map[string]bool{}
	for k := range t.Created {
		kinds[k] = true
	}
	for k := range t.Deleted {
		kinds[k] = true
	}
	left := map[string]int{}
	for _, e := range t.Left {
		left[e.Kind]++
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Println("ledger of the run (what the tests created and deleted on the endpoint):")
	for _, k := range names {
		fmt.Printf("  %-14s %4d created, %4d deleted, %4d left\n", k, t.Created[k], t.Deleted[k], left[k])
	}
	for _, e := range t.Left {
		fmt.Printf("  left: %s %s %q by %s\n", e.Kind, acctest.ShownID(acctest.Object{Kind: e.Kind, ID: e.ID}), e.Name, e.Test)
	}
	misnamed := unprefixed(entries)
	discarded(t.DeletedVideos)
	if len(t.Left) > 0 {
		fmt.Fprintf(os.Stderr, "ledgerreport: the run left %d objects; make sweep deletes those whose name carries %s\n", len(t.Left), acctest.TestPrefix)
	}
	if misnamed > 0 {
		fmt.Fprintf(os.Stderr, "ledgerreport: the run named %d objects without the prefix and their test's name\n", misnamed)
	}
	if len(t.Left) > 0 || misnamed > 0 {
		os.Exit(1)
	}
}

// unprefixed names the tests that gave an object a name without the run's prefix and their
// own name: make sweep cannot find what such a test leaves, nor anyone trace it to its test.
func unprefixed(entries []acctest.LedgerEntry) int {
	byTest := map[string]int{}
	var names []string
	for _, e := range acctest.Misnamed(entries) {
		byTest[e.Test]++
		names = append(names, fmt.Sprintf("%s %q", e.Kind, e.Name))
	}
	if len(byTest) == 0 {
		return 0
	}
	tests := make([]string, 0, len(byTest))
	for name, n := range byTest {
		tests = append(tests, fmt.Sprintf("%s (%d)", name, n))
	}
	sort.Strings(tests)
	fmt.Printf("  named without the prefix %s and the test's name (make sweep cannot find what they leave; name them with acctest.RunName): %s\n",
		acctest.TestPrefix, strings.Join(tests, ", "))
	fmt.Printf("  the names: %s\n", strings.Join(names, ", "))
	return len(names)
}

// discarded prints which of the videos the run deleted the workspace keeps discarded, and
// until when; the API has no delete of them.
func discarded(deleted []acctest.LedgerEntry) {
	key, base := os.Getenv("VIDEOHOST_API_KEY"), os.Getenv("VIDEOHOST_BASE_URL")
	if len(deleted) == 0 || key == "" || base == "" {
		return
	}
	c, err := videohost.New(videohost.Config{BaseURL: base, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "ledgerreport"})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ledgerreport: %v\n", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	list, err := c.ListDiscardedVideos(ctx, videohost.VideoFilter{})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ledgerreport: listing the discarded videos: %v\n", err)
		return
	}
	kept := map[string]videohost.Video{}
	for _, v := range list {
		kept[v.ID] = v
	}
	n, seen := 0, map[string]bool{}
	for _, e := range deleted {
		// A video deleted, restored and deleted again is one discarded video.
		if seen[e.ID] {
			continue
		}
		seen[e.ID] = true
		v, ok := kept[e.ID]
		if !ok || v.DiscardedAt == nil {
			continue
		}
		n++
		fmt.Printf("  discarded: video %s %q by %s, kept until %s (the API cannot delete it; the service purges it then)\n",
			e.ID, e.Name, e.Test, v.DiscardedAt.Add(acctest.DiscardRetention).UTC().Format(time.DateOnly))
	}
	fmt.Printf("  %d of the %d videos the run deleted are kept discarded by the workspace's Video Restore\n", n, len(seen))
}
