package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// uploadWithTerraform is step 5: videos.tf joins the working copy and is applied; the service
// holds the whole file, sent in chunks, and the receiver verifies one encoding event per
// quality.
func (d *demo) uploadWithTerraform(ctx context.Context) error {
	if err := writeMedia(d.media); err != nil {
		return err
	}
	video := filepath.Join(d.media, "video.mp4")
	content, err := os.ReadFile(video)
	if err != nil {
		return err
	}
	d.say("    generated in %s: video.mp4 (%d random bytes), en.vtt (two cues), watermark.png (1 x 1)", d.media, len(content))
	if err := d.copyExample("videos.tf"); err != nil {
		return err
	}
	d.env = append(d.env, "TF_VAR_media_dir="+d.media)
	d.say("    added examples/demo/videos.tf to the working copy; terraform apply:")
	if err := d.tfOK(ctx, "apply-videos", `(: Creat|: Still creating|Apply complete)`, "terraform apply of videos.tf", "apply", "-auto-approve"); err != nil {
		return err
	}
	if err := d.showOutputs(ctx, "video"); err != nil {
		return err
	}
	var planned struct {
		ID           string `json:"id"`
		SourceSHA256 string `json:"source_sha256"`
	}
	if err := d.outputJSON(ctx, "video", &planned); err != nil {
		return err
	}
	if d.launchID = planned.ID; d.launchID == "" {
		return errors.New("the video output has no id")
	}
	fingerprint, err := d.output(ctx, "upload_token_fingerprint")
	if err != nil {
		return err
	}
	expires, err := d.output(ctx, "upload_token_expires_at")
	if err != nil {
		return err
	}
	d.say("    upload token %s (its fingerprint) expires at %s", fingerprint, expires)
	if err := d.checkSource(ctx, content, planned.SourceSHA256); err != nil {
		return err
	}
	if err := d.checkEncodingEvents(ctx); err != nil {
		return err
	}
	d.shown = len(d.receiverLines())
	token, err := d.output(ctx, "upload_token")
	if err != nil {
		return err
	}
	if token == "" {
		return errors.New("the upload_token output is empty")
	}
	if err := d.addSecret(token); err != nil {
		return err
	}
	if err := d.noSecretShown(ctx, "the upload token"); err != nil {
		return err
	}
	d.say("    the upload token appears in no output (terraform output -raw upload_token gives it)")
	return nil
}

// checkSource checks that the service holds the whole file, with the SHA-256 that Terraform took
// at plan time, and that it went in chunks, as the emulator's request counts say.
func (d *demo) checkSource(ctx context.Context, content []byte, plannedSHA256 string) error {
	var source struct {
		Size   *int64  `json:"size"`
		SHA256 *string `json:"sha256"`
	}
	if err := d.control(ctx, "GET", "/videos/"+d.launchID+"/source", "", &source); err != nil {
		return err
	}
	if source.Size == nil || *source.Size != int64(len(content)) {
		return fmt.Errorf("the service does not hold the whole source of %s (%d bytes)", d.launchID, len(content))
	}
	sum := sha256.Sum256(content)
	if source.SHA256 == nil || *source.SHA256 != hex.EncodeToString(sum[:]) || plannedSHA256 != *source.SHA256 {
		return errors.New("the SHA-256 of the source on the service is not the file's, or not the one planned")
	}
	var stats struct {
		Requests []struct {
			Method, Path string
			Count        int
		} `json:"requests"`
	}
	if err := d.control(ctx, "GET", "/stats", "", &stats); err != nil {
		return err
	}
	chunks := 0
	for _, r := range stats.Requests {
		if r.Method == "POST" && r.Path == "/videos/"+d.launchID+"/source" {
			chunks += r.Count
		}
	}
	d.say("    the service holds all %d bytes (SHA-256 as planned), sent in %d chunks", *source.Size, chunks)
	if chunks < 2 {
		return fmt.Errorf("the source went in %d requests, not in chunks", chunks)
	}
	return nil
}

// checkEncodingEvents waits until the video is encoded in every quality (the apply ended once it
// was playable; the other qualities follow) and checks that the receiver verified one
// video.encoding.quality.completed delivery per quality.
func (d *demo) checkEncodingEvents(ctx context.Context) error {
	var qualities int
	for try := 0; ; try++ {
		var status struct {
			Encoding struct {
				Qualities []struct{ Status string } `json:"qualities"`
			} `json:"encoding"`
		}
		if err := d.apiGet(ctx, "/videos/"+d.launchID+"/status", &status); err != nil {
			return err
		}
		qs := status.Encoding.Qualities
		if len(qs) > 0 && !slices.ContainsFunc(qs, func(q struct{ Status string }) bool {
			return q.Status == "waiting" || q.Status == "encoding"
		}) {
			qualities = len(qs)
			break
		}
		if try == 150 {
			return fmt.Errorf("video %s was not encoded within 30 s", d.launchID)
		}
		if err := sleep(ctx, 200*time.Millisecond); err != nil {
			return err
		}
	}
	ofVideo := func(dl delivery) bool { return dl.fields["videoId"] == d.launchID }
	encoded := func(ds []delivery) []delivery {
		return filter(ds, func(dl delivery) bool {
			return dl.verified && dl.event == "video.encoding.quality.completed" && ofVideo(dl)
		})
	}
	all, _, err := d.waitDeliveries(ctx, 0, 100, 100*time.Millisecond, func(ds []delivery) bool { return len(encoded(ds)) >= qualities })
	if err != nil {
		return err
	}
	d.say("    the receiver's deliveries for %s, each signature checked:", d.launchID)
	d.say("%s", indent(lines(filter(all, ofVideo))))
	got, distinct := encoded(all), map[string]bool{}
	for _, dl := range got {
		distinct[dl.fields["encoding"]+" "+dl.fields["quality"]] = true
	}
	if len(got) != qualities || len(distinct) != qualities {
		return fmt.Errorf("%d verified video.encoding.quality.completed deliveries (%d distinct) for %d qualities of %s", len(got), len(distinct), qualities, d.launchID)
	}
	if slices.ContainsFunc(all, func(dl delivery) bool { return !dl.verified }) {
		return errors.New("some deliveries did not verify")
	}
	d.say("    %d qualities encoded, %d video.encoding.quality.completed deliveries verified: one per quality", qualities, len(got))
	return nil
}

// planAgain is step 6: a plan right after the applies changes nothing.
func (d *demo) planAgain(ctx context.Context) error {
	code, err := d.tfRun(ctx, "plan2", `^(No changes|Plan:|Changes to Outputs)`, "plan", "-detailed-exitcode")
	if err != nil {
		return err
	}
	if code != 0 {
		return fmt.Errorf("the second plan is not empty or failed (exit %d)", code)
	}
	d.say("    terraform plan -detailed-exitcode returned 0: the state matches the service")
	return nil
}

// uploadWithTokenOnly is step 7: the upload token is the only credential of an upload, as a
// partner would make it; the video lands in the workspace, titled after its file.
func (d *demo) uploadWithTokenOnly(ctx context.Context) error {
	clip := filepath.Join(d.media, "partner-clip.mp4")
	if err := writeRandom(clip, 1<<20); err != nil {
		return err
	}
	token, err := d.output(ctx, "upload_token")
	if err != nil {
		return err
	}
	if d.partnerID, err = d.uploadWithToken(ctx, token, clip); err != nil {
		return err
	}
	d.say("    POST /upload?token=(the token) with partner-clip.mp4 (%d bytes): 201, video %s", 1<<20, d.partnerID)
	// The video is in the workspace: GET /videos/{id} with the API key finds it.
	var video struct {
		Title string `json:"title"`
	}
	if err := d.apiGet(ctx, "/videos/"+d.partnerID, &video); err != nil {
		return err
	}
	d.say("    GET /videos/%s with the API key: %q", d.partnerID, video.Title)
	if video.Title != "partner-clip.mp4" {
		return fmt.Errorf("the partner's video is titled %q, not after its file", video.Title)
	}
	videos, err := d.count(ctx, "/videos")
	if err != nil {
		return err
	}
	d.say("    the workspace now holds %d videos: 5 seeded, the one Terraform manages and the partner's", videos)
	return d.noSecretShown(ctx, "the upload token")
}
