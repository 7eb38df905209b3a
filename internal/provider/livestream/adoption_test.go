package livestream_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// commitThenFail lets the first write of each method and collection reach the emulator, which
// stores it, and answers 500 in its place: the provider cannot tell whether it was applied.
type commitThenFail struct {
	next http.Handler
	mu   sync.Mutex
	seen map[string]int // "POST /players" to the writes seen
}

func (c *commitThenFail) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost && r.Method != http.MethodPatch || strings.HasPrefix(r.URL.Path, "/_emulator") ||
		strings.HasPrefix(r.URL.Path, "/auth") {
		c.next.ServeHTTP(w, r)
		return
	}
	coll := "/" + strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)[0]
	key := r.Method + " " + coll
	c.mu.Lock()
	c.seen[key]++
	first := c.seen[key] == 1
	c.mu.Unlock()
	if !first {
		c.next.ServeHTTP(w, r)
		return
	}
	rec := httptest.NewRecorder()
	c.next.ServeHTTP(rec, r)
	if rec.Code >= 300 {
		// A refused write stored nothing: its answer goes through as it is.
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = fmt.Fprint(w, `{"title":"Internal error after the commit","status":500}`)
}

func (c *commitThenFail) count(key string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.seen[key]
}

// TestAccLiveStreamWritesWhoseOutcomeIsUnknown: the first create of a theme and of a live stream is
// stored and answered 500; each is adopted from the list, not sent again, so that the service
// holds one of each. The first PATCH of each is stored and answered 500 too; its absolute values
// are sent again, and the plan after the apply is empty.
func TestAccLiveStreamWritesWhoseOutcomeIsUnknown(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		t.Skip("needs the in-process emulator behind a fault-injecting handler")
	}
	var faults *commitThenFail
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, func(emu *emulator.Emulator) http.Handler {
		faults = &commitThenFail{next: emu, seen: map[string]int{}}
		return faults
	})
	env := &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu}
	c := acctest.ServiceClient(t, env)
	only := func(what string, count func() (int, error)) statecheck.StateCheck {
		return acctest.StateCheckFunc(func(*tfjson.State) error {
			n, err := count()
			if err != nil {
				return err
			}
			if n != 1 {
				return fmt.Errorf("%d %s on the service, want 1: a create whose outcome was unknown was duplicated or lost", n, what)
			}
			return nil
		})
	}
	streams := func() (int, error) {
		l, err := c.ListLiveStreams(t.Context(), videohost.LiveStreamFilter{})
		return len(l), err
	}
	themes := func() (int, error) {
		l, err := c.ListPlayerThemes(t.Context(), videohost.PlayerThemeFilter{})
		return len(l), err
	}
	sent := func(key string, want int) statecheck.StateCheck {
		return acctest.StateCheckFunc(func(*tfjson.State) error {
			if n := faults.count(key); n != want {
				return fmt.Errorf("%s sent %d times, want %d", key, n, want)
			}
			return nil
		})
	}
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: streamConfig(env, true, "name", acctest.Hcl("studio"), "player_id", "videohost_player_theme.brand.id",
					"restreams", restreamsHCL("a", "rtmp://h.example.test/live", "k1")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					only("live streams", streams), only("player themes", themes),
					sent("POST /live-streams", 1), sent("POST /players", 1),
				},
			},
			{
				Config: env.ProviderConfig("") + `
resource "videohost_player_theme" "brand" {
  name = "brand-2"
}

resource "videohost_live_stream" "studio" {
  name      = "studio-2"
  player_id = videohost_player_theme.brand.id
  restreams = [{ name = "a", server_url = "rtmp://h.example.test/live", stream_key = "k2" }]
}
`,
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(testStreamAddr, plancheck.ResourceActionUpdate),
						plancheck.ExpectResourceAction("videohost_player_theme.brand", plancheck.ResourceActionUpdate),
					},
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
				ConfigStateChecks: []statecheck.StateCheck{
					only("live streams", streams), only("player themes", themes),
					sent("PATCH /live-streams", 2), sent("PATCH /players", 2),
					acctest.StateCheckFunc(func(*tfjson.State) error {
						l, err := c.ListLiveStreams(t.Context(), videohost.LiveStreamFilter{})
						if err != nil || len(l) != 1 || l[0].Name != "studio-2" || len(l[0].Restreams) != 1 || l[0].Restreams[0].StreamKey != "k2" {
							return fmt.Errorf("the service's live streams after the update: %+v, %v", l, err)
						}
						return nil
					}),
				},
			},
		},
	})
}
