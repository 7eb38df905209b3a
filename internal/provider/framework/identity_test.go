package framework_test

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
)

// compositeIdentities are the resources that the service addresses by their video and a key
// rather than by an id of their own: their identity is those attributes, in name order.
var compositeIdentities = map[string][]string{
	"videohost_video_caption": {"language", "video_id"},
	"videohost_video_chapter": {"language", "video_id"},
}

// TestEveryResourceHasIdentityAndListResource: every managed resource of the provider has an
// identity of one attribute, id (or those of compositeIdentities), and a list resource of the
// same name for terraform query.
func TestEveryResourceHasIdentityAndListResource(t *testing.T) {
	srv := provider.NewServer("test")()
	schemas, err := srv.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	acctest.RequireNoErrors(t, "GetProviderSchema", schemas.Diagnostics)
	identities, err := srv.GetResourceIdentitySchemas(t.Context(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	acctest.RequireNoErrors(t, "GetResourceIdentitySchemas", identities.Diagnostics)
	if len(schemas.ResourceSchemas) == 0 {
		t.Fatal("the provider has no resources")
	}
	for name := range schemas.ResourceSchemas {
		want, ok := compositeIdentities[name]
		if !ok {
			want = []string{"id"}
		}
		var got []string
		if id := identities.IdentitySchemas[name]; id != nil {
			for _, a := range id.IdentityAttributes {
				got = append(got, a.Name)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: identity attributes %v, want %v", name, got, want)
		}
		if _, ok := schemas.ListResourceSchemas[name]; !ok {
			t.Errorf("%s has no list resource", name)
		}
	}
	for name := range schemas.ListResourceSchemas {
		if _, ok := schemas.ResourceSchemas[name]; !ok {
			t.Errorf("list resource %s lists no managed resource", name)
		}
	}
}

// TestImportedID: an import names its object by the id that terraform import or an import
// block gives, and by an import block's identity only when it gives no id.
func TestImportedID(t *testing.T) {
	ctx := t.Context()
	is := framework.IdIdentitySchema("webhook (`webhookId`)")
	identity := func(id string) *tfsdk.ResourceIdentity {
		return &tfsdk.ResourceIdentity{Schema: is, Raw: tftypes.NewValue(is.Type().TerraformType(ctx),
			map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, id)})}
	}
	for _, tt := range []struct {
		name string
		req  fwresource.ImportStateRequest
		want string
	}{
		{"by id", fwresource.ImportStateRequest{ID: "wh1"}, "wh1"},
		{"by id, with an identity", fwresource.ImportStateRequest{ID: "wh1", Identity: identity("wh2")}, "wh1"},
		{"by identity", fwresource.ImportStateRequest{Identity: identity("wh2")}, "wh2"},
		{"by nothing", fwresource.ImportStateRequest{}, ""},
	} {
		var diags diag.Diagnostics
		got, ok := framework.ImportedID(ctx, tt.req, &diags)
		if !ok || got != tt.want || diags.HasError() {
			t.Errorf("%s: %q, %v, %v; want %q", tt.name, got, ok, diags, tt.want)
		}
	}
	// An identity that is not one of one id is an error, not an empty id.
	var diags diag.Diagnostics
	other := identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"video_id": identityschema.StringAttribute{RequiredForImport: true},
	}}
	bad := &tfsdk.ResourceIdentity{Schema: other, Raw: tftypes.NewValue(other.Type().TerraformType(ctx),
		map[string]tftypes.Value{"video_id": tftypes.NewValue(tftypes.String, "vi1")})}
	if _, ok := framework.ImportedID(ctx, fwresource.ImportStateRequest{Identity: bad}, &diags); ok || !diags.HasError() {
		t.Errorf("an identity without id: ok %v, diagnostics %v", ok, diags)
	}
}
