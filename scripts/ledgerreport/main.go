// Command ledgerreport prints the ledger of a remote acceptance run from the directory the
// tests wrote it into (VIDEOHOST_LEDGER), a run that finished or one that was stopped or
// crashed: by kind, how many objects the run created and deleted, then each object it left,
// with its id, name and test, each create whose answer no one saw, the command that sweeps
// them, and the videos it deleted that the workspace keeps discarded (Video Restore), with the
// day the service purges them (acctest.WriteLedgerReport). It reads the discarded videos with
// VIDEOHOST_API_KEY at VIDEOHOST_BASE_URL. It exits 1 when the run left an object, or may have,
// or named one without the run's prefix and its test's name.
//
//	go run ./scripts/ledgerreport DIR
package main

import (
	"context"
	"fmt"
	"os"
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
	t, misnamed := acctest.WriteLedgerReport(os.Stdout, os.Args[1], entries)
	discarded(t.DeletedVideos)
	if len(t.Left)+len(t.Unanswered) > 0 {
		fmt.Fprintf(os.Stderr, "ledgerreport: the run left %d objects, and may have left %d more (creates whose answer no one saw): %s deletes them\n",
			len(t.Left), len(t.Unanswered), acctest.SweepCommand(os.Args[1]))
	}
	if misnamed > 0 {
		fmt.Fprintf(os.Stderr, "ledgerreport: the run named %d objects without the prefix and their test's name\n", misnamed)
	}
	if len(t.Left)+len(t.Unanswered) > 0 || misnamed > 0 {
		os.Exit(1)
	}
}

// discarded prints which of the videos the run deleted the workspace keeps discarded, and
// until when; the API has no delete of them.
func discarded(deleted []acctest.LedgerEntry) {
	key, base := os.Getenv("VIDEOHOST_API_KEY"), os.Getenv("VIDEOHOST_BASE_URL")
	if len(deleted) == 0 || key == "" || base == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	allowed := os.Getenv(acctest.EnvAllowProduction) == "1"
	if err := acctest.GuardEndpoint(ctx, base, allowed, "set "+acctest.EnvAllowProduction+"=1"); err != nil {
		fmt.Fprintf(os.Stderr, "ledgerreport: not listing the discarded videos: %v\n", err)
		return
	}
	c, err := videohost.New(videohost.Config{BaseURL: base, APIKey: key, AuthScheme: videohost.AuthBasic, Version: "ledgerreport"})
	if err != nil {
		fmt.Fprintf(os.Stderr, "ledgerreport: %v\n", err)
		return
	}
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
