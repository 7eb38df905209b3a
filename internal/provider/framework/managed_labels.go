package framework

// The record, in a resource's private state, of the tags and metadata keys that its
// configuration set at its last write. A read has no configuration, and the state cannot stand
// for it: an import, or an `apply -refresh-only` that accepted drift, puts into the state's own
// values what other systems set. An ignore rule keeps a held value out of what Terraform manages
// unless this record (or a default of the provider) names it, so that a rule added after one of
// those never lets the next apply remove what another system set.

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// managedLabelsKey is the private state key of the record.
const managedLabelsKey = "managed_labels"

// ManagedLabels are the tags and metadata keys that a resource's configuration sets: its own
// values and the provider's defaults.
type ManagedLabels struct {
	Tags         []string `json:"tags"`
	MetadataKeys []string `json:"metadata_keys"`
}

// With is m and the tags and keys given, each once, sorted.
func (m ManagedLabels) With(tags, keys []string) ManagedLabels {
	out := ManagedLabels{Tags: slices.Concat(m.Tags, tags), MetadataKeys: slices.Concat(m.MetadataKeys, keys)}
	slices.Sort(out.Tags)
	slices.Sort(out.MetadataKeys)
	out.Tags, out.MetadataKeys = slices.Compact(out.Tags), slices.Compact(out.MetadataKeys)
	return out
}

// LoadManagedLabels is the record kept in the private state p; none when there is no record (an
// import, or a state written before the record existed) or it cannot be read: then only the
// provider's current defaults count as set by the configuration, and nothing that an ignore rule
// matches is removed until the next write records what the configuration sets.
func LoadManagedLabels(ctx context.Context, p PrivateReader) ManagedLabels {
	var m ManagedLabels
	if p == nil {
		return m
	}
	raw, diags := p.GetKey(ctx, managedLabelsKey)
	if diags.HasError() || len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return ManagedLabels{}
	}
	return m
}

// StoreManagedLabels keeps m in the private state p.
func StoreManagedLabels(ctx context.Context, p PrivateWriter, m ManagedLabels, diags *diag.Diagnostics) {
	if p == nil {
		return
	}
	raw, _ := json.Marshal(m.With(nil, nil)) // Slices of strings always encode.
	diags.Append(p.SetKey(ctx, managedLabelsKey, raw)...)
}
