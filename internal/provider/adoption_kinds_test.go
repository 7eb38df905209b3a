package provider

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// serviceCounts counts what the service holds of the kinds that adoption.go recognises by their
// lists: watermarks, upload tokens, and the captions and chapters of videoID.
type serviceCounts struct{ watermarks, tokens, captions, chapters int }

func countService(ctx context.Context, c *videohost.Client, videoID string) (serviceCounts, error) {
	var n serviceCounts
	w, err := c.ListWatermarks(ctx, videohost.WatermarkFilter{})
	if err != nil {
		return n, err
	}
	tk, err := c.ListUploadTokens(ctx, videohost.UploadTokenFilter{})
	if err != nil {
		return n, err
	}
	n.watermarks, n.tokens = len(w), len(tk)
	if videoID == "" {
		return n, nil
	}
	cs, err := c.ListCaptions(ctx, videoID)
	if err != nil {
		return n, err
	}
	ch, err := c.ListChapters(ctx, videoID)
	n.captions, n.chapters = len(cs), len(ch)
	return n, err
}

// TestAccAdoptionOfCreatesStoredThen500 is the probe of the [safe-writes] issue: every create
// and upload is stored and answered 500 (or, at rate 0.6, three in five). Each watermark, token,
// caption and chapter must be adopted once: the service then holds exactly what the state holds,
// no "Already Exists" refusal is shown for what the provider stored, and the next plan is empty.
func TestAccAdoptionOfCreatesStoredThen500(t *testing.T) {
	for _, rate := range []float64{1, 0.6} {
		t.Run(fmt.Sprint(rate), func(t *testing.T) {
			env := newAccEnv(t, emulator.Options{Limits: raisedLimits})
			env.requireEmulator(t)
			videoID := newTestVideo(t, env)
			dir := t.TempDir()
			img := writePNG(t, dir, "mark.png", 32, 16, 3)
			vtt := tempFile(t, dir, "fr.vtt", webVTT("bonjour"))
			const n = 10
			cfg := env.providerConfig("") + fmt.Sprintf(`
resource "videohost_watermark" "w" {
  count       = %d
  source_file = %q
}
resource "videohost_upload_token" "t" {
  count = %d
  ttl   = 600
}
resource "videohost_video_caption" "c" {
  video_id    = %q
  language    = "fr"
  source_file = %q
}
resource "videohost_video_chapter" "c" {
  video_id    = %q
  language    = "fr"
  source_file = %q
}
`, n, img, n, videoID, vtt, videoID, vtt)
			client := serviceClient(t, env)
			holdsWhatTheStateHolds := func(*terraform.State) error {
				got, err := countService(t.Context(), client, videoID)
				if err != nil {
					return err
				}
				if want := (serviceCounts{n, n, 1, 1}); got != want {
					return fmt.Errorf("the service holds %+v, the state %+v", got, want)
				}
				return nil
			}
			accTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					PreConfig: func() { env.Emu.SetFaults(emulator.Faults{CommitThen500Rate: rate}) },
					Config:    cfg,
					Check:     holdsWhatTheStateHolds,
				}, {
					PreConfig:        func() { env.Emu.SetFaults(emulator.Faults{}) },
					Config:           cfg,
					ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					Check:            holdsWhatTheStateHolds,
				}},
			})
			if env.Emu.FaultCounts().CommitThen500 < n {
				t.Errorf("only %d creates were stored and answered 500: the test proves little", env.Emu.FaultCounts().CommitThen500)
			}
		})
	}
}

// otherClientCreates wraps the emulator so that, on the first create of path once armed is set,
// another client creates one object of the same kind (the same request) just before this create
// is served: an object of another process that appears during the attempt.
func otherClientCreates(path string, armed *atomic.Bool) func(*emulator.Emulator) http.Handler {
	var done atomic.Bool
	return func(e *emulator.Emulator) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == path && armed.Load() && done.CompareAndSwap(false, true) {
				body, _ := io.ReadAll(r.Body)
				other := r.Clone(r.Context())
				other.Body = io.NopCloser(bytes.NewReader(body))
				e.ServeHTTP(httptest.NewRecorder(), other)
				r.Body = io.NopCloser(bytes.NewReader(body))
			}
			e.ServeHTTP(w, r)
		})
	}
}

// adoptionEnv is a provider's data for an emulator behind wrap, without Terraform.
func adoptionEnv(t *testing.T, opts emulator.Options, wrap func(*emulator.Emulator) http.Handler) (*emulator.Emulator, *providerData) {
	t.Helper()
	emu, baseURL := serveEmulator(t, opts, wrap)
	client, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: emu.APIKeys()[0], AuthScheme: videohost.AuthBasic})
	if err != nil {
		t.Fatal(err)
	}
	return emu, &providerData{client: client, environment: client.Environment(), baseURL: client.BaseURL()}
}

func TestAdoptionOfATokenWhenAnotherClientCreatesOneMeanwhile(t *testing.T) {
	var armed atomic.Bool
	emu, pd := adoptionEnv(t, emulator.Options{Limits: raisedLimits}, otherClientCreates("/upload-tokens", &armed))
	// A token that existed before the create, with the same ttl: never a candidate.
	before, err := pd.client.CreateUploadToken(t.Context(), 600)
	if err != nil {
		t.Fatal(err)
	}
	armed.Store(true)
	emu.SetFaults(emulator.Faults{CommitThen500Rate: 1})
	_, err = createAdopting(t.Context(), pd, uploadTokenAdoptable(pd, 600))
	var refused *adoptionError
	if !errors.As(err, &refused) {
		t.Fatalf("two tokens appeared during the attempt; want the adoption refused, got %v", err)
	}
	listed, lerr := pd.client.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
	if lerr != nil || len(listed) != 3 {
		t.Fatalf("%d tokens (%v) on the service; want 3: none deleted, since one is another client's", len(listed), lerr)
	}
	for _, tok := range listed {
		fp := uploadTokenFingerprint(tok.Token)
		named := strings.Contains(refused.detail, fp)
		if tok.Token == before.Token && named || tok.Token != before.Token && !named {
			t.Errorf("the error must name the two new candidates and only them; %s named %v: %s", fp, named, refused.detail)
		}
		if strings.Contains(err.Error(), tok.Token) {
			t.Error("the error shows a token itself")
		}
	}
	if !strings.Contains(refused.detail, "delete the ones nobody uses") {
		t.Errorf("the error does not say what to do: %s", refused.detail)
	}
}

func TestAdoptionOfATokenTellsTTLsApart(t *testing.T) {
	// Another client's token of another ttl appears during the attempt: ours is the one of ours.
	var other atomic.Bool
	_, pd := adoptionEnv(t, emulator.Options{Limits: raisedLimits, Faults: emulator.Faults{CommitThen500Rate: 1}},
		func(e *emulator.Emulator) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodPost && r.URL.Path == "/upload-tokens" && other.CompareAndSwap(false, true) {
					o := httptest.NewRequest(http.MethodPost, "/upload-tokens", strings.NewReader(`{"ttl":60}`))
					o.Header = r.Header.Clone()
					e.ServeHTTP(httptest.NewRecorder(), o)
				}
				e.ServeHTTP(w, r)
			})
		})
	got, err := createAdopting(t.Context(), pd, uploadTokenAdoptable(pd, 600))
	if err != nil || got.TTL != 600 {
		t.Fatalf("got a token of ttl %d, %v; want the create's own token of ttl 600 adopted", got.TTL, err)
	}
}

func TestAdoptionOfAWatermarkWhenAnotherClientCreatesOneMeanwhile(t *testing.T) {
	var armed atomic.Bool
	armed.Store(true)
	emu, pd := adoptionEnv(t, emulator.Options{Limits: raisedLimits, Faults: emulator.Faults{CommitThen500Rate: 1}},
		otherClientCreates("/watermarks", &armed))
	img := writePNG(t, t.TempDir(), "w.png", 32, 16, 5)
	_, err := createAdopting(t.Context(), pd, watermarkAdoptable(pd, img, fileSHA256(t, img)))
	var refused *adoptionError
	if !errors.As(err, &refused) || !strings.Contains(refused.summary, "Watermark") {
		t.Fatalf("two watermarks appeared during the attempt; want the adoption refused, got %v", err)
	}
	if listed, _ := pd.client.ListWatermarks(t.Context(), videohost.WatermarkFilter{}); len(listed) != 2 {
		t.Errorf("%d watermarks on the service; want both kept", len(listed))
	}
	// The other client's upload and this create's one.
	if posts := emu.RequestCount("POST", "/watermarks"); posts != 2 {
		t.Errorf("%d uploads; a create that cannot tell which is its own must not send again", posts)
	}
}
