package provider_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/provider/uploadtoken"
	"github.com/videohost/terraform-provider-videohost/internal/provider/watermark"
	"github.com/videohost/terraform-provider-videohost/internal/provider/webhook"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// envSoakCycles sets the cycles of TestAccSoak; `make soak` sets 200.
const envSoakCycles = "VIDEOHOST_SOAK_CYCLES"

// defaultSoakCycles keeps the soak within a few seconds of `make test` while still injecting
// every fault kind once (see soakFaults).
const defaultSoakCycles = 3

// soakEnv is the emulator of the soak behind a loopback server that can revoke every token
// in the middle of a terraform command, at the n-th service request after it was armed: a
// revocation between commands would be invisible, because each command configures the
// provider afresh and fetches a new token.
type soakEnv struct {
	*acctest.AccEnv
	requests atomic.Int64 // service API requests (the control API is not counted)
	revokeAt atomic.Int64 // revoke when requests reaches this; 0: disarmed
	revoked  atomic.Int64 // revocations made
	// unauthorized counts the 401s answered: each revocation must cause at least one, which
	// the provider then has to get over.
	unauthorized atomic.Int64
	// check reads the service for the checks, on a server of its own, so that its requests
	// neither count towards the revocation nor meet a revoked token; it retries the injected
	// read faults.
	check *videohost.Client
	// media holds the video's source (clip, its bytes) and caption files.
	media string
	clip  []byte
	// providerExtra is more of the provider block (the network soak's max_retries).
	providerExtra string
}

// statusWriter keeps the status of an answer.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func newSoakEnv(t *testing.T, opts emulator.Options) *soakEnv {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		t.Skip("the soak injects faults, which needs the in-process emulator; VIDEOHOST_EMULATOR=0 runs against a real endpoint")
	}
	env := &soakEnv{}
	emu, baseURL := acctest.ServeEmulator(t, opts, func(emu *emulator.Emulator) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.HasPrefix(r.URL.Path, "/_emulator") {
				emu.ServeHTTP(w, r)
				return
			}
			n := env.requests.Add(1)
			// Only a request that carries a token triggers the revocation, so that this very
			// request meets a revoked token (a token request would just get a fresh one).
			bearer := strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ")
			if at := env.revokeAt.Load(); at != 0 && n >= at && bearer && env.revokeAt.CompareAndSwap(at, 0) {
				emu.RevokeTokens()
				env.revoked.Add(1)
			}
			sw := &statusWriter{ResponseWriter: w}
			emu.ServeHTTP(sw, r)
			if sw.status == http.StatusUnauthorized {
				env.unauthorized.Add(1)
			}
		})
	})
	env.AccEnv = &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu}
	checkSrv := httptest.NewServer(emu)
	t.Cleanup(checkSrv.Close)
	c, err := videohost.New(videohost.Config{BaseURL: checkSrv.URL, APIKey: env.APIKey, AuthScheme: videohost.AuthBasic,
		MaxRetries: 20, Version: "soak-check"})
	if err != nil {
		t.Fatal(err)
	}
	env.check = c
	// The video's source and its caption, the same bytes in every cycle: each cycle uploads
	// them again, since its destroy deleted the video.
	env.media = t.TempDir()
	env.clip = make([]byte, 96<<10)
	if _, err := rand.Read(env.clip); err != nil {
		t.Fatal(err)
	}
	acctest.WriteFile(t, filepath.Join(env.media, "clip.mp4"), string(env.clip))
	for step := range 2 {
		// The caption's and chapters' files and the watermark's and logo's images change from
		// step 0 to step 1: an upload in place (caption, chapter, logo) and a replacement
		// (watermark).
		acctest.WriteFile(t, filepath.Join(env.media, fmt.Sprintf("en-%d.vtt", step)), acctest.WebVTT(fmt.Sprintf("soak %d", step)))
		acctest.WriteFile(t, filepath.Join(env.media, fmt.Sprintf("chapters-%d.vtt", step)), acctest.WebVTT(fmt.Sprintf("part %d", step)))
		acctest.WritePNG(t, env.media, fmt.Sprintf("mark-%d.png", step), 32, 16, byte(step))
		acctest.WritePNG(t, env.media, fmt.Sprintf("logo-%d.png", step), 40, 20, byte(10+step))
	}
	return env
}

// revokeAfter arms a revocation of every token at the n-th service request from now.
func (e *soakEnv) revokeAfter(n int64) { e.revokeAt.Store(e.requests.Load() + n) }

// soakHook is one webhook of a soak configuration.
type soakHook struct {
	url    string
	events []string
}

// soakHooks is the configuration of one cycle's step (0 or 1). The count and the urls and
// events differ from step 0 to step 1 so that step 1 creates, replaces (url or events
// changed at the same index) and deletes (a shorter list); pairs of identical webhooks make
// the adoption of ambiguous creates choose among equal candidates.
func soakHooks(cycle, step int) []soakHook {
	names := events.Names()
	k := 4 + cycle%5 // 4..8
	if step == 1 {
		k += cycle%3 - 1 // one fewer, as many, one more
	}
	hooks := make([]soakHook, k)
	for i := range hooks {
		variant := 0
		if step == 1 && (i+cycle)%3 == 0 {
			variant = 1 // a new url: replacement
		}
		evs := []string{names[(i/2+cycle)%len(names)]}
		if step == 1 && (i+cycle)%4 == 1 {
			evs = append(evs, names[(i/2+cycle+1)%len(names)]) // more events: replacement
		}
		hooks[i] = soakHook{
			url:    fmt.Sprintf("https://hooks.example.test/soak/%d/%d/v%d", cycle, i/2, variant),
			events: evs,
		}
	}
	return hooks
}

func soakConfig(env *soakEnv, cycle, step int) string {
	var b strings.Builder
	b.WriteString(env.ProviderConfig(fmt.Sprintf("auth_scheme = %q\n%s", soakAuthScheme(cycle), env.providerExtra)))
	b.WriteString("\nlocals {\n  hooks = [\n")
	for _, h := range soakHooks(cycle, step) {
		fmt.Fprintf(&b, "    { url = %s, events = %s },\n", acctest.Hcl(h.url), acctest.HclList(h.events...))
	}
	b.WriteString(`  ]
}

resource "videohost_webhook" "soak" {
  count  = length(local.hooks)
  url    = local.hooks[count.index].url
  events = local.hooks[count.index].events
}
`)
	for i, th := range soakThemes(cycle, step) {
		logo := ""
		if i == 0 {
			logo = "  logo_file = " + acctest.Hcl(soakMedia(env, "logo-%d.png", step)) + "\n"
		}
		fmt.Fprintf(&b, "\nresource \"videohost_player_theme\" \"soak%d\" {\n  name = %s\n  track_played = %s\n  force_loop = %t\n%s}\n",
			i, acctest.Hcl(th.Name), acctest.Hcl(th.TrackPlayed), th.ForceLoop, logo)
	}
	for i, ls := range soakStreams(cycle, step) {
		fmt.Fprintf(&b, "\nresource \"videohost_live_stream\" \"soak%d\" {\n  name = %s\n  public = %t\n", i, acctest.Hcl(ls.Name), ls.Public)
		if ls.PlayerID != "" {
			fmt.Fprintf(&b, "  player_id = videohost_player_theme.%s.id\n", ls.PlayerID)
		}
		if len(ls.Restreams) > 0 {
			b.WriteString("  restreams = [\n")
			for _, r := range ls.Restreams {
				fmt.Fprintf(&b, "    { name = %s, server_url = %s, stream_key = %s },\n", acctest.Hcl(r.Name), acctest.Hcl(r.ServerURL), acctest.Hcl(r.StreamKey))
			}
			b.WriteString("  ]\n")
		}
		b.WriteString("}\n")
	}
	// One video from a file with a caption: the title, the tags and the caption's default
	// change in place from step 0 to step 1.
	fmt.Fprintf(&b, `
resource "videohost_video" "soak" {
  title       = %s
  tags        = %s
  source_file = %s
}

resource "videohost_video_caption" "soak" {
  video_id    = videohost_video.soak.id
  language    = "en"
  source_file = %s
  default     = %t
}

resource "videohost_video_chapter" "soak" {
  video_id    = videohost_video.soak.id
  language    = "en"
  source_file = %s
}
`, acctest.Hcl(soakVideoTitle(cycle, step)), acctest.HclList(fmt.Sprintf("step-%d", step)),
		acctest.Hcl(filepath.Join(env.media, "clip.mp4")), acctest.Hcl(soakMedia(env, "en-%d.vtt", step)), step == 1,
		acctest.Hcl(soakMedia(env, "chapters-%d.vtt", step)))
	a := soakAssetsOf(cycle, step)
	// Watermarks and upload tokens: their count changes, the watermark's image and the
	// tokens' ttl change from step 0 to step 1 (replacements); the ephemeral tokens are opened
	// and closed in every plan and apply.
	fmt.Fprintf(&b, `
resource "videohost_watermark" "soak" {
  count       = %d
  source_file = %s
}

resource "videohost_upload_token" "soak" {
  count = %d
  ttl   = %d
}

ephemeral "videohost_upload_token" "soak" {
  count = 2
  ttl   = 900
}
`, a.watermarks, acctest.Hcl(soakMedia(env, "mark-%d.png", step)), a.tokens, a.ttl)
	return b.String()
}

// soakMedia is the path of the media file of step named by format.
func soakMedia(env *soakEnv, format string, step int) string {
	return filepath.Join(env.media, fmt.Sprintf(format, step))
}

// soakAssets are the watermarks and upload tokens of one cycle's step.
type soakAssets struct{ watermarks, tokens, ttl int }

func soakAssetsOf(cycle, step int) soakAssets {
	return soakAssets{watermarks: 1 + (cycle+step)%2, tokens: 1 + (cycle+2*step)%3, ttl: 600 + 60*step}
}

func soakVideoTitle(cycle, step int) string { return fmt.Sprintf("soak-%d-v%d", cycle, step) }

// soakThemes are the player themes of one cycle's step: one or two, whose values change from
// step 0 to step 1 (in-place updates), and one more or one fewer in some cycles.
func soakThemes(cycle, step int) []videohost.PlayerTheme {
	n := 1 + (cycle+step)%2
	out := make([]videohost.PlayerTheme, n)
	for i := range out {
		out[i] = videohost.PlayerTheme{
			Name:        fmt.Sprintf("soak-%d-%d", cycle, i),
			TrackPlayed: fmt.Sprintf("rgba(%d, %d, 255, .5)", cycle%256, step*100+i),
			ForceLoop:   step == 1,
		}
	}
	return out
}

// soakStreams are the live streams of one cycle's step: one or two, renamed, made private,
// given the first theme as player and other restreams at step 1 (in-place updates). PlayerID
// holds the resource name of the theme, not an id.
func soakStreams(cycle, step int) []videohost.LiveStream {
	n := 1 + (cycle+step+1)%2
	out := make([]videohost.LiveStream, n)
	for i := range out {
		ls := videohost.LiveStream{Name: fmt.Sprintf("soak-%d-%d-s%d", cycle, i, step), Public: step == 0}
		if step == 1 {
			ls.PlayerID = "soak0"
		}
		for r := range (cycle + i + step) % 3 {
			ls.Restreams = append(ls.Restreams, videohost.Restream{
				Name: fmt.Sprintf("dest-%d", r), ServerURL: fmt.Sprintf("rtmp://ingest-%d.example.test/live", r),
				StreamKey: fmt.Sprintf("key-%d-%d-%d-%d", cycle, i, r, step),
			})
		}
		out[i] = ls
	}
	return out
}

// soakFault is the fault mix of one cycle.
type soakFault struct {
	faults emulator.Faults
	burst  int  // 429s answered from the start of the second apply
	revoke bool // revoke the tokens during the second apply
}

// soakFaults is a function of the cycle number only, so that a run is reproducible; any
// three consecutive cycles inject every kind. 10% of reads fail in every cycle (one share
// over the whole run: SetFaults keeps the sum of an unchanged rate); a 429 burst of two
// starts before the second apply of one cycle in three; tokens are revoked during the second
// apply of another cycle in three (which authenticates with bearer tokens); 5 to 15 ms of
// latency are added in every other cycle; a third of the creates commit and answer 500 in two
// cycles of three.
func soakFaults(cycle int) soakFault {
	f := soakFault{faults: emulator.Faults{ReadErrorRate: 0.1}}
	if cycle%2 == 1 {
		f.faults.Latency = time.Duration(5+cycle%3*5) * time.Millisecond
	}
	if cycle%3 != 2 {
		f.faults.CommitThen500Rate = 0.34
	}
	if cycle%3 == 0 {
		// Each 429 holds the client's calls for the Retry-After (1 s here), so a burst of two
		// costs about two seconds.
		f.burst = 2
	}
	f.revoke = cycle%3 == 1
	// The upload faults: every source chunk stored and answered 500 (the soak's source is one
	// chunk, and a rate restarts when it changes, so a share below 1 would never draw), or the
	// first chunk's connection cut part way through.
	switch cycle % 3 {
	case 1:
		f.faults.UploadCommitThen500Rate = 1
	case 2:
		f.faults.UploadCuts, f.faults.UploadCutAfterBytes = 1, 16<<10
	}
	return f
}

// soakAuthScheme is bearer whenever tokens are revoked, and basic in some other cycles so
// that both schemes meet the other faults.
func soakAuthScheme(cycle int) string {
	if !soakFaults(cycle).revoke && cycle%4 == 0 {
		return "basic"
	}
	return "bearer"
}

// soakTally counts what the soak saw; the checks record into it and let the cycle go on, so
// that one run reports every divergence instead of the first.
type soakTally struct {
	mu                                  sync.Mutex
	mismatches, nonEmptyPlans, leftover int
	failedCycles                        []int
}

func (s *soakTally) add(counter *int, t *testing.T, format string, args ...any) {
	t.Helper()
	s.mu.Lock()
	*counter++
	s.mu.Unlock()
	t.Logf("DIVERGENCE: "+format, args...)
}

func (s *soakTally) divergences() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mismatches + s.nonEmptyPlans + s.leftover
}

// checkServerMatchesState compares the service with the state: for the webhooks on the
// emulator, the same ids, for each the same url and set of events, and the configuration's
// count; and, through the soak's check client, the live streams and player themes (see
// liveObjectsMatch).
func checkServerMatchesState(t *testing.T, env *soakEnv, tally *soakTally, cycle, step int) statecheck.StateCheck {
	return acctest.StateCheckFunc(func(s *tfjson.State) error {
		want := soakHooks(cycle, step)
		onServer := map[string]emulator.Webhook{}
		for _, w := range env.Emu.Webhooks() {
			onServer[w.WebhookID] = w
		}
		var problems []string
		inState := map[string]bool{}
		for _, r := range acctest.StateWebhooks(s) {
			id := acctest.AttrString(r, "id")
			if inState[id] {
				problems = append(problems, fmt.Sprintf("%s is in the state twice", id))
			}
			inState[id] = true
			w, ok := onServer[id]
			if !ok {
				problems = append(problems, fmt.Sprintf("%s (%s) is in the state but not on the service", r.Address, id))
				continue
			}
			if got := acctest.AttrString(r, "url"); got != w.URL {
				problems = append(problems, fmt.Sprintf("%s: url %q in the state, %q on the service", id, got, w.URL))
			}
			if got, srv := stateEvents(r), webhook.SortedCopy(w.Events); !slices.Equal(got, srv) {
				problems = append(problems, fmt.Sprintf("%s: events %v in the state, %v on the service", id, got, srv))
			}
			if idx := r.Index; idx != nil {
				if i, ok := idx.(float64); ok && int(i) < len(want) && want[int(i)].url != w.URL {
					problems = append(problems, fmt.Sprintf("%s: url %q on the service, %q configured", r.Address, w.URL, want[int(i)].url))
				}
			}
		}
		for id, w := range onServer {
			if !inState[id] {
				problems = append(problems, fmt.Sprintf("%s (%s) is on the service but not in the state (an orphan)", id, w.URL))
			}
		}
		if len(inState) != len(want) {
			problems = append(problems, fmt.Sprintf("%d webhooks in the state, %d configured", len(inState), len(want)))
		}
		if env.check != nil {
			problems = append(problems, liveObjectsMatch(t, env, s, cycle, step)...)
			problems = append(problems, videosMatch(t, env, s, cycle, step)...)
			problems = append(problems, assetsMatch(t, env, s, cycle, step)...)
		}
		if len(problems) > 0 {
			tally.add(&tally.mismatches, t, "cycle %d apply %d: %s", cycle, step+1, strings.Join(problems, "; "))
		}
		return nil
	})
}

// liveObjectsMatch compares the live streams and player themes on the service with the state
// and the configuration: the same ids, no orphan, and the configured values on the service.
func liveObjectsMatch(t *testing.T, env *soakEnv, s *tfjson.State, cycle, step int) []string {
	var problems []string
	streams, err := env.check.ListLiveStreams(t.Context(), videohost.LiveStreamFilter{})
	if err != nil {
		return []string{"listing the live streams: " + err.Error()}
	}
	themes, err := env.check.ListPlayerThemes(t.Context(), videohost.PlayerThemeFilter{})
	if err != nil {
		return []string{"listing the player themes: " + err.Error()}
	}
	themeIDs := map[string]string{} // resource name to id
	wantThemes := soakThemes(cycle, step)
	for i, want := range wantThemes {
		name := fmt.Sprintf("soak%d", i)
		r, err := acctest.StateResource(s, "videohost_player_theme."+name)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		themeIDs[name] = acctest.AttrString(r, "id")
		i := slices.IndexFunc(themes, func(p videohost.PlayerTheme) bool { return p.ID == themeIDs[name] })
		if i < 0 {
			problems = append(problems, fmt.Sprintf("theme %s (%s) is in the state but not on the service", name, themeIDs[name]))
			continue
		}
		if got := themes[i]; got.Name != want.Name || got.TrackPlayed != want.TrackPlayed || got.ForceLoop != want.ForceLoop {
			problems = append(problems, fmt.Sprintf("theme %s: %q %q %t on the service, %q %q %t configured", name,
				got.Name, got.TrackPlayed, got.ForceLoop, want.Name, want.TrackPlayed, want.ForceLoop))
		}
	}
	if len(themes) != len(wantThemes) {
		problems = append(problems, fmt.Sprintf("%d player themes on the service, %d configured (an orphan or a duplicate)", len(themes), len(wantThemes)))
	}
	wantStreams := soakStreams(cycle, step)
	for i, want := range wantStreams {
		r, err := acctest.StateResource(s, fmt.Sprintf("videohost_live_stream.soak%d", i))
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		id := acctest.AttrString(r, "id")
		j := slices.IndexFunc(streams, func(l videohost.LiveStream) bool { return l.ID == id })
		if j < 0 {
			problems = append(problems, fmt.Sprintf("live stream %s is in the state but not on the service", id))
			continue
		}
		got := streams[j]
		if want.PlayerID != "" {
			want.PlayerID = themeIDs[want.PlayerID]
		}
		sameRestreams := slices.Equal(got.Restreams, want.Restreams) || len(got.Restreams) == 0 && len(want.Restreams) == 0
		if got.Name != want.Name || got.Public != want.Public || got.PlayerID != want.PlayerID || !sameRestreams {
			problems = append(problems, fmt.Sprintf("live stream %s: name %q public %t player %q with %d restreams on the service; "+
				"%q %t %q with %d configured", id, got.Name, got.Public, got.PlayerID, len(got.Restreams),
				want.Name, want.Public, want.PlayerID, len(want.Restreams)))
		}
		if got.StreamKey != acctest.AttrString(r, "stream_key") {
			problems = append(problems, fmt.Sprintf("live stream %s: the stream key in the state is not the service's", id))
		}
	}
	if len(streams) != len(wantStreams) {
		problems = append(problems, fmt.Sprintf("%d live streams on the service, %d configured (an orphan or a duplicate)", len(streams), len(wantStreams)))
	}
	return problems
}

// videosMatch compares the videos on the service with the state and the configuration: one
// video, the state's, with the configured title and tags, its source complete with the file's
// bytes, and one caption with the configured default.
func videosMatch(t *testing.T, env *soakEnv, s *tfjson.State, cycle, step int) []string {
	videos, err := env.check.ListVideos(t.Context(), videohost.VideoFilter{})
	if err != nil {
		return []string{"listing the videos: " + err.Error()}
	}
	r, err := acctest.StateResource(s, "videohost_video.soak")
	if err != nil {
		return []string{err.Error()}
	}
	id := acctest.AttrString(r, "id")
	var problems []string
	if len(videos) != 1 || videos[0].ID != id {
		ids := make([]string, len(videos))
		for i, v := range videos {
			ids[i] = v.ID
		}
		return append(problems, fmt.Sprintf("videos on the service %v, %s in the state (an orphan, a duplicate or a loss)", ids, id))
	}
	v := videos[0]
	if want := soakVideoTitle(cycle, step); v.Title != want || !slices.Equal(v.Tags, []string{fmt.Sprintf("step-%d", step)}) {
		problems = append(problems, fmt.Sprintf("video %s: title %q tags %v on the service, %q configured", id, v.Title, v.Tags, want))
	}
	sum := sha256.Sum256(env.clip)
	if size, got, complete, _ := env.Emu.VideoSource(id); !complete || size != int64(len(env.clip)) || got != hex.EncodeToString(sum[:]) {
		problems = append(problems, fmt.Sprintf("video %s: source of %d bytes (complete %t), not the file's %d bytes", id, size, complete, len(env.clip)))
	}
	if acctest.AttrString(r, "source_sha256") != hex.EncodeToString(sum[:]) {
		problems = append(problems, fmt.Sprintf("video %s: source_sha256 in the state is not the file's", id))
	}
	captions, err := env.check.ListCaptions(t.Context(), id)
	switch {
	case err != nil:
		problems = append(problems, "listing the captions: "+err.Error())
	case len(captions) != 1 || captions[0].SrcLang != "en" || captions[0].Default != (step == 1):
		problems = append(problems, fmt.Sprintf("video %s: captions %+v on the service, one \"en\" with default %t configured", id, captions, step == 1))
	}
	return problems
}

// assetsMatch compares the watermarks, upload tokens and chapters on the service and the first
// theme's logo with the state and the configuration: the state's watermarks and tokens (by id
// and fingerprint) and no other (an ephemeral token left open, or a create stored twice, is an
// orphan), the configured counts and ttl, one chapter, and a logo.
func assetsMatch(t *testing.T, env *soakEnv, s *tfjson.State, cycle, step int) []string {
	want := soakAssetsOf(cycle, step)
	marks, err := env.check.ListWatermarks(t.Context(), videohost.WatermarkFilter{})
	if err != nil {
		return []string{"listing the watermarks: " + err.Error()}
	}
	tokens, err := env.check.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
	if err != nil {
		return []string{"listing the upload tokens: " + err.Error()}
	}
	markIDs := make([]string, len(marks))
	for i, m := range marks {
		markIDs[i] = m.ID
	}
	problems := serviceMatchesStateIDs("watermark", markIDs, acctest.StateResourcesOf(s, "videohost_watermark"), want.watermarks)
	fingerprints := make([]string, len(tokens))
	for i, tok := range tokens {
		fingerprints[i] = uploadtoken.UploadTokenFingerprint(tok.Token)
		if tok.TTL != want.ttl && tok.TTL != 900 {
			problems = append(problems, fmt.Sprintf("upload token %s: ttl %d on the service, %d configured", fingerprints[i], tok.TTL, want.ttl))
		}
	}
	problems = append(problems, serviceMatchesStateIDs("upload token", fingerprints, acctest.StateResourcesOf(s, "videohost_upload_token"), want.tokens)...)
	if r, err := acctest.StateResource(s, "videohost_video.soak"); err == nil {
		chapters, err := env.check.ListChapters(t.Context(), acctest.AttrString(r, "id"))
		if err != nil || len(chapters) != 1 || chapters[0].Language != "en" {
			problems = append(problems, fmt.Sprintf("chapters %+v (%v) on the service, one \"en\" configured", chapters, err))
		}
	}
	if r, err := acctest.StateResource(s, "videohost_player_theme.soak0"); err == nil {
		th, err := env.check.GetPlayerTheme(t.Context(), acctest.AttrString(r, "id"))
		if err != nil || th.Assets == nil || th.Assets.Logo == "" {
			problems = append(problems, fmt.Sprintf("theme %s has no logo on the service (%v)", acctest.AttrString(r, "id"), err))
		}
	}
	return problems
}

// serviceMatchesStateIDs compares the ids of kind on the service with the state's resources and the count
// configured.
func serviceMatchesStateIDs(kind string, onService []string, inState []*tfjson.StateResource, want int) []string {
	var problems []string
	state := map[string]bool{}
	for _, r := range inState {
		state[acctest.AttrString(r, "id")] = true
	}
	service := map[string]bool{}
	for _, id := range onService {
		service[id] = true
		if !state[id] {
			problems = append(problems, fmt.Sprintf("%s %s is on the service but not in the state (an orphan)", kind, id))
		}
	}
	for id := range state {
		if !service[id] {
			problems = append(problems, fmt.Sprintf("%s %s is in the state but not on the service", kind, id))
		}
	}
	if len(onService) != want || len(inState) != want {
		problems = append(problems, fmt.Sprintf("%d %ss on the service and %d in the state, %d configured", len(onService), kind, len(inState), want))
	}
	return problems
}

// removeLiveObjects deletes every live stream, player theme, video, watermark and upload token
// left on the service, so
// that the next cycle starts from an empty one, and returns their ids.
func removeLiveObjects(t *testing.T, env *soakEnv) []string {
	var left []string
	if streams, err := env.check.ListLiveStreams(t.Context(), videohost.LiveStreamFilter{}); err == nil {
		for _, l := range streams {
			env.Emu.DeleteLiveStream(l.ID)
			left = append(left, l.ID)
		}
	} else {
		t.Logf("listing the live streams left: %v", err)
	}
	if themes, err := env.check.ListPlayerThemes(t.Context(), videohost.PlayerThemeFilter{}); err == nil {
		for _, p := range themes {
			env.Emu.DeletePlayer(p.ID)
			left = append(left, p.ID)
		}
	} else {
		t.Logf("listing the player themes left: %v", err)
	}
	if videos, err := env.check.ListVideos(t.Context(), videohost.VideoFilter{}); err == nil {
		for _, v := range videos {
			env.Emu.DeleteVideo(v.ID)
			left = append(left, v.ID)
		}
	} else {
		t.Logf("listing the videos left: %v", err)
	}
	if marks, err := env.check.ListWatermarks(t.Context(), videohost.WatermarkFilter{}); err == nil {
		for _, m := range marks {
			_ = env.check.DeleteWatermark(t.Context(), m.ID)
			left = append(left, m.ID)
		}
	} else {
		t.Logf("listing the watermarks left: %v", err)
	}
	if tokens, err := env.check.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{}); err == nil {
		for _, tok := range tokens {
			_ = env.check.DeleteUploadToken(t.Context(), tok.Token)
			left = append(left, "upload token "+uploadtoken.UploadTokenFingerprint(tok.Token))
		}
	} else {
		t.Logf("listing the upload tokens left: %v", err)
	}
	return left
}

func stateEvents(r *tfjson.StateResource) []string {
	raw, _ := r.AttributeValues["events"].([]any)
	out := make([]string, 0, len(raw))
	for _, v := range raw {
		s, _ := v.(string)
		out = append(out, s)
	}
	return webhook.SortedCopy(out)
}

// countNonEmptyPlan records a plan with changes. The framework fails the step on it anyway
// (after this check), which ends the cycle; the tally keeps the kind of divergence.
func countNonEmptyPlan(t *testing.T, tally *soakTally, cycle, step int, which string) plancheck.PlanCheck {
	return acctest.PlanCheckFunc(func(p *tfjson.Plan) error {
		var changed []string
		for _, rc := range p.ResourceChanges {
			// OpenTofu before 1.12 lists the ephemeral upload tokens' openings in every plan
			// (see openTofuOpensInPlan): an opening changes nothing.
			opening := rc.Mode == "ephemeral"
			if rc.Change != nil && !rc.Change.Actions.NoOp() && !opening {
				changed = append(changed, fmt.Sprintf("%s %v", rc.Address, rc.Change.Actions))
			}
		}
		if len(changed) > 0 {
			tally.add(&tally.nonEmptyPlans, t, "cycle %d apply %d: the %s plan is not empty: %s", cycle, step+1, which, strings.Join(changed, ", "))
		}
		return nil
	})
}

// TestAccSoak repeats apply, apply and destroy cycles against the emulator under mixed
// faults (see soakFaults). After every apply the webhooks, live streams and player themes on the
// service must be those of the state, the next plans (without and with refresh) must be empty,
// and after every destroy the service must hold none of them. Divergences are counted rather
// than stopping the run, and fail the test at the end. A panic of the provider, which runs in
// this process and whose servers recover none, ends the test binary.
func TestAccSoak(t *testing.T) {
	// Parallel with the other acceptance tests, so that its cycles add little to `make test`;
	// it has its own emulator.
	acctest.Parallel(t)
	cycles := defaultSoakCycles
	if v := os.Getenv(envSoakCycles); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("%s=%q: want a whole number of cycles, at least 1", envSoakCycles, v)
		}
		cycles = n
	}
	env := newSoakEnv(t, emulator.Options{
		// A 1 s window keeps the Retry-After of a 429 short.
		RateWindow:  time.Second,
		MaxWebhooks: 50,
	})
	tally := &soakTally{}
	bursts, revocations, latencyCycles := 0, 0, 0
	start := time.Now()
	for cycle := range cycles {
		mix := soakFaults(cycle)
		if mix.burst > 0 {
			bursts++
		}
		if mix.revoke {
			revocations++
		}
		if mix.faults.Latency > 0 {
			latencyCycles++
		}
		ok := t.Run(fmt.Sprintf("cycle-%03d", cycle), func(t *testing.T) {
			env.Emu.SetFaults(mix.faults)
			step := func(s int) resource.TestStep {
				return acctest.EmptyPlanAfterApply(t, resource.TestStep{
					Config: soakConfig(env, cycle, s),
					ConfigStateChecks: []statecheck.StateCheck{
						checkServerMatchesState(t, env, tally, cycle, s),
					},
					ConfigPlanChecks: resource.ConfigPlanChecks{
						PostApplyPreRefresh:  []plancheck.PlanCheck{countNonEmptyPlan(t, tally, cycle, s, "post-apply")},
						PostApplyPostRefresh: []plancheck.PlanCheck{countNonEmptyPlan(t, tally, cycle, s, "refreshing")},
					},
				})
			}
			second := step(1)
			second.PreConfig = func() {
				f := mix.faults
				f.Burst429 = mix.burst
				env.Emu.SetFaults(f)
				if mix.revoke {
					// During the second apply, at a request that moves with the cycle: in
					// its refresh, among its creates and deletes, or in the plans after it.
					// Eight is below the bearer requests that the second apply, its plans and
					// the destroy send in any cycle (at 15, a few cycles ended unrevoked).
					env.revokeAfter(int64(1 + cycle%8))
				}
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps:                    []resource.TestStep{step(0), second},
				CheckDestroy: func(*terraform.State) error {
					if at := env.revokeAt.Swap(0); at != 0 {
						t.Logf("cycle %d: the revocation armed for service request %d was not made (%d requests sent)", cycle, at, env.requests.Load())
					}
					left := env.Emu.Webhooks()
					if len(left) > 0 {
						var ids []string
						for _, w := range left {
							ids = append(ids, w.WebhookID)
							// The next cycle starts from an empty service.
							env.Emu.DeleteWebhook(w.WebhookID)
						}
						tally.add(&tally.leftover, t, "cycle %d: %d webhooks left after destroy: %v", cycle, len(left), ids)
					}
					if ids := removeLiveObjects(t, env); len(ids) > 0 {
						tally.add(&tally.leftover, t, "cycle %d: %d live streams, player themes, videos, watermarks or upload tokens left after destroy: %v", cycle, len(ids), ids)
					}
					return nil
				},
			})
		})
		if !ok {
			tally.failedCycles = append(tally.failedCycles, cycle)
			// Whatever the failed cycle left is counted, and removed so that the next cycle
			// starts from an empty service.
			env.revokeAt.Store(0)
			for _, w := range env.Emu.Webhooks() {
				env.Emu.DeleteWebhook(w.WebhookID)
				tally.add(&tally.leftover, t, "cycle %d failed and left webhook %s", cycle, w.WebhookID)
			}
			for _, id := range removeLiveObjects(t, env) {
				tally.add(&tally.leftover, t, "cycle %d failed and left %s", cycle, id)
			}
		}
	}
	env.Emu.SetFaults(emulator.Faults{})
	fc := env.Emu.FaultCounts()
	summary := fmt.Sprintf("soak: %d cycles in %s; faults injected: %d read 500s, %d other 500s, %d 429s (%d bursts), %d commit-then-500s, "+
		"%d token revocations (%d 401s), latency in %d cycles; %d service requests (%d POST, %d DELETE, %d GET /webhooks, %d POST /auth/api-key; %d POST, %d PATCH /live-streams; %d POST, %d PATCH /players; %d POST, %d PATCH /videos; %d POST /watermarks; %d POST, %d DELETE /upload-tokens; %d upload commit-then-500s, %d cuts); "+
		"divergences: %d (%d server/state mismatches, %d non-empty plans, %d leftovers); failed cycles: %d %v",
		cycles, time.Since(start).Round(100*time.Millisecond),
		fc.ReadError500, fc.Error500, fc.Burst429, bursts, fc.CommitThen500,
		env.revoked.Load(), env.unauthorized.Load(), latencyCycles,
		env.requests.Load(), env.RequestCount("POST", "/webhooks"), env.RequestCount("DELETE", "/webhooks"), env.RequestCount("GET", "/webhooks"),
		env.RequestCount("POST", "/auth/api-key"),
		env.RequestCount("POST", "/live-streams"), env.RequestCount("PATCH", "/live-streams"),
		env.RequestCount("POST", "/players"), env.RequestCount("PATCH", "/players"),
		env.RequestCount("POST", "/videos"), env.RequestCount("PATCH", "/videos"),
		env.RequestCount("POST", "/watermarks"), env.RequestCount("POST", "/upload-tokens"), env.RequestCount("DELETE", "/upload-tokens"),
		fc.UploadCommitThen500, fc.UploadCut,
		tally.divergences(), tally.mismatches, tally.nonEmptyPlans, tally.leftover, len(tally.failedCycles), tally.failedCycles)
	t.Log(summary)
	fmt.Println(summary)
	if revocations > 0 && (env.revoked.Load() != int64(revocations) || env.unauthorized.Load() < int64(revocations)) {
		t.Errorf("%d revocations planned, %d made, %d 401s answered: the revoking server did not see the requests it waited for",
			revocations, env.revoked.Load(), env.unauthorized.Load())
	}
	if cycles >= 3 && (fc.ReadError500 == 0 || fc.Burst429 == 0 || fc.CommitThen500 == 0) {
		t.Errorf("a fault kind was never injected over %d cycles: %+v", cycles, fc)
	}
	if d := tally.divergences(); d > 0 {
		t.Errorf("%d divergences over %d cycles (see the DIVERGENCE lines)", d, cycles)
	}
}

// TestSoakChecksSeeDivergences shows that the soak's checks can fail: an orphan on the
// service, a webhook whose url differs, and a non-empty plan are each counted.
func TestSoakChecksSeeDivergences(t *testing.T) {
	emu, err := emulator.New(emulator.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = emu.Close() })
	env := &soakEnv{AccEnv: &acctest.AccEnv{Emu: emu}}
	hooks := soakHooks(0, 0)
	state := &tfjson.State{Values: &tfjson.StateValues{RootModule: &tfjson.StateModule{}}}
	for i, h := range hooks {
		w, err := emu.CreateWebhook(h.url, h.events)
		if err != nil {
			t.Fatal(err)
		}
		evs := make([]any, len(h.events))
		for j, e := range h.events {
			evs[j] = e
		}
		state.Values.RootModule.Resources = append(state.Values.RootModule.Resources, &tfjson.StateResource{
			Address: fmt.Sprintf("videohost_webhook.soak[%d]", i), Mode: tfjson.ManagedResourceMode, Type: "videohost_webhook",
			Index: float64(i), AttributeValues: map[string]any{"id": w.WebhookID, "url": w.URL, "events": evs},
		})
	}
	run := func(check statecheck.StateCheck) {
		var resp statecheck.CheckStateResponse
		check.CheckState(t.Context(), statecheck.CheckStateRequest{State: state}, &resp)
		if resp.Error != nil {
			t.Fatalf("the check must count, not fail the step: %v", resp.Error)
		}
	}
	tally := &soakTally{}
	run(checkServerMatchesState(t, env, tally, 0, 0))
	if tally.divergences() != 0 {
		t.Fatalf("a state that matches the service counted %d divergences", tally.divergences())
	}
	if _, err := emu.CreateWebhook("https://hooks.example.test/orphan", hooks[0].events); err != nil {
		t.Fatal(err)
	}
	run(checkServerMatchesState(t, env, tally, 0, 0))
	state.Values.RootModule.Resources[1].AttributeValues["url"] = "https://hooks.example.test/elsewhere"
	run(checkServerMatchesState(t, env, tally, 0, 0))
	if tally.mismatches != 2 {
		t.Errorf("%d mismatches counted, want 2 (an orphan; then a url that differs)", tally.mismatches)
	}
	var resp plancheck.CheckPlanResponse
	plan := &tfjson.Plan{ResourceChanges: []*tfjson.ResourceChange{{Address: "videohost_webhook.soak[0]", Change: &tfjson.Change{Actions: tfjson.Actions{tfjson.ActionCreate}}}}}
	countNonEmptyPlan(t, tally, 0, 0, "test").CheckPlan(t.Context(), plancheck.CheckPlanRequest{Plan: plan}, &resp)
	plan.ResourceChanges[0].Change.Actions = tfjson.Actions{tfjson.ActionNoop}
	countNonEmptyPlan(t, tally, 0, 0, "test").CheckPlan(t.Context(), plancheck.CheckPlanRequest{Plan: plan}, &resp)
	if tally.nonEmptyPlans != 1 || resp.Error != nil {
		t.Errorf("%d non-empty plans counted (error %v), want 1", tally.nonEmptyPlans, resp.Error)
	}
}

// TestSoakChecksSeeLiveDivergences shows that the soak's checks of live streams and player
// themes can fail: a state that matches the service counts nothing; an orphan live stream, and
// a live stream renamed on the service, are each reported.
func TestSoakChecksSeeLiveDivergences(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	acc := &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu}
	c := acctest.ServiceClient(t, acc)
	env := &soakEnv{AccEnv: acc, check: c}
	const cycle, step = 1, 1
	state := &tfjson.State{Values: &tfjson.StateValues{RootModule: &tfjson.StateModule{}}}
	add := func(typ, name string, attrs map[string]any) {
		state.Values.RootModule.Resources = append(state.Values.RootModule.Resources, &tfjson.StateResource{
			Address: typ + "." + name, Mode: tfjson.ManagedResourceMode, Type: typ, Name: name, AttributeValues: attrs,
		})
	}
	themeIDs := map[string]string{}
	for i, th := range soakThemes(cycle, step) {
		p, err := c.CreatePlayerTheme(t.Context(), videohost.PlayerThemeInput{Name: videohost.Value(th.Name),
			TrackPlayed: videohost.Value(th.TrackPlayed), ForceLoop: videohost.Value(th.ForceLoop)})
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("soak%d", i)
		themeIDs[name] = p.ID
		add("videohost_player_theme", name, map[string]any{"id": p.ID})
	}
	var first string
	for i, want := range soakStreams(cycle, step) {
		l, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: want.Name, Public: &want.Public,
			PlayerID: themeIDs[want.PlayerID], Restreams: want.Restreams})
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			first = l.ID
		}
		add("videohost_live_stream", fmt.Sprintf("soak%d", i), map[string]any{"id": l.ID, "stream_key": l.StreamKey})
	}
	if problems := liveObjectsMatch(t, env, state, cycle, step); len(problems) != 0 {
		t.Fatalf("a state that matches the service: %v", problems)
	}
	if _, err := c.CreateLiveStream(t.Context(), videohost.CreateLiveStreamInput{Name: "orphan"}); err != nil {
		t.Fatal(err)
	}
	if problems := liveObjectsMatch(t, env, state, cycle, step); len(problems) != 1 || !strings.Contains(problems[0], "orphan or a duplicate") {
		t.Errorf("with an orphan live stream: %v", problems)
	}
	if _, err := c.UpdateLiveStream(t.Context(), first, videohost.UpdateLiveStreamInput{Name: videohost.Value("renamed")}); err != nil {
		t.Fatal(err)
	}
	if problems := liveObjectsMatch(t, env, state, cycle, step); len(problems) != 2 || !strings.Contains(strings.Join(problems, " "), `"renamed"`) {
		t.Errorf("with a live stream renamed on the service: %v", problems)
	}
}

// TestSoakChecksSeeVideoDivergences shows that the soak's video check can fail: a matching
// video passes, and a title changed on the service, a caption's default and an orphan video
// are each reported.
func TestSoakChecksSeeVideoDivergences(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	acc := &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu}
	c := acctest.ServiceClient(t, acc)
	env := &soakEnv{AccEnv: acc, check: c, clip: []byte("a few bytes of a video source")}
	const cycle, step = 2, 1
	ctx := t.Context()
	v, err := c.CreateVideo(ctx, videohost.VideoCreate{Title: soakVideoTitle(cycle, step), Tags: []string{"step-1"}})
	if err != nil {
		t.Fatal(err)
	}
	src := func(b []byte) videohost.UploadSource {
		return videohost.UploadSource{Name: "f", Reader: bytes.NewReader(b), Size: int64(len(b))}
	}
	if _, err := c.UploadVideoSource(ctx, v.ID, src(env.clip), videohost.UploadOptions{}); err != nil {
		t.Fatal(err)
	}
	vtt := []byte("WEBVTT\n")
	if _, err := c.UploadCaption(ctx, v.ID, "en", src(vtt)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.SetCaptionDefault(ctx, v.ID, "en", true); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(env.clip)
	state := &tfjson.State{Values: &tfjson.StateValues{RootModule: &tfjson.StateModule{Resources: []*tfjson.StateResource{{
		Address: "videohost_video.soak", Mode: tfjson.ManagedResourceMode, Type: "videohost_video", Name: "soak",
		AttributeValues: map[string]any{"id": v.ID, "source_sha256": hex.EncodeToString(sum[:])},
	}}}}}
	if problems := videosMatch(t, env, state, cycle, step); len(problems) != 0 {
		t.Fatalf("a state that matches the service: %v", problems)
	}
	if problems := videosMatch(t, env, state, cycle, 0); len(problems) != 2 {
		t.Errorf("against step 0's configuration (another title and tags, no default caption): %v", problems)
	}
	if _, err := c.UpdateVideo(ctx, v.ID, videohost.VideoUpdate{Title: videohost.Value("renamed")}); err != nil {
		t.Fatal(err)
	}
	if problems := videosMatch(t, env, state, cycle, step); len(problems) != 1 || !strings.Contains(problems[0], `"renamed"`) {
		t.Errorf("with a video renamed on the service: %v", problems)
	}
	if _, err := c.CreateVideo(ctx, videohost.VideoCreate{Title: "orphan"}); err != nil {
		t.Fatal(err)
	}
	if problems := videosMatch(t, env, state, cycle, step); len(problems) != 1 || !strings.Contains(problems[0], "an orphan") {
		t.Errorf("with an orphan video: %v", problems)
	}
}

// TestSoakChecksSeeAssetDivergences shows that the soak's check of watermarks, upload tokens,
// chapters and the logo can fail: a matching service passes, and an orphan token (an ephemeral
// one left open), an orphan watermark, a token of the wrong ttl and a missing chapter are each
// reported.
func TestSoakChecksSeeAssetDivergences(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	acc := &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu}
	c := acctest.ServiceClient(t, acc)
	env := &soakEnv{AccEnv: acc, check: c, media: t.TempDir()}
	const cycle, step = 0, 0 // one watermark, one token of ttl 600
	want := soakAssetsOf(cycle, step)
	ctx := t.Context()
	var resources []*tfjson.StateResource
	add := func(typ, name, id string) {
		resources = append(resources, &tfjson.StateResource{Address: typ + "." + name, Mode: tfjson.ManagedResourceMode,
			Type: typ, Name: name, AttributeValues: map[string]any{"id": id}})
	}
	img := acctest.WritePNG(t, env.media, "m.png", 32, 16, 1)
	mark, err := framework.UploadImage(ctx, img, acctest.FileSHA256(t, img), watermark.WatermarkImage, c.CreateWatermark)
	if err != nil {
		t.Fatal(err)
	}
	add("videohost_watermark", "soak[0]", mark.ID)
	for i := range want.tokens {
		tok, err := c.CreateUploadToken(ctx, want.ttl)
		if err != nil {
			t.Fatal(err)
		}
		add("videohost_upload_token", fmt.Sprintf("soak[%d]", i), uploadtoken.UploadTokenFingerprint(tok.Token))
	}
	v, err := c.CreateVideo(ctx, videohost.VideoCreate{Title: "v"})
	if err != nil {
		t.Fatal(err)
	}
	add("videohost_video", "soak", v.ID)
	vtt := []byte(acctest.WebVTT("x"))
	if _, err := c.UploadChapter(ctx, v.ID, "en", videohost.UploadSource{Name: "c.vtt", Reader: bytes.NewReader(vtt), Size: int64(len(vtt))}); err != nil {
		t.Fatal(err)
	}
	state := &tfjson.State{Values: &tfjson.StateValues{RootModule: &tfjson.StateModule{Resources: resources}}}
	if problems := assetsMatch(t, env, state, cycle, step); len(problems) != 0 {
		t.Fatalf("a state that matches the service: %v", problems)
	}
	if err := c.DeleteChapter(ctx, v.ID, "en"); err != nil {
		t.Fatal(err)
	}
	if problems := assetsMatch(t, env, state, cycle, step); len(problems) != 1 || !strings.Contains(problems[0], "chapters") {
		t.Errorf("with the chapter gone: %v", problems)
	}
	if _, err := c.CreateUploadToken(ctx, 900); err != nil {
		t.Fatal(err)
	}
	if _, err := framework.UploadImage(ctx, img, acctest.FileSHA256(t, img), watermark.WatermarkImage, c.CreateWatermark); err != nil {
		t.Fatal(err)
	}
	problems := strings.Join(assetsMatch(t, env, state, cycle, step), "\n")
	for _, want := range []string{"upload token", "watermark", "an orphan", "2 upload tokens on the service and 1 in the state"} {
		if !strings.Contains(problems, want) {
			t.Errorf("with an orphan token and watermark, the problems do not say %q:\n%s", want, problems)
		}
	}
	if _, err := c.CreateUploadToken(ctx, 60); err != nil {
		t.Fatal(err)
	}
	if problems := strings.Join(assetsMatch(t, env, state, cycle, step), "\n"); !strings.Contains(problems, "ttl 60 on the service") {
		t.Errorf("with a token of another ttl: %s", problems)
	}
}
