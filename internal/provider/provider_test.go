package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// configure runs the provider's Configure on a configuration given as attribute values; an
// attribute left out is null. It clears the provider's environment variables first.
func configure(t *testing.T, attrs map[string]tftypes.Value) *fwprovider.ConfigureResponse {
	t.Helper()
	for _, env := range []string{framework.EnvAPIKey, framework.EnvEnvironment, framework.EnvBaseURL} {
		t.Setenv(env, "")
	}
	return configureWithEnv(t, attrs)
}

func configureWithEnv(t *testing.T, attrs map[string]tftypes.Value) *fwprovider.ConfigureResponse {
	t.Helper()
	ctx := t.Context()
	p := provider.New("test")()
	var sresp fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &sresp)
	objType, ok := sresp.Schema.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		t.Fatal("the provider schema is not an object")
	}
	vals := map[string]tftypes.Value{}
	for name, typ := range objType.AttributeTypes {
		if v, ok := attrs[name]; ok {
			vals[name] = v
		} else {
			vals[name] = tftypes.NewValue(typ, nil)
		}
	}
	req := fwprovider.ConfigureRequest{Config: tfsdk.Config{Schema: sresp.Schema, Raw: tftypes.NewValue(objType, vals)}}
	resp := &fwprovider.ConfigureResponse{}
	p.Configure(ctx, req, resp)
	return resp
}

func errorOn(t *testing.T, diags diag.Diagnostics, attr string, wants ...string) {
	t.Helper()
	for _, d := range diags.Errors() {
		wp, ok := d.(diag.DiagnosticWithPath)
		if !ok || !wp.Path().Equal(path.Root(attr)) {
			continue
		}
		for _, w := range wants {
			if !strings.Contains(d.Detail(), w) {
				t.Errorf("the error on %s does not say %q: %s", attr, w, d.Detail())
			}
		}
		return
	}
	t.Fatalf("no error on %s in %v", attr, diags)
}

func TestProviderSchemaAndRegistrations(t *testing.T) {
	ctx := t.Context()
	p := provider.New("1.2.3")()
	var meta fwprovider.MetadataResponse
	p.Metadata(ctx, fwprovider.MetadataRequest{}, &meta)
	if meta.TypeName != "videohost" || meta.Version != "1.2.3" {
		t.Errorf("metadata %+v", meta)
	}
	var sresp fwprovider.SchemaResponse
	p.Schema(ctx, fwprovider.SchemaRequest{}, &sresp)
	if diags := sresp.Schema.ValidateImplementation(ctx); diags.HasError() {
		t.Fatalf("provider schema: %v", diags)
	}
	for name, a := range sresp.Schema.Attributes {
		if a.GetMarkdownDescription() == "" {
			t.Errorf("attribute %s has no description", name)
		}
		if !strings.Contains(a.GetMarkdownDescription(), "efault") {
			t.Errorf("the description of %s does not state its default", name)
		}
	}
	if !sresp.Schema.Attributes["api_key"].IsSensitive() {
		t.Error("api_key is not sensitive")
	}

	resourceNames := map[string]bool{}
	for _, newR := range p.Resources(ctx) {
		r := newR()
		var m fwresource.MetadataResponse
		r.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s fwresource.SchemaResponse
		r.Schema(ctx, fwresource.SchemaRequest{}, &s)
		if diags := s.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Errorf("%s: %v", m.TypeName, diags)
		}
		resourceNames[m.TypeName] = true
	}
	if !resourceNames["videohost_webhook"] || !resourceNames["videohost_live_stream"] || !resourceNames["videohost_player_theme"] {
		t.Errorf("resources: %v", resourceNames)
	}

	dataNames := map[string]bool{}
	for _, newD := range p.DataSources(ctx) {
		d := newD()
		if d == nil {
			continue // a constructor of another file that is not written yet
		}
		var m datasource.MetadataResponse
		d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		var s datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &s)
		if diags := s.Schema.ValidateImplementation(ctx); diags.HasError() {
			t.Errorf("%s: %v", m.TypeName, diags)
		}
		dataNames[m.TypeName] = true
	}
	for _, want := range []string{"videohost_webhook", "videohost_webhooks", "videohost_video", "videohost_videos",
		"videohost_player_theme", "videohost_player_themes"} {
		if !dataNames[want] {
			t.Errorf("data source %s is not registered: %v", want, dataNames)
		}
	}
}

func TestAccProviderConfigUnknownAtPlan(t *testing.T) {
	// The address comes from a resource, so it is unknown while planning: the plan must
	// succeed (the provider cannot call the service yet) and the apply, with the value known,
	// must create the webhook.
	env := acctest.NewAccEnv(t, emulator.Options{})
	config := fmt.Sprintf(`
resource "terraform_data" "address" {
  input = %s
}
provider "videohost" {
  base_url = terraform_data.address.output
  %s
}
resource "videohost_webhook" "test" {
  url    = %s
  events = ["video.source.recorded"]
}
`, acctest.Hcl(env.BaseURL), map[bool]string{true: "api_key = " + acctest.Hcl(env.APIKey), false: ""}[env.Emu != nil],
		acctest.Hcl("https://hooks.example.test/"+env.Name("hook")))
	acctest.AccTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(acctest.TestWebhookAddr, tfjsonpath.New("id"), knownvalue.NotNull()),
				acctest.MatchesEmulator(env),
			},
		}},
	})
}

func TestAccProviderMaxRetries(t *testing.T) {
	// Every read fails with a 500, so the number of GETs the service sees is the number of
	// attempts: max_retries = 0 must mean one attempt, not the client's default of five retries.
	for _, tc := range []struct {
		maxRetries, wantGets int
	}{{0, 1}, {2, 3}} {
		t.Run(fmt.Sprintf("max_retries=%d", tc.maxRetries), func(t *testing.T) {
			env := acctest.NewAccEnv(t, emulator.Options{Faults: emulator.Faults{ErrorRate: 1}})
			env.RequireEmulator(t)
			acctest.AccTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.TestAccProtoV6ProviderFactories,
				Steps: []resource.TestStep{{
					Config:      env.ProviderConfig(fmt.Sprintf("max_retries = %d", tc.maxRetries)) + `data "videohost_webhooks" "all" {}`,
					ExpectError: regexp.MustCompile(`(?s)500`),
				}},
			})
			if got := env.RequestCount("GET", "/webhooks"); got != tc.wantGets {
				t.Errorf("the service saw %d GET /webhooks, want %d", got, tc.wantGets)
			}
		})
	}
}
