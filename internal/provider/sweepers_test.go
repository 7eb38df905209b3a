package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/videohost/terraform-provider-videohost/internal/sweep"
)

// withoutSweeper are the resource types whose objects go with another's, and so need no sweeper
// of their own: a video's captions and chapters are deleted with it.
var withoutSweeper = []string{"videohost_video_caption", "videohost_video_chapter"}

// TestEveryResourceTypeHasItsSweeper: the registered sweepers are the provider's resource types,
// both ways: each sweeper is named for a resource type, and each resource type has one unless
// withoutSweeper says why not; each sweeper's dependencies are sweepers too.
func TestEveryResourceTypeHasItsSweeper(t *testing.T) {
	RegisterSweepers()
	RegisterSweepers() // once: a second call registers nothing more
	swept := map[string]bool{}
	for _, s := range sweep.Sweepers() {
		if swept[s.Name] {
			t.Errorf("sweeper %s is registered twice", s.Name)
		}
		swept[s.Name] = true
	}
	types := map[string]bool{}
	for _, f := range (&VideohostProvider{}).Resources(t.Context()) {
		var m resource.MetadataResponse
		f().Metadata(t.Context(), resource.MetadataRequest{ProviderTypeName: "videohost"}, &m)
		types[m.TypeName] = true
		if !swept[m.TypeName] && !slices.Contains(withoutSweeper, m.TypeName) {
			t.Errorf("resource type %s has no sweeper: add a sweep.go to its folder and register it in RegisterSweepers, or say in withoutSweeper why it needs none", m.TypeName)
		}
	}
	for _, s := range sweep.Sweepers() {
		if !types[s.Name] {
			t.Errorf("sweeper %s is named for no resource type", s.Name)
		}
		for _, d := range s.Dependencies {
			if !swept[d] {
				t.Errorf("sweeper %s depends on %s, which is no sweeper", s.Name, d)
			}
		}
	}
	for _, name := range withoutSweeper {
		if !types[name] || swept[name] {
			t.Errorf("withoutSweeper names %s, which is no resource type or has a sweeper", name)
		}
	}
}
