package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestEveryResourceHasIdentityAndListResource: every managed resource of the provider has an
// identity of one attribute, id, and a list resource of the same name for terraform query.
func TestEveryResourceHasIdentityAndListResource(t *testing.T) {
	srv, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(t.Context(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "GetProviderSchema", schemas.Diagnostics)
	identities, err := srv.GetResourceIdentitySchemas(t.Context(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil {
		t.Fatal(err)
	}
	requireNoErrors(t, "GetResourceIdentitySchemas", identities.Diagnostics)
	if len(schemas.ResourceSchemas) == 0 {
		t.Fatal("the provider has no resources")
	}
	for name := range schemas.ResourceSchemas {
		id := identities.IdentitySchemas[name]
		if id == nil || len(id.IdentityAttributes) != 1 || id.IdentityAttributes[0].Name != "id" {
			t.Errorf("%s: identity schema %+v, want one attribute id", name, id)
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
