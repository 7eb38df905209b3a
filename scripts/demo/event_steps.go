package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// triggerEvents is step 8: the emulator stands in for the studio's encoder (the live stream
// that Terraform manages starts, ends and is recorded) and for the service's AI. The partner's
// video stands for any video outside Terraform: its generated caption cannot clash with the
// captions Terraform manages.
func (d *demo) triggerEvents(ctx context.Context) error {
	for _, t := range []struct{ path, body, said string }{
		{"/live-streams/" + d.streamID + "/broadcast/start", "", "live stream " + d.streamID + " (managed by Terraform) started broadcasting"},
		{"/live-streams/" + d.streamID + "/broadcast/end", "", "live stream " + d.streamID + " ended its broadcast"},
		{"/live-streams/" + d.streamID + "/record", `{"duration":15}`, "live stream " + d.streamID + " recorded"},
		{"/videos/" + d.partnerID + "/captions", `{"language":"en"}`, "caption generated for " + d.partnerID},
		{"/videos/" + d.partnerID + "/summary", "", "summary generated for " + d.partnerID},
	} {
		if err := d.control(ctx, "POST", t.path, t.body, nil); err != nil {
			return err
		}
		d.say("    %s", t.said)
	}
	return nil
}

// triggered are the event types that the steps up to 8 cause.
var triggered = []string{"video.encoding.quality.completed", "live-stream.broadcast.started", "live-stream.broadcast.ended",
	"video.source.recorded", "video.caption.generated", "video.summary.generated"}

// showDeliveries is step 9: every event type triggered arrives, its signature verified, and the
// broadcast events name the managed live stream.
func (d *demo) showDeliveries(ctx context.Context) error {
	allSeen := func(ds []delivery) bool {
		return !slices.ContainsFunc(triggered, func(t string) bool {
			return !slices.ContainsFunc(ds, func(dl delivery) bool { return dl.verified && dl.event == t })
		})
	}
	_, seen, err := d.waitDeliveries(ctx, 0, 150, 200*time.Millisecond, allSeen)
	if err != nil {
		return err
	}
	// Late deliveries of the same burst are shown too; a missing one fails below, not here.
	if err := sleep(ctx, 500*time.Millisecond); err != nil {
		return err
	}
	// The deliveries since those step 5 showed: the partner upload's encoding among them.
	d.say("%s", indent(lines(d.deliveries(d.shown))))
	all := d.deliveries(0)
	verified := len(filter(all, func(dl delivery) bool { return dl.verified }))
	d.say("    %d deliveries verified, %d refused", verified, len(all)-verified)
	if !seen {
		return errors.New("not every triggered event reached the receiver with a valid signature within 30 s")
	}
	if verified != len(all) {
		return errors.New("some deliveries did not verify")
	}
	for _, t := range []string{"live-stream.broadcast.started", "live-stream.broadcast.ended"} {
		if !slices.ContainsFunc(all, func(dl delivery) bool {
			return dl.verified && dl.event == t && dl.fields["liveStreamId"] == d.streamID
		}) {
			return fmt.Errorf("no verified %s delivery names the managed live stream %s", t, d.streamID)
		}
	}
	d.say("    the broadcast events of the managed live stream %s arrived signed and verified", d.streamID)
	return nil
}

// importWebhook is step 10: a webhook made outside Terraform is found by terraform query where
// the CLI has it, imported with an import block, and a delivery to it verifies with the secret
// that the import read.
func (d *demo) importWebhook(ctx context.Context) error {
	outsideURL := d.receiverURL + "/outside"
	var outside struct {
		WebhookID string `json:"webhookId"`
	}
	body := fmt.Sprintf(`{"url":%q,"events":["video.summary.generated"]}`, outsideURL)
	if err := d.control(ctx, "POST", "/webhooks", body, &outside); err != nil {
		return err
	}
	if outside.WebhookID == "" {
		return errors.New("the emulator returned no webhookId")
	}
	d.say("    created %s through the control API, as the dashboard would", outside.WebhookID)
	if err := d.query(ctx, outside.WebhookID, outsideURL); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(d.work, "imported.tf"), fmt.Appendf(nil, importConfig, outside.WebhookID, outsideURL), 0o600); err != nil {
		return err
	}
	d.say("    wrote an import block into the working copy; its plan:")
	if err := d.tfOK(ctx, "plan-import", `^(  # |Plan:|No changes)`, "the plan of the import", "plan"); err != nil {
		return err
	}
	d.say("    applying it:")
	if err := d.tfOK(ctx, "apply-import", `(Import complete|Importing|Apply complete)`, "the import apply", "apply", "-auto-approve"); err != nil {
		return err
	}
	code, err := d.tfRun(ctx, "plan3", `^(No changes|Plan:|Changes to Outputs)`, "plan", "-detailed-exitcode")
	if err != nil {
		return err
	}
	if code != 0 {
		return fmt.Errorf("the plan after the import is not empty or failed (exit %d)", code)
	}
	d.say("    terraform plan -detailed-exitcode after the import returned 0")
	return d.deliverToImported(ctx, outside.WebhookID)
}

// importConfig imports the webhook made outside Terraform, and hands its secret on.
const importConfig = `import {
  to = videohost_webhook.outside
  id = %q
}

resource "videohost_webhook" "outside" {
  url    = %q
  events = ["video.summary.generated"]
}

output "imported_webhook_secrets" {
  value     = { (videohost_webhook.outside.id) = videohost_webhook.outside.signature_secret }
  sensitive = true
}
`

// findQuery is a terraform query over the webhooks of one event.
const findQuery = `list "videohost_webhook" "summaries" {
  provider = videohost
  config {
    event = "video.summary.generated"
  }
}
`

// hasQuery reports whether the CLI has terraform query: an older one fails "query -help".
func hasQuery(ctx context.Context, cli string) bool {
	return exec.CommandContext(ctx, cli, "query", "-help").Run() == nil
}

// queryResult finds the id of a result line of terraform query: "... URL (...) ... id=ID ...".
var queryResult = regexp.MustCompile(`\bid=(\S+)`)

// query finds the webhook by its url with terraform query (Terraform 1.14 and later), the way
// a user who does not know its id would; an older Terraform or OpenTofu has no query, and the id
// of the control API's answer stands in.
func (d *demo) query(ctx context.Context, id, url string) error {
	if !hasQuery(ctx, d.terraform) {
		version, _ := exec.CommandContext(ctx, d.terraform, "version").Output()
		first, _, _ := strings.Cut(string(version), "\n")
		d.say("    skipping terraform query: it needs Terraform 1.14 or later, and %s has none; the id comes from the control API's answer", first)
		return nil
	}
	file := filepath.Join(d.work, "find.tfquery.hcl")
	if err := os.WriteFile(file, []byte(findQuery), 0o600); err != nil {
		return err
	}
	d.say("    terraform query over the webhooks of video.summary.generated:")
	// terraform query takes no -input flag, so it runs without tfRun.
	out, err := d.tf(ctx, "query", "-no-color").CombinedOutput()
	if werr := os.WriteFile(filepath.Join(d.tmp, "query.txt"), out, 0o600); werr != nil {
		return werr
	}
	if err != nil {
		d.say("%s", out)
		return fmt.Errorf("terraform query failed: %w", err)
	}
	found := ""
	var listed []string
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "list.") {
			listed = append(listed, line)
		}
		if m := queryResult.FindStringSubmatch(line); found == "" && m != nil && strings.Contains(line, " "+url+" (") {
			found = m[1]
		}
	}
	d.say("%s", indent(listed))
	if found != id {
		return fmt.Errorf("terraform query did not find the webhook made outside Terraform (%s at %s)", id, url)
	}
	d.say("    terraform query found %s by its url", found)
	return os.Remove(file)
}

// deliverToImported triggers a summary: it goes to both webhooks of video.summary.generated,
// the managed /ai and the imported /outside, whose signature the receiver checks with the secret
// that the import read.
func (d *demo) deliverToImported(ctx context.Context, id string) error {
	var secrets map[string]string
	if err := d.outputJSON(ctx, "imported_webhook_secrets", &secrets); err != nil {
		return err
	}
	if err := writeKeyRing(filepath.Join(d.tmp, "keys", "imported.json"), secrets); err != nil {
		return err
	}
	before := len(d.receiverLines())
	if err := d.control(ctx, "POST", "/videos/"+d.partnerID+"/summary", "", nil); err != nil {
		return err
	}
	d.say("    a new summary goes to both webhooks of video.summary.generated: the managed /ai and the imported")
	d.say("    /outside, whose signature is checked with the secret the import read:")
	got, both, err := d.waitDeliveries(ctx, before, 100, 100*time.Millisecond, func(ds []delivery) bool {
		return slices.ContainsFunc(ds, func(dl delivery) bool { return dl.verified && dl.webhook == id }) &&
			slices.ContainsFunc(ds, func(dl delivery) bool {
				return dl.verified && dl.path == "/ai" && dl.event == "video.summary.generated"
			})
	})
	if err != nil {
		return err
	}
	// Every delivery since the trigger, so that the numbering has no gap.
	d.say("%s", indent(lines(got)))
	if !both {
		return errors.New("the new summary did not reach both the managed and the imported webhook, verified with their secrets")
	}
	return nil
}

// destroy is step 11: terraform destroy leaves nothing of what it managed on the service, and
// the partner's video, which it never managed, stays. The last look for a leak covers every
// log the later steps wrote.
func (d *demo) destroy(ctx context.Context) error {
	if err := d.tfOK(ctx, "destroy", `(Destroy complete|Destruction complete)`, "terraform destroy", "destroy", "-auto-approve"); err != nil {
		return err
	}
	// GET with the key, as any client would; itemsTotal counts every page.
	left := map[string]int{}
	for _, list := range []string{"/webhooks", "/players", "/watermarks", "/upload-tokens"} {
		n, err := d.count(ctx, list)
		if err != nil {
			return fmt.Errorf("after the destroy: %w", err)
		}
		left[list] = n
	}
	d.say("    webhooks left on the service (GET /webhooks itemsTotal): %d", left["/webhooks"])
	for _, managed := range []struct{ what, path string }{
		{"live stream " + d.streamID, "/live-streams/" + d.streamID},
		{"video " + d.launchID, "/videos/" + d.launchID},
	} {
		gone, err := d.gone(ctx, managed.path)
		if err != nil {
			return fmt.Errorf("after the destroy: %w", err)
		}
		if !gone {
			return fmt.Errorf("the managed %s is still on the service after the destroy", managed.what)
		}
	}
	d.say("    the managed live stream is gone; player themes left: %d", left["/players"])
	d.say("    the managed video is gone (its captions with it); watermarks left: %d, upload tokens left: %d", left["/watermarks"], left["/upload-tokens"])
	for _, list := range []string{"/webhooks", "/players", "/watermarks", "/upload-tokens"} {
		if left[list] != 0 {
			return fmt.Errorf("the destroy left %d of GET %s behind", left[list], list)
		}
	}
	if err := d.apiGet(ctx, "/videos/"+d.partnerID, nil); err != nil {
		return err
	}
	d.say("    the partner's video %s stays: Terraform never managed it", d.partnerID)
	if err := d.noSecretShown(ctx, "a stream key or the upload token"); err != nil {
		return err
	}
	d.say("    no stream key and no upload token in anything the demo printed or logged")
	return nil
}
