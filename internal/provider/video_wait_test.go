package provider

import (
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// failedEncoding answers every status read with a source that is in and an encoding whose hls
// 720p failed, as the service does for a source it cannot encode (the emulator, which cannot
// read media, never fails one).
func failedEncoding(emu *emulator.Emulator) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/status") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ingest": {"status": "ingested", "filesize": 1024, "receivedBytes": [{"from": 0, "to": 1023, "total": 1024}]},
 "encoding": {"playable": true, "qualities": [
   {"type": "hls", "quality": "360p", "status": "encoded"},
   {"type": "hls", "quality": "720p", "status": "failed"}]}}`))
			return
		}
		emu.ServeHTTP(w, r)
	})
}

// TestAccVideoWaitForFailedQuality: a quality that fails while the apply waits for encoded is
// an error that names it, and the video is replaced by the next apply.
func TestAccVideoWaitForFailedQuality(t *testing.T) {
	env := newWrappedAccEnv(t, emulator.Options{}, failedEncoding)
	config := videoConfig(env, "title", hcl("Fails"), "source_url", hcl("https://media.example.test/a.mp4"), "wait_for", hcl("encoded"))
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ExpectError: regexp.MustCompile(`(?s)failed\s+to\s+encode\s+hls\s+720p`)},
			{
				Config:   config,
				PlanOnly: true,
				// Tainted: the video that failed is replaced.
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

// TestAccVideoWaitTimesOut: a wait that outlasts the timeouts block is an error on wait_for.
func TestAccVideoWaitTimesOut(t *testing.T) {
	env := newAccEnv(t, emulator.Options{EncodingDelay: time.Hour})
	env.requireEmulator(t)
	config := videoConfig(env, "title", hcl("Slow"), "source_url", hcl("https://media.example.test/a.mp4"),
		"wait_for", hcl("playable")) + ""
	config = strings.Replace(config, "wait_for = \"playable\"\n", "wait_for = \"playable\"\n  timeouts {\n    create = \"2s\"\n  }\n", 1)
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{Config: config, ExpectError: regexp.MustCompile(`(?s)Timed Out Waiting for Video.*did\s+not\s+become\s+playable`)},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(testVideoAddr, plancheck.ResourceActionDestroyBeforeCreate)},
				},
				PlanOnly:    false,
				ExpectError: regexp.MustCompile(`Timed Out Waiting for Video`),
			},
		},
	})
}
