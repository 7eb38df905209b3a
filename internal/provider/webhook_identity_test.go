package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/events"
)

// TestWebhookIdentityProtocol drives the identity of videohost_webhook through the provider's
// protocol server, as Terraform 1.12 and later call it, against an in-process emulator.
func TestWebhookIdentityProtocol(t *testing.T) {
	emu, baseURL := serveEmulator(t, emulator.Options{}, nil)
	p := newProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	w, err := emu.CreateWebhook("https://hooks.example.test/identity", []string{events.VideoSourceRecorded})
	if err != nil {
		t.Fatal(err)
	}

	schema := p.identity.IdentitySchemas["videohost_webhook"]
	if schema == nil || len(schema.IdentityAttributes) != 1 || schema.IdentityAttributes[0].Name != "id" ||
		!schema.IdentityAttributes[0].RequiredForImport || !schema.IdentityAttributes[0].Type.Is(tftypes.String) {
		t.Fatalf("identity schema of videohost_webhook = %+v, want one required string id", schema)
	}

	t.Run("read of a state without identity sets it", func(t *testing.T) {
		state, identity, diags := p.read("videohost_webhook", map[string]tftypes.Value{"id": str(w.WebhookID)})
		requireNoErrors(t, "ReadResource", diags)
		if got := stringOf(identity["id"]); got != w.WebhookID {
			t.Errorf("identity id = %q, want %q", got, w.WebhookID)
		}
		if got := stringOf(state["signature_secret"]); got != w.SignatureSecret {
			t.Error("the read state does not hold the webhook's signature secret")
		}
	})

	t.Run("import by identity", func(t *testing.T) {
		state, identity, diags := p.importResource("videohost_webhook", "", map[string]tftypes.Value{"id": str(w.WebhookID)})
		requireNoErrors(t, "ImportResourceState", diags)
		if stringOf(state["id"]) != w.WebhookID || stringOf(identity["id"]) != w.WebhookID {
			t.Errorf("imported state id %q and identity id %q, want both %q", stringOf(state["id"]), stringOf(identity["id"]), w.WebhookID)
		}
	})

	t.Run("import by id sets the identity too", func(t *testing.T) {
		state, identity, diags := p.importResource("videohost_webhook", w.WebhookID, nil)
		requireNoErrors(t, "ImportResourceState", diags)
		if stringOf(state["id"]) != w.WebhookID || stringOf(identity["id"]) != w.WebhookID {
			t.Errorf("imported state id %q and identity id %q, want both %q", stringOf(state["id"]), stringOf(identity["id"]), w.WebhookID)
		}
	})

	t.Run("an identity that could name another endpoint is refused before any request", func(t *testing.T) {
		before := emu.RequestCount("", "/")
		_, _, diags := p.importResource("videohost_webhook", "", map[string]tftypes.Value{"id": str("../videos")})
		if !hasError(diags, "Invalid Import ID", `"../videos" holds the path step ".."`) {
			t.Errorf("diagnostics %s, want Invalid Import ID naming the dot-dot step", diagText(diags))
		}
		if after := emu.RequestCount("", "/"); after != before {
			t.Errorf("%d requests reached the service for a refused identity", after-before)
		}
	})

	t.Run("a webhook deleted outside Terraform leaves the state without error", func(t *testing.T) {
		gone, err := emu.CreateWebhook("https://hooks.example.test/gone", []string{events.VideoSourceRecorded})
		if err != nil {
			t.Fatal(err)
		}
		if !emu.DeleteWebhook(gone.WebhookID) {
			t.Fatal("the emulator did not delete the webhook")
		}
		state, _, diags := p.read("videohost_webhook", map[string]tftypes.Value{"id": str(gone.WebhookID)})
		requireNoErrors(t, "ReadResource", diags)
		if state != nil {
			t.Errorf("state after the webhook was deleted = %v, want it removed", state)
		}
	})
}

// TestAccWebhookIdentity imports a webhook with an import block's identity and checks that the
// plan after it is empty; the identity stored in the state is the webhook's id. Identity needs
// Terraform 1.12; the test is skipped, naming the version found, below it.
func TestAccWebhookIdentity(t *testing.T) {
	env := newAccEnv(t, emulator.Options{})
	requireCLIFeature(t, featureIdentity)
	url := "https://hooks.example.test/identity"
	accTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProtoV6ProviderFactories,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		Steps: []resource.TestStep{
			{
				Config: webhookConfig(env, "", url, events.VideoSourceRecorded),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(testWebhookAddr, map[string]knownvalue.Check{"id": knownvalue.NotNull()}),
					statecheck.ExpectIdentityValueMatchesState(testWebhookAddr, tfjsonpath.New("id")),
				},
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// import { to = videohost_webhook.test, identity = { id = "..." } }: the framework
				// checks that the plan imports and changes nothing.
				ResourceName:    testWebhookAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
		},
	})
}

// hasError reports whether diags hold an error with summary whose detail says every one of
// words.
func hasError(diags []*tfprotov6.Diagnostic, summary string, words ...string) bool {
	for _, d := range diags {
		if d.Severity != tfprotov6.DiagnosticSeverityError || d.Summary != summary {
			continue
		}
		ok := true
		for _, w := range words {
			ok = ok && strings.Contains(d.Detail, w)
		}
		if ok {
			return true
		}
	}
	return false
}

func diagText(diags []*tfprotov6.Diagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		b.WriteString(d.Summary + ": " + d.Detail + "\n")
	}
	return b.String()
}
