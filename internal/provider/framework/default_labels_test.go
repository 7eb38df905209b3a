package framework

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// TestMergeLabels: a tag in both the video and the defaults is one tag; the video's metadata
// value wins for a key in both.
func TestMergeLabels(t *testing.T) {
	if got := MergeTags([]string{"b", "team"}, []string{"team", "a"}); !slices.Equal(got, []string{"a", "b", "team"}) {
		t.Errorf("MergeTags = %q", got)
	}
	got := MergeMetadata(map[string]string{"env": "staging"}, map[string]string{"env": "prod", "team": "video"})
	if fmt.Sprint(got) != "map[env:staging team:video]" {
		t.Errorf("MergeMetadata = %v", got)
	}
}

// TestHeldAndOwnLabels: what the service holds is split into what an ignore rule leaves to other
// systems (never a value Terraform manages) and tags_all; tags_all into the video's own tags and
// the defaults, with a tag the video had kept as its own and an unexplained tag shown as its own
// (drift).
func TestHeldAndOwnLabels(t *testing.T) {
	rule := IgnoreRule{Exact: []string{"featured"}, Prefixes: []string{"dash:"}}
	all, ignored := HeldTags([]string{"dash:blue", "featured", "launch", "team", "dash:mine"}, rule, []string{"dash:mine"})
	if !slices.Equal(all, []string{"dash:mine", "launch", "team"}) || !slices.Equal(ignored, []string{"dash:blue", "featured"}) {
		t.Errorf("HeldTags = %q, ignored %q", all, ignored)
	}
	for _, tc := range []struct {
		name                  string
		all, own, prior, dflt []string
		want                  []string
	}{
		{"defaults are not the video's", []string{"launch", "team"}, []string{"launch"}, []string{"launch", "team"}, []string{"team"}, []string{"launch"}},
		{"a default equal to the video's tag stays its own", []string{"launch", "team"}, []string{"launch", "team"}, nil, []string{"team"}, []string{"launch", "team"}},
		{"a removed default is not the video's", []string{"launch", "old"}, []string{"launch"}, []string{"launch", "old"}, nil, []string{"launch"}},
		{"a tag added outside is drift", []string{"launch", "new"}, []string{"launch"}, []string{"launch"}, nil, []string{"launch", "new"}},
		{"an import keeps all but the defaults", []string{"launch", "team"}, nil, nil, []string{"team"}, []string{"launch"}},
	} {
		if got := OwnTags(tc.all, tc.own, tc.prior, tc.dflt); !slices.Equal(got, tc.want) {
			t.Errorf("%s: OwnTags = %q, want %q", tc.name, got, tc.want)
		}
	}
	md := OwnMetadata(map[string]string{"env": "staging", "team": "video", "old": "x", "new": "y"},
		map[string]string{"env": "prod"}, []string{"env", "team", "old"}, map[string]string{"team": "video", "env": "prod"})
	if fmt.Sprint(md) != "map[env:staging new:y]" {
		t.Errorf("OwnMetadata = %v", md)
	}
	allMD, ignoredMD := HeldMetadata(map[string]string{"x-a": "1", "job": "2", "own": "3"}, IgnoreRule{Prefixes: []string{"x-"}, Exact: []string{"job"}}, nil)
	if fmt.Sprint(allMD) != "map[own:3]" || fmt.Sprint(ignoredMD) != "map[job:2 x-a:1]" {
		t.Errorf("HeldMetadata = %v, ignored %v", allMD, ignoredMD)
	}
}

// TestHeldTagsRepeated: a tag held twice, managed or ignored, is one tag.
func TestHeldTagsRepeated(t *testing.T) {
	all, ignored := HeldTags([]string{"a", "ext:1", "a", "ext:1"}, IgnoreRule{Prefixes: []string{"ext:"}}, nil)
	if !slices.Equal(all, []string{"a"}) || !slices.Equal(ignored, []string{"ext:1"}) {
		t.Errorf("HeldTags = %q, ignored %q", all, ignored)
	}
}

// TestManagedLabelsRecord: the record of what the configuration sets survives the private state
// sorted and each value once; no record, or one that cannot be read, is an empty record.
func TestManagedLabelsRecord(t *testing.T) {
	ctx := t.Context()
	p := privateMap{}
	if got := LoadManagedLabels(ctx, p); len(got.Tags) != 0 || len(got.MetadataKeys) != 0 {
		t.Errorf("no record loads as %+v", got)
	}
	var diags diag.Diagnostics
	StoreManagedLabels(ctx, p, ManagedLabels{Tags: []string{"b", "a"}}.With([]string{"a"}, []string{"k"}), &diags)
	if got := LoadManagedLabels(ctx, p); diags.HasError() || !slices.Equal(got.Tags, []string{"a", "b"}) ||
		!slices.Equal(got.MetadataKeys, []string{"k"}) {
		t.Errorf("the record loads as %+v (%v)", got, diags)
	}
	p[managedLabelsKey] = []byte("not json")
	if got := LoadManagedLabels(ctx, p); len(got.Tags) != 0 {
		t.Errorf("an unreadable record loads as %+v", got)
	}
}

// privateMap is a private state in memory.
type privateMap map[string][]byte

func (p privateMap) GetKey(_ context.Context, key string) ([]byte, diag.Diagnostics) {
	return p[key], nil
}

func (p privateMap) SetKey(_ context.Context, key string, value []byte) diag.Diagnostics {
	p[key] = value
	return nil
}
