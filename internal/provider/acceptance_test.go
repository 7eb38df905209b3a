package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
)

// testAccProtoV6ProviderFactories serves the provider in-process.
var testAccProtoV6ProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"videohost": providerserver.NewProtocol6WithError(New("test")()),
}

// accEnv is one test's service: an emulator started in-process on its own loopback port with
// its own key, or, when VIDEOHOST_EMULATOR=0 and VIDEOHOST_API_KEY and VIDEOHOST_BASE_URL are
// set, that real endpoint.
type accEnv struct {
	BaseURL, APIKey string
	Emu             *emulator.Emulator // nil against a real endpoint
}

// newAccEnv starts the service of one acceptance test. It skips the test without TF_ACC, so
// that no emulator is started for a test that resource.Test would skip anyway.
func newAccEnv(t *testing.T, opts emulator.Options) *accEnv {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		key, base := os.Getenv(envAPIKey), os.Getenv(envBaseURL)
		if key == "" || base == "" {
			t.Fatalf("VIDEOHOST_EMULATOR=0 needs %s and %s to name the endpoint to test against", envAPIKey, envBaseURL)
		}
		return &accEnv{BaseURL: base, APIKey: key}
	}
	emu, baseURL := serveEmulator(t, opts, nil)
	keys := emu.APIKeys()
	if len(keys) == 0 {
		t.Fatal("the emulator has no API key")
	}
	return &accEnv{BaseURL: baseURL, APIKey: keys[0], Emu: emu}
}

// serveEmulator starts an emulator of opts on its own loopback port, behind the handler that
// wrap builds around it when wrap is not nil (a test that watches or steers the requests), and
// stops both when the test ends. It returns the emulator and its address.
func serveEmulator(t *testing.T, opts emulator.Options, wrap func(*emulator.Emulator) http.Handler) (*emulator.Emulator, string) {
	t.Helper()
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatalf("starting the emulator: %v", err)
	}
	var h http.Handler = emu
	if wrap != nil {
		h = wrap(emu)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(func() {
		srv.Close()
		if err := emu.Close(); err != nil {
			t.Errorf("closing the emulator: %v", err)
		}
	})
	return emu, srv.URL
}

// requireEmulator skips a test or step that needs the emulator (its control API or its
// options) when running against a real endpoint.
func (e *accEnv) requireEmulator(t *testing.T) {
	t.Helper()
	if e.Emu == nil {
		t.Skip("needs the in-process emulator (its control API or options); VIDEOHOST_EMULATOR=0 runs against a real endpoint")
	}
}

// providerConfig is the provider block pointed at this service, with extra attributes. Against
// a real endpoint the key stays in the environment and out of the configuration files that the
// testing framework writes.
func (e *accEnv) providerConfig(extra string) string {
	key := fmt.Sprintf("api_key = %q", e.APIKey)
	if e.Emu == nil {
		key = ""
	}
	return fmt.Sprintf(`
provider "videohost" {
  base_url = %q
  %s
  %s
}
`, e.BaseURL, key, extra)
}
