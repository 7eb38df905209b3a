package acctest

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	tfjson "github.com/hashicorp/terraform-json"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// RequireSameObject fails when the hand-built element of a list differs from the framework's
// reflection of the same model: a field added to a model or a schema and forgotten in its
// object() fails here.
func RequireSameObject(t *testing.T, elem types.ObjectType, model any, got types.Object, diags diag.Diagnostics) {
	t.Helper()
	if diags.HasError() {
		t.Fatalf("object: %v", diags)
	}
	want, diags := types.ObjectValueFrom(t.Context(), elem.AttrTypes, model)
	if diags.HasError() {
		t.Fatalf("reflection: %v", diags)
	}
	if !got.Equal(want) {
		t.Fatalf("object() differs from reflection:\n got  %s\n want %s", got, want)
	}
}

func TestProviderData() *framework.ProviderData {
	return &framework.ProviderData{Environment: videohost.EnvironmentProduction, BaseURL: "https://api.example.test"}
}

// RequireContains stops the test when s lacks one of wants.
func RequireContains(t *testing.T, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Fatalf("%q\ndoes not contain %q", s, w)
		}
	}
}

// WrappedPhrases matches the phrases in this order in Terraform's output, which wraps long
// lines: a space of a phrase matches any run of white space.
func WrappedPhrases(phrases ...string) *regexp.Regexp {
	parts := make([]string, len(phrases))
	for i, p := range phrases {
		words := strings.Fields(p)
		for j, w := range words {
			words[j] = regexp.QuoteMeta(w)
		}
		parts[i] = strings.Join(words, `\s+`)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// ListedAsRead checks that the list data source at listAddr holds, in its attribute items, an
// element equal to what the data source at oneAddr read by id: found among the other objects
// of a shared workspace by its id.
func ListedAsRead(listAddr, items, oneAddr string) statecheck.StateCheck {
	return StateCheckFunc(func(s *tfjson.State) error {
		all, err := StateAttributes(s, listAddr)
		if err != nil {
			return err
		}
		one, err := StateAttributes(s, oneAddr)
		if err != nil {
			return err
		}
		list, _ := all[items].([]any)
		for _, item := range list {
			if m, _ := item.(map[string]any); m["id"] == one["id"] {
				if !reflect.DeepEqual(m, one) {
					return fmt.Errorf("%s read by id %v differs from its item of %s: %v", oneAddr, one, listAddr, m)
				}
				return nil
			}
		}
		return fmt.Errorf("%s does not list %v among its %d %s", listAddr, one["id"], len(list), items)
	})
}

func ReadText(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// ThumbnailVersionRe matches the address of the version'th thumbnail the emulator was given.
func ThumbnailVersionRe(version int) *regexp.Regexp {
	return regexp.MustCompile(fmt.Sprintf(`/thumbnail\.jpg\?v=%d(&|$)`, version))
}

func Str(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

func ImportBlock(id string) string {
	return fmt.Sprintf("import {\n  to = videohost_webhook.test\n  id = %s\n}\n", id) + OkWebhook
}

// PagesFor is the number of pages of n items at the largest page size.
func PagesFor(n int) int { return (n + 99) / 100 }

// ReadsDuring counts the GET requests that reach the emulator while f runs: lists, the reads of
// path itself (a page of the list), and singles, the reads of one object under path + "/".
func ReadsDuring(emu *emulator.Emulator, path string, f func()) (lists, singles int) {
	count := func() (int, int) {
		all, one := emu.RequestCount(http.MethodGet, path), emu.RequestCount(http.MethodGet, path+"/")
		return all - one, one
	}
	l0, s0 := count()
	f()
	l1, s1 := count()
	return l1 - l0, s1 - s0
}

func Ptr[T any](v T) *T { return &v }

// RepoRoot is the checkout's root, the nearest directory above the test's own that holds
// go.mod: a test reads the docs and examples from there whatever its package's depth.
func RepoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}
