package video_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// TestVideoIdentityAndListProtocol drives videohost_video's identity, its import by identity
// and its list resource through the provider's protocol server, as Terraform 1.12+ and 1.14+
// call them: the list streams every video with its title as display name and, with
// include_resource, what the service shows of it; the title and tag filters reach the service.
func TestVideoIdentityAndListProtocol(t *testing.T) {
	emu, baseURL := acctest.ServeEmulator(t, emulator.Options{}, nil)
	p := acctest.NewProtoServer(t, baseURL, emu.APIKeys()[0], nil)
	c := acctest.ServiceClient(t, &acctest.AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu})
	titles := map[string]string{}
	for i := range 5 {
		tags := []string{"all"}
		if i%2 == 0 {
			tags = append(tags, "even")
		}
		v, err := c.CreateVideo(t.Context(), videohost.VideoCreate{Title: fmt.Sprintf("talk-%d", i), Tags: tags,
			Source: "https://media.example.test/talk.mp4"})
		if err != nil {
			t.Fatal(err)
		}
		titles[v.ID] = v.Title
	}
	var someID string
	for id := range titles {
		someID = id
		break
	}
	state, identity, diags := p.ImportResource("videohost_video", "", map[string]tftypes.Value{"id": acctest.Str(someID)})
	acctest.RequireNoErrors(t, "ImportResourceState", diags)
	if acctest.StringOf(state["id"]) != someID || acctest.StringOf(identity["id"]) != someID {
		t.Errorf("import by identity: state id %q, identity %q, want %q", acctest.StringOf(state["id"]), acctest.StringOf(identity["id"]), someID)
	}
	state, identity, diags = p.Read("videohost_video", map[string]tftypes.Value{"id": acctest.Str(someID)})
	acctest.RequireNoErrors(t, "ReadResource", diags)
	if acctest.StringOf(state["title"]) != titles[someID] || acctest.StringOf(identity["id"]) != someID ||
		acctest.StringOf(state["source_url"]) != "https://media.example.test/talk.mp4" {
		t.Errorf("read after import: title %q, source_url %q, identity %q", acctest.StringOf(state["title"]), acctest.StringOf(state["source_url"]), acctest.StringOf(identity["id"]))
	}

	results := p.List(acctest.ListQuery{TypeName: "videohost_video", IncludeResource: true, Limit: 100})
	if len(results) != len(titles) {
		t.Fatalf("%d results, want %d", len(results), len(titles))
	}
	for _, r := range results {
		acctest.RequireNoErrors(t, "ListResource", r.Diagnostics)
		id := acctest.StringOf(r.Identity["id"])
		if want, ok := titles[id]; !ok || r.DisplayName != want || acctest.StringOf(r.Resource["title"]) != want || acctest.StringOf(r.Resource["id"]) != id {
			t.Errorf("result %q (%q) with resource title %q; want a video titled %q", id, r.DisplayName, acctest.StringOf(r.Resource["title"]), want)
		}
	}
	even := p.List(acctest.ListQuery{TypeName: "videohost_video", Limit: 100, Config: map[string]tftypes.Value{
		"tags": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.Str("even")}),
	}})
	if len(even) != 3 {
		t.Errorf("%d videos tagged even, want 3", len(even))
	}
	one := p.List(acctest.ListQuery{TypeName: "videohost_video", Limit: 100, Config: map[string]tftypes.Value{"title": acctest.Str("talk-3")}})
	if len(one) != 1 || one[0].DisplayName != "talk-3" {
		t.Errorf("the title filter talk-3 gave %d results", len(one))
	}
}
