package framework

// The provider's default labels (default_tags, default_metadata) and ignore rules (ignore_tags,
// ignore_metadata_keys), and the pure functions that merge them into what a resource sends and
// split what the service holds back into what the resource's own configuration manages. They
// know nothing of a kind: a kind whose published shape has tags or metadata (today the video)
// calls them from its plan, its writes and its read.

import (
	"maps"
	"slices"
	"strings"
)

// IgnoreRule matches the values (tags, or metadata keys) that other systems set: an exact value,
// or a prefix.
type IgnoreRule struct {
	Exact    []string
	Prefixes []string
}

// Matches reports whether s is one of the exact values or starts with one of the prefixes.
func (r IgnoreRule) Matches(s string) bool {
	if slices.Contains(r.Exact, s) {
		return true
	}
	for _, p := range r.Prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// IsEmpty reports whether the rule matches nothing.
func (r IgnoreRule) IsEmpty() bool { return len(r.Exact) == 0 && len(r.Prefixes) == 0 }

// DefaultLabels are the provider's default_tags and default_metadata and its ignore rules, as
// Configure found them. A default that is not known yet (it comes from a resource that the same
// apply creates) makes the merged values of every resource unknown at plan.
type DefaultLabels struct {
	Tags            []string
	Metadata        map[string]string
	TagsUnknown     bool
	MetadataUnknown bool
	IgnoreTags      IgnoreRule
	IgnoreMetadata  IgnoreRule
}

// MergeTags is the union of a resource's own tags and the defaults, sorted: a tag in both is one
// tag.
func MergeTags(own, defaults []string) []string {
	out := slices.Concat(own, defaults)
	slices.Sort(out)
	return slices.Compact(out)
}

// MergeMetadata is the defaults overlaid with the resource's own metadata: the resource's value
// wins for a key in both.
func MergeMetadata(own, defaults map[string]string) map[string]string {
	out := make(map[string]string, len(own)+len(defaults))
	maps.Copy(out, defaults)
	maps.Copy(out, own)
	return out
}

// HeldTags splits the tags that the service holds into those Terraform manages (all, the
// resource's tags_all) and those an ignore rule leaves to other systems (ignored). A tag that the
// configuration sets (it is in managed: see ManagedLabels) is never ignored, so that a rule
// cannot hide a value the configuration asks for; a tag that it does not set is ignored when a
// rule matches it, whatever the state holds. A tag held more than once is one tag.
func HeldTags(held []string, rule IgnoreRule, managed []string) (all, ignored []string) {
	all, ignored = []string{}, []string{}
	for _, t := range held {
		if rule.Matches(t) && !slices.Contains(managed, t) {
			ignored = append(ignored, t)
			continue
		}
		all = append(all, t)
	}
	slices.Sort(all)
	slices.Sort(ignored)
	return slices.Compact(all), slices.Compact(ignored)
}

// HeldMetadata is HeldTags for metadata, by key.
func HeldMetadata(held map[string]string, rule IgnoreRule, managed []string) (all, ignored map[string]string) {
	all, ignored = map[string]string{}, map[string]string{}
	for k, v := range held {
		if rule.Matches(k) && !slices.Contains(managed, k) {
			ignored[k] = v
			continue
		}
		all[k] = v
	}
	return all, ignored
}

// OwnTags is the part of all (the tags Terraform manages on the service) that belongs to the
// resource's own tags rather than to the defaults: a tag the resource had (priorOwn), or one
// that neither a default nor an earlier default (priorAll) explains, which is then a change made
// outside Terraform and shows as drift of the resource's tags.
func OwnTags(all, priorOwn, priorAll, defaults []string) []string {
	own := []string{}
	for _, t := range all {
		if slices.Contains(priorOwn, t) || (!slices.Contains(defaults, t) && !slices.Contains(priorAll, t)) {
			own = append(own, t)
		}
	}
	return own
}

// OwnMetadata is OwnTags for metadata: a key the resource had keeps the service's value (so a
// change made outside Terraform shows as drift of the resource's metadata); a key that only a
// default or an earlier default explains belongs to metadata_all alone.
func OwnMetadata(all, priorOwn map[string]string, priorAllKeys []string, defaults map[string]string) map[string]string {
	own := map[string]string{}
	for k, v := range all {
		_, had := priorOwn[k]
		_, isDefault := defaults[k]
		if had || (!isDefault && !slices.Contains(priorAllKeys, k)) {
			own[k] = v
		}
	}
	return own
}

// HiddenDefaults are the defaults that rule would ignore: a rule may hide only what other
// systems set, never what the provider itself sends.
func HiddenDefaults(defaults []string, rule IgnoreRule) []string {
	var hidden []string
	for _, d := range defaults {
		if rule.Matches(d) {
			hidden = append(hidden, d)
		}
	}
	slices.Sort(hidden)
	return hidden
}
