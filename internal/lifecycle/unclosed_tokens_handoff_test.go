package lifecycle

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestMain lets a test start this test binary as the cleaner, as the provider starts its own
// executable, and gives the tests that build the provider one build to share.
func TestMain(m *testing.M) {
	if os.Getenv(CleanerRoleEnv) == CleanerRole {
		os.Exit(RunCleaner(os.Stdin, provider.Leftovers{}))
	}
	os.Exit(acctest.RunWithOwnCLIConfig(m))
}

// spentTokens serves an emulator whose writes budget is 2 a window of window, spends it on 2
// upload tokens, and returns the client that made them and the tokens.
func spentTokens(t *testing.T, window time.Duration) (*videohost.Client, []string) {
	t.Helper()
	emu, base := acctest.ServeEmulator(t, emulator.Options{Limits: emulator.Limits{Writes: 2}, RateWindow: window}, nil)
	c, err := videohost.New(videohost.Config{BaseURL: base, APIKey: emu.APIKeys()[0], AuthScheme: videohost.AuthBasic,
		MaxRetries: videohost.NoRetries})
	if err != nil {
		t.Fatal(err)
	}
	var tokens []string
	for range 2 {
		tok, err := c.CreateUploadToken(t.Context(), 900)
		if err != nil {
			t.Fatal(err)
		}
		tokens = append(tokens, tok.Token)
	}
	return c, tokens
}

// liveTokens counts the upload tokens on the service of c.
func liveTokens(t *testing.T, c *videohost.Client) int {
	t.Helper()
	left, err := c.ListUploadTokens(t.Context(), videohost.UploadTokenFilter{})
	if err != nil {
		t.Fatal(err)
	}
	return len(left)
}

// TestRunCleanerWaitsOutTheWritesBudget: the cleaner deletes the tokens it is given though the
// writes budget is spent and its client sends every call once: its first deletes are answered
// 429, and it tries again once the window has passed.
func TestRunCleanerWaitsOutTheWritesBudget(t *testing.T) {
	c, tokens := spentTokens(t, 2*time.Second)
	work, err := json.Marshal(cleanerWork{Clients: []cleanerClient{{Settings: c.Settings(), Tokens: tokens}}})
	if err != nil {
		t.Fatal(err)
	}
	if code := RunCleaner(bytes.NewReader(work), provider.Leftovers{}); code != 0 {
		t.Fatalf("the cleaner exited %d, want 0", code)
	}
	if n := liveTokens(t, c); n != 0 {
		t.Errorf("%d tokens live after the cleaner, want none", n)
	}
}

// TestRunCleanerRefusesGarbage: work that is not the provider's ends the cleaner at once, with
// a code of its own.
func TestRunCleanerRefusesGarbage(t *testing.T) {
	for _, in := range []string{"", "not json", `{"clients": 7}`} {
		if code := RunCleaner(strings.NewReader(in), provider.Leftovers{}); code != 2 {
			t.Errorf("runCleaner(%q) exited %d, want 2", in, code)
		}
	}
}

// TestHandOffWithNothingLeftStartsNothing: no token, no process.
func TestHandOffWithNothingLeftStartsNothing(t *testing.T) {
	pid, n, err := handOffUnclosedTokens(map[*videohost.Client][]string{})
	if pid != 0 || n != 0 || err != nil {
		t.Errorf("handOffUnclosedTokens(nothing) = %d, %d, %v; want no process", pid, n, err)
	}
}
