package provider_test

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	fwresource "github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// What the docs promise about a release and the schemas, kept true by tests: the version
// constraint that the compatibility policy recommends is the one every example uses, the
// rate-limit classes the provider's page names are the client's, and what the CHANGELOG says
// about an attribute's replacement is what its schema does.

// recommendedConstraint is the version constraint of CONTRIBUTING.md's compatibility policy:
// patch releases of the current minor version only. A two-part "~> 0.1" would admit every
// version below 1.0, minor releases that may remove what a configuration uses included.
const recommendedConstraint = "~> 0.1.0"

var (
	// providerSource matches the source of videohost/videohost in a required_providers entry,
	// with or without a registry host.
	providerSource = regexp.MustCompile(`source\s*=\s*"(?:[A-Za-z0-9.:-]+/)?videohost/videohost"`)
	// blockVersion is a version argument of a required_providers entry.
	blockVersion = regexp.MustCompile(`(?:^|[\s{,])version\s*=\s*"([^"]*)"`)
	// twoPartZero is a pessimistic constraint on two parts of a 0.x version ("~> 0.1"), which
	// admits every minor release below 1.0; followed by a third part it is the recommended form.
	twoPartZero = regexp.MustCompile(`~>\s*0\.[0-9]+(?:[^.0-9]|$)`)
)

// twoPartZeroAllowed are the places that name "~> 0.1" to say why it is not the constraint to use.
var twoPartZeroAllowed = map[string]string{
	"CONTRIBUTING.md": "`~> 0.1` is not the same",
}

// TestVersionConstraintsAreTheRecommendedOne: every version constraint on videohost/videohost in
// the files git tracks (examples, docs, templates, README, CONTRIBUTING, workflows, scripts and
// the tests' configurations) is the one the compatibility policy recommends, and no page
// advises a two-part "~> 0.N" constraint. CHANGELOG.md is history and left as it was written.
func TestVersionConstraintsAreTheRecommendedOne(t *testing.T) {
	root := acctest.RepoRoot(t)
	policy := acctest.ReadText(t, filepath.Join(root, "CONTRIBUTING.md"))
	if !strings.Contains(policy, "`version = \""+recommendedConstraint+"\"`") {
		t.Errorf("CONTRIBUTING.md's compatibility policy does not recommend version = %q", recommendedConstraint)
	}
	found := map[string]int{}
	for _, name := range trackedFiles(t, root) {
		if name == "CHANGELOG.md" || name == "internal/provider/release_docs_test.go" || name == "go.sum" {
			continue
		}
		b := []byte(acctest.ReadText(t, filepath.Join(root, name)))
		if bytes.IndexByte(b, 0) >= 0 {
			continue // a binary file (an image)
		}
		text := string(b)
		for _, loc := range providerSource.FindAllStringIndex(text, -1) {
			block := enclosingBlock(text, loc[0], loc[1])
			found[name]++
			for _, m := range blockVersion.FindAllStringSubmatch(block, -1) {
				// A test's configuration may name the constant itself.
				if m[1] != recommendedConstraint && m[1] != "` + recommendedConstraint + `" {
					t.Errorf("%s: videohost/videohost is required with version = %q, not the recommended %q:\n%s", name, m[1], recommendedConstraint, block)
				}
			}
		}
		for _, line := range strings.Split(text, "\n") {
			if twoPartZero.MatchString(line) && (twoPartZeroAllowed[name] == "" || !strings.Contains(line, twoPartZeroAllowed[name])) {
				t.Errorf("%s advises a two-part constraint, which admits every 0.x release; use %q:\n%s", name, recommendedConstraint, line)
			}
		}
	}
	// The scan must see the configurations users copy, or it proves nothing.
	for _, name := range []string{"README.md", "docs/index.md", "examples/provider/provider.tf", "examples/getting-started/main.tf"} {
		if found[name] == 0 {
			t.Errorf("%s requires videohost/videohost nowhere that the scan found", name)
		}
	}
}

// enclosingBlock is the text of the innermost { ... } around text[start:end]: a
// required_providers entry, whose version argument sits beside its source.
func enclosingBlock(text string, start, end int) string {
	open := strings.LastIndex(text[:start], "{")
	closing := strings.Index(text[end:], "}")
	if open < 0 || closing < 0 {
		return text[start:end]
	}
	return text[open : end+closing+1]
}

// TestRateLimitClassesDocumented: the provider's page names the client's rate-limit classes,
// all of them and no other, where it says the provider keeps one gate per class.
func TestRateLimitClassesDocumented(t *testing.T) {
	root := acctest.RepoRoot(t)
	for _, name := range []string{"docs/index.md", "templates/index.md.tmpl"} {
		page := acctest.ReadText(t, filepath.Join(root, name))
		const lead = "one gate per class ("
		i := strings.Index(page, lead)
		if i < 0 {
			t.Errorf("%s does not say %q followed by the classes", name, lead)
			continue
		}
		list, _, ok := strings.Cut(page[i+len(lead):], ")")
		if !ok {
			t.Errorf("%s: the list of classes after %q is not closed", name, lead)
			continue
		}
		var named []string
		for _, part := range regexp.MustCompile(`\s*(?:,|\band\b)\s*`).Split(strings.Join(strings.Fields(list), " "), -1) {
			if part != "" {
				named = append(named, part)
			}
		}
		want := videohost.RateLimitClasses()
		slices.Sort(named)
		slices.Sort(want)
		if !slices.Equal(named, want) {
			t.Errorf("%s names the rate-limit classes %q; the client has %q", name, named, want)
		}
	}
}

// replaceKind is what an attribute's plan modifiers do on a change.
type replaceKind int

const (
	inPlace    replaceKind = iota // no plan modifier replaces the resource
	replaces                      // RequiresReplace: every change replaces it
	replacesIf                    // a RequiresReplaceIf: some changes replace it (removal, say)
)

// requiresReplaceDescription is the framework's description of RequiresReplace, the modifier
// that replaces on every change.
const requiresReplaceDescription = "If the value of this attribute changes, Terraform will destroy and recreate the resource."

// attributeReplaceKinds reads the top-level attributes of a resource's schema and tells, for each,
// whether a change replaces the resource, from its plan modifiers' descriptions.
func attributeReplaceKinds(ctx context.Context, s schema.Schema) map[string]replaceKind {
	kinds := map[string]replaceKind{}
	for name, a := range s.Attributes {
		var descriptions []string
		switch a := a.(type) {
		case schema.StringAttribute:
			for _, m := range a.PlanModifiers {
				descriptions = append(descriptions, m.Description(ctx))
			}
		case schema.SetAttribute:
			for _, m := range a.PlanModifiers {
				descriptions = append(descriptions, m.Description(ctx))
			}
		case schema.ListAttribute:
			for _, m := range a.PlanModifiers {
				descriptions = append(descriptions, m.Description(ctx))
			}
		case schema.Int64Attribute:
			for _, m := range a.PlanModifiers {
				descriptions = append(descriptions, m.Description(ctx))
			}
		case schema.BoolAttribute:
			for _, m := range a.PlanModifiers {
				descriptions = append(descriptions, m.Description(ctx))
			}
		case schema.MapAttribute:
			for _, m := range a.PlanModifiers {
				descriptions = append(descriptions, m.Description(ctx))
			}
		}
		kind := inPlace
		for _, d := range descriptions {
			switch {
			case d == requiresReplaceDescription:
				kind = replaces
			case kind == inPlace && replaceWords.MatchString(d):
				kind = replacesIf
			}
		}
		kinds[name] = kind
	}
	return kinds
}

var (
	replaceWords = regexp.MustCompile(`(?i)replac|recreat`)
	inPlaceWords = regexp.MustCompile(`(?i)\bin place\b`)
	// backticked is a name in backticks: a resource type or an attribute.
	backticked = regexp.MustCompile("`([a-z0-9_]+)`")
	// clauseEnd splits a CHANGELOG entry into clauses: sentences, and the parts of a sentence
	// that a semicolon or a colon separates.
	clauseEnd = regexp.MustCompile(`[.;:] `)
	// connective is the text between two attributes of one claim ("`url` and `events` force
	// replacement").
	connective = regexp.MustCompile(`^[\s,]*(?:and|or)?[\s,]*$`)
)

// TestChangelogReplacementClaims: where a CHANGELOG entry says that an attribute of a resource
// the entry names is changed in place, or that changing it replaces the resource, the
// attribute's schema agrees: a claim of replacement needs a plan modifier that replaces, and a
// claim of a change in place, about an attribute whose plan modifiers replace the resource in
// some case, must say in which (it said removing a live stream's player_id "detaches the theme",
// where the schema replaces the stream). A claim is the text that follows the attribute's name
// in its clause up to the next attribute; a clause that says "in place" (", all changed in
// place") claims it of every attribute whose own text says nothing of a replacement.
func TestChangelogReplacementClaims(t *testing.T) {
	ctx := t.Context()
	root := acctest.RepoRoot(t)
	kinds := map[string]map[string]replaceKind{}
	for _, newR := range provider.New("test")().Resources(ctx) {
		r := newR()
		var meta fwresource.MetadataResponse
		r.Metadata(ctx, fwresource.MetadataRequest{ProviderTypeName: "videohost"}, &meta)
		var s fwresource.SchemaResponse
		r.Schema(ctx, fwresource.SchemaRequest{}, &s)
		kinds[meta.TypeName] = attributeReplaceKinds(ctx, s.Schema)
	}
	for typeName, p := range replacedByModifyPlan {
		source := acctest.ReadText(t, filepath.Join(root, filepath.FromSlash(p.file)))
		for _, attr := range p.attrs {
			// The path joins resp.RequiresReplace, directly or through a list of replacements.
			joins := regexp.MustCompile(`append\((resp\.RequiresReplace|replace), path\.Root\("` + attr + `"\)\)`)
			if !joins.MatchString(source) {
				t.Errorf("%s no longer replaces %s when %s changes: update replacedByModifyPlan", p.file, typeName, attr)
				continue
			}
			kinds[typeName][attr] = replacesIf
		}
	}
	checked := 0
	for _, entry := range strings.Split(acctest.ReadText(t, filepath.Join(root, "CHANGELOG.md")), "\n") {
		var resources []string
		for _, m := range backticked.FindAllStringSubmatch(entry, -1) {
			if _, ok := kinds[m[1]]; ok && !slices.Contains(resources, m[1]) {
				resources = append(resources, m[1])
			}
		}
		if len(resources) == 0 {
			continue
		}
		for _, clause := range clauseEnd.Split(entry, -1) {
			checked += checkClause(t, clause, resources, kinds)
		}
	}
	if checked == 0 {
		t.Fatal("no CHANGELOG entry claims a replacement or a change in place of a resource's attribute: the test reads nothing")
	}
	t.Logf("%d claims of the CHANGELOG about a resource's attribute checked against its schema", checked)
}

// replacedByModifyPlan are the attributes whose change a resource's ModifyPlan, not a plan
// modifier of the schema, turns into a replacement (resp.RequiresReplace), with the file that
// does it: the schema alone does not show them.
var replacedByModifyPlan = map[string]struct {
	attrs []string
	file  string
}{
	"videohost_watermark": {attrs: []string{"source_sha256"}, file: "internal/provider/watermark/plan.go"},
	"videohost_video": {attrs: []string{"source_file", "source_url", "source_video_id", "source_sha256", "clip", "watermark"},
		file: "internal/provider/video/plan.go"},
}

// claim is what a clause says of one attribute: the attribute and the text that follows it.
type claim struct {
	attr, text string
}

// checkClause checks the claims of one clause about the attributes of the entry's resources and
// returns how many it checked.
func checkClause(t *testing.T, clause string, resources []string, kinds map[string]map[string]replaceKind) int {
	t.Helper()
	var claims []claim
	locs := backticked.FindAllStringSubmatchIndex(clause, -1)
	for i, loc := range locs {
		name := clause[loc[2]:loc[3]]
		if !slices.ContainsFunc(resources, func(r string) bool { _, ok := kinds[r][name]; return ok }) {
			continue
		}
		end := len(clause)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		claims = append(claims, claim{attr: name, text: clause[loc[1]:end]})
	}
	// "`url` and `events` force replacement": the first name takes the claim of the next.
	for i := len(claims) - 2; i >= 0; i-- {
		if connective.MatchString(claims[i].text) {
			claims[i].text = claims[i+1].text
		}
	}
	clauseInPlace := inPlaceWords.MatchString(clause)
	n := 0
	for _, c := range claims {
		saysReplace := replaceWords.MatchString(c.text)
		saysInPlace := !saysReplace && (inPlaceWords.MatchString(c.text) || clauseInPlace)
		for _, r := range resources {
			kind, ok := kinds[r][c.attr]
			if !ok {
				continue
			}
			switch {
			case saysReplace && kind == inPlace:
				n++
				t.Errorf("the CHANGELOG says a change of %s's %s replaces it, but no plan modifier of its schema replaces it:\n%s", r, c.attr, clause)
			case saysInPlace && kind == replaces:
				n++
				t.Errorf("the CHANGELOG says %s's %s is changed in place, but its schema requires a replacement on every change:\n%s", r, c.attr, clause)
			case saysInPlace && kind == replacesIf:
				n++
				t.Errorf("the CHANGELOG says %s's %s is changed in place, but its schema replaces the resource in some cases, which it must say:\n%s", r, c.attr, clause)
			case saysReplace || saysInPlace:
				n++
			}
		}
	}
	return n
}
