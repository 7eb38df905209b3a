package provider

import (
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// rateWaitSummary is the summary of every warning that says the service's rate limit held the
// run. Terraform folds warnings of one summary into the first with "(and N more similar
// warnings elsewhere)", so a run of many resources prints it once, not once per resource.
const rateWaitSummary = "Waited on the Service's Rate Limit"

// rateWaitNoticeAfter is how long the rate limit must have held the run's requests in all before
// an operation says so: the pacing of a first window holds requests for moments that are not
// worth a warning.
const rateWaitNoticeAfter = time.Second

// rateWaitsNow is the client's account of its rate-limit waits; taken before an operation, it
// is handed to noteRateLimitWaits after it.
func rateWaitsNow(pd *providerData) []videohost.RateLimitWaits {
	if pd == nil || pd.client == nil {
		return nil
	}
	return pd.client.RateLimitWaits()
}

// noteRateLimitWaits adds the warning that the run waited on the rate limit. Its detail gives
// the total the client has waited so far in this run of the provider (one Terraform command),
// per class, and says what the provider does about it.
//
// Terraform shows one warning of a summary, the others counted below it, in no set order, so
// the warning comes only at the end of a stretch of waiting: from an operation during which the
// limiter held requests of a class, once no request of that class is held any more, and after
// the run has waited rateWaitNoticeAfter in all. Mid-apply, more requests are nearly always
// held when an operation ends; the operation that ends each stretch (the last of the apply
// among them) warns, with the total so far, which at the end of the run is the total in all.
func noteRateLimitWaits(pd *providerData, diags *diag.Diagnostics, before []videohost.RateLimitWaits) {
	if detail, ok := rateWaitDetail(before, rateWaitsNow(pd)); ok {
		diags.AddWarning(rateWaitSummary, detail)
	}
}

// rateWaitDetail is the warning's detail, and whether an operation that saw the client's waits
// go from before to after warns (see noteRateLimitWaits).
func rateWaitDetail(before, after []videohost.RateLimitWaits) (string, bool) {
	var held []string
	var total time.Duration
	ended := false
	for i, w := range after {
		total += w.Waited
		if i < len(before) && w.Waited > before[i].Waited && w.Waiting == 0 {
			ended = true
		}
		if w.Waited <= 0 {
			continue
		}
		limit := "the " + w.Class + " rate limit"
		if w.Limit > 0 {
			limit += " (" + videohost.RatePer(w.Limit, w.Window) + ")"
		}
		held = append(held, fmt.Sprintf("%s held requests for %s in all so far (%d %s held)",
			limit, videohost.Seconds(w.Waited), w.Waits, plural(w.Waits, "request was", "requests were")))
	}
	if !ended || total < rateWaitNoticeAfter {
		return "", false
	}
	return fmt.Sprintf("This Terraform run waited on the service's rate limits: %s. "+
		"Nothing failed: the provider waits for each window of the limit to reset rather than sending requests "+
		"the service would refuse, so many objects take about one window per limit's worth of requests. "+
		"Terraform prints one of these warnings and counts the others below it; each gives the total when its "+
		"operation ended. TF_LOG_PROVIDER=INFO logs every wait as it happens; see the provider's troubleshooting "+
		"guide.", strings.Join(held, "; ")), true
}

// plural picks the singular or the plural of a phrase for n.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
