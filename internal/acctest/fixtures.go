package acctest

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/echoprovider"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// SampleTheme is a theme as the service answers, defaults filled in.
func SampleTheme(id string) videohost.PlayerTheme {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return videohost.PlayerTheme{
		ID: id, Text: "rgba(255, 255, 255, 1)", Link: "rgba(255, 255, 255, 1)", LinkHover: "rgba(255, 255, 255, 1)",
		LinkActive: "rgba(255, 255, 255, 1)", BackgroundText: "rgba(255, 255, 255, 1)", TrackPlayed: "rgba(88, 131, 255, .95)",
		TrackUnplayed: "rgba(255, 255, 255, .35)", TrackBackground: "rgba(255, 255, 255, .2)",
		BackgroundTop: "rgba(0, 0, 0, .7)", BackgroundBottom: "rgba(0, 0, 0, .7)", EnableAPI: true, EnableControls: true,
		CreatedAt: &created, UpdatedAt: &created,
	}
}

const TestThemeAddr = "videohost_player_theme.brand"

// WriteRandomFile writes n random bytes to a new file in dir and returns its path and the
// lowercase hex SHA-256 of its content.
func WriteRandomFile(t *testing.T, dir, name string, n int) (string, string) {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	return p, hex.EncodeToString(sum[:])
}

const OkWebhook = `
resource "videohost_webhook" "test" {
  url    = "https://hooks.example.test/bad-input"
  events = ["video.source.recorded"]
}
`

// OneOfEvents is how the framework refuses a name that is not an event of the service.
const OneOfEvents = `value must be one of:.*video\.encoding\.quality\.completed.*live-stream\.broadcast\.started`

const TestCaptionAddr = "videohost_video_caption.test"

// CreateVideoOutside creates a video outside Terraform, as the dashboard would, and returns its id.
func CreateVideoOutside(t *testing.T, env *AccEnv, in videohost.VideoCreate) string {
	t.Helper()
	c := ServiceClient(t, env)
	v, err := c.CreateVideo(t.Context(), in)
	if err != nil {
		t.Fatalf("creating video %q: %v", in.Title, err)
	}
	// Deleted when the test ends, so that a run against a real endpoint leaves nothing behind.
	t.Cleanup(func() {
		if err := c.DeleteVideo(context.Background(), v.ID); err != nil && !errors.Is(err, videohost.ErrNotFound) {
			t.Errorf("deleting video %s made outside Terraform: %v", v.ID, err)
		}
	})
	return v.ID
}

func TestVideo(id string) videohost.Video {
	return videohost.Video{
		ID: id, Title: "t", Description: "d", Language: "en", PlayerID: "pl1",
		CreatedAt: &TestTime, PublishedAt: &TestTime, UpdatedAt: &TestTime,
		Discarded: true, Public: true, Panoramic: true, MP4Support: true,
		Tags:     []string{"a", "b"},
		Metadata: []videohost.Metadata{{Key: "k", Value: "v"}, {Key: "k2", Value: ""}},
		Source: &videohost.VideoSource{URI: "/videos/" + id + "/source", Type: "live",
			LiveStream: &videohost.VideoSourceLiveStream{LiveStreamID: "li1"}},
		Assets: &videohost.VideoAssets{HLS: "h", IFrame: "i", Player: "p", Thumbnail: "th", MP4: "m"},
	}
}

// AccessTokenProviderFactories serve the provider under test and the echo provider, which
// copies an ephemeral value into the state of a test resource so that it can be checked.
func AccessTokenProviderFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	factories := map[string]func() (tfprotov6.ProviderServer, error){
		"echo": echoprovider.NewProviderServer(),
	}
	for name, f := range TestAccProtoV6ProviderFactories {
		factories[name] = f
	}
	return factories
}

var RaisedLimits = emulator.Limits{Uploads: 100000, Writes: 100000, Reads: 100000}

// OtherClientCreates wraps the emulator so that, on the first create of path once armed is set,
// another client creates one object of the same kind (the same request) just before this create
// is served: an object of another process that appears during the attempt.
func OtherClientCreates(path string, armed *atomic.Bool) func(*emulator.Emulator) http.Handler {
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

// AdoptionEnv is a provider's data for an emulator behind wrap, without Terraform.
func AdoptionEnv(t *testing.T, opts emulator.Options, wrap func(*emulator.Emulator) http.Handler) (*emulator.Emulator, *framework.ProviderData) {
	t.Helper()
	emu, baseURL := ServeEmulator(t, opts, wrap)
	client, err := videohost.New(videohost.Config{BaseURL: baseURL, APIKey: emu.APIKeys()[0], AuthScheme: videohost.AuthBasic})
	if err != nil {
		t.Fatal(err)
	}
	return emu, &framework.ProviderData{Client: client, Environment: client.Environment(), BaseURL: client.BaseURL()}
}

// InterruptHold is how long the slowed phase lasts: long enough that Ctrl-C lands inside it on a
// loaded machine, short enough that the operations it holds finish well within the 10 s that
// Terraform may take to exit.
const InterruptHold = 3 * time.Second

var TestTime = time.Date(2026, 11, 22, 1, 2, 3, 0, time.UTC)
