package framework

import (
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// RateWaitSummary is the summary of the warning that says the service's rate limit held the run.
const RateWaitSummary = "Waited on the Service's Rate Limit"

// rateWaitNoticeAfter is how long the rate limit must have held the run's requests in all before
// an operation says so: the pacing of a first window holds requests for moments that are not
// worth a warning.
const rateWaitNoticeAfter = time.Second

// rateWaitNotice is the part of a configured provider (one Terraform operation: a plan, an
// apply, a destroy) that gives the rate-limit warning once. Terraform folds warnings of one
// summary into one only when they point at configuration, which a destroy's do not: a
// 98-object destroy printed 48 copies when each operation that ended a stretch of waiting
// warned.
type rateWaitNotice struct {
	// inFlight counts the writes (creates, updates, deletes) that have begun and not ended.
	inFlight atomic.Int64
	// warned is set by the one operation that gives the warning.
	warned atomic.Bool
}

// RateWaitsNow marks the start of a write, which noteRateLimitWaits must end (a defer).
func RateWaitsNow(pd *ProviderData) *ProviderData {
	if pd != nil {
		pd.rateWaits.inFlight.Add(1)
	}
	return pd
}

// NoteRateLimitWaits ends a write that rateWaitsNow began, and adds the warning that the run
// waited on the rate limit when this write is the last in flight, no request of any class
// (reads, writes, uploads) is held, the client has waited rateWaitNoticeAfter in all, and no
// operation of this provider has warned yet. Its detail gives the total per class, which for
// the last write of the run is the total in all. The argument is rateWaitsNow's result, so that
// the write is counted when the defer is set: defer noteRateLimitWaits(&diags, rateWaitsNow(pd)).
func NoteRateLimitWaits(diags *diag.Diagnostics, pd *ProviderData) {
	if pd == nil || pd.rateWaits.inFlight.Add(-1) != 0 || pd.Client == nil {
		return
	}
	detail, ok := RateWaitDetail(pd.Client.RateLimitWaits())
	if ok && pd.rateWaits.warned.CompareAndSwap(false, true) {
		diags.AddWarning(RateWaitSummary, detail)
	}
}

// RateWaitDetail is the warning's detail for the client's waits, and whether they call for it:
// at least rateWaitNoticeAfter in all, and no request held now.
func RateWaitDetail(after []videohost.RateLimitWaits) (string, bool) {
	var held []string
	var total time.Duration
	ended := true
	for _, w := range after {
		total += w.Waited
		if w.Waiting > 0 {
			ended = false
		}
		if w.Waited <= 0 {
			continue
		}
		limit := "the " + w.Class + " rate limit"
		if w.Limit > 0 {
			limit += " (" + videohost.RatePer(w.Limit, w.Window) + ")"
		}
		// The sum over requests and the wall time differ as soon as requests wait together:
		// both are said, each by its name, so that neither reads as the other.
		held = append(held, fmt.Sprintf("%s held %d %s, which waited %s in total (%s of wall time)",
			limit, w.Waits, plural(w.Waits, "request", "requests"), videohost.Seconds(w.WaitedSum), videohost.Seconds(w.Waited)))
	}
	if !ended || total < rateWaitNoticeAfter {
		return "", false
	}
	return fmt.Sprintf("This Terraform run waited on the service's rate limits: %s. "+
		"Nothing failed: the provider waits for each window of the limit to reset rather than sending requests "+
		"the service would refuse, so many objects take about one window per limit's worth of requests. "+
		"The provider says this once per Terraform operation, when the writes in flight have ended; "+
		"TF_LOG_PROVIDER=INFO logs every wait as it happens; see the provider's troubleshooting guide.",
		strings.Join(held, "; ")), true
}
