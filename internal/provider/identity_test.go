package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
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
	srv := NewServer("test")()
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
