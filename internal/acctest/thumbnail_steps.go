package acctest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// ThumbnailKind is what the thumbnail lifecycle steps need to know of a kind whose resource
// takes a thumbnail_file (a video, a live stream): where it is, how the service shows and sets
// its thumbnail, and what removing the attribute does.
type ThumbnailKind[T any] struct {
	// Addr is the resource's address in Config.
	Addr string
	// Config is the configuration with attrs (HCL lines, "" for none) in the resource's body.
	Config func(attrs string) string
	// Get reads the object from the service; Upload sets its thumbnail, as the dashboard would.
	Get    func(context.Context, string) (T, error)
	Upload func(context.Context, string, videohost.UploadSource) (T, error)
	// Thumbnail is the address of the thumbnail the service shows for the object.
	Thumbnail func(T) string
	// KeptOnRemoval says what removing thumbnail_file does: true when the last image stays
	// (the service cannot delete it), false when it is deleted and the service's own returns.
	KeptOnRemoval bool
}

// ThumbnailSteps are the steps every kind with a thumbnail_file goes through, in this order:
// Upload (the file is uploaded at creation), Rewritten (another image at the same path is
// uploaded in place), SetOutside (an image set outside Terraform is replaced by the file again)
// and Removed (thumbnail_file removed). A test puts its kind's own steps between them. ID holds
// the object's id from the first step on; File is the image's path, Attr its HCL line.
type ThumbnailSteps struct {
	Upload, Rewritten, SetOutside, Removed resource.TestStep
	ID                                     *string
	File, Attr                             string
}

// ThumbnailLifecycle builds the thumbnail steps of kind k. The service numbers the
// uploads of an object's thumbnail (?v=n in its address): the file is upload 1, the rewritten
// file 2, the image set outside 3, and the file uploaded again over it 4.
func ThumbnailLifecycle[T any](t *testing.T, k ThumbnailKind[T]) ThumbnailSteps {
	t.Helper()
	dir := t.TempDir()
	file := WritePNG(t, dir, "thumb.png", 64, 36, 1)
	s := ThumbnailSteps{ID: new(string), File: file, Attr: "thumbnail_file = " + Hcl(file)}
	is := func(version int) statecheck.StateCheck { return thumbnailIs(k, s.ID, version) }
	update := []plancheck.PlanCheck{plancheck.ExpectResourceAction(k.Addr, plancheck.ResourceActionUpdate)}
	s.Upload = resource.TestStep{
		Config: k.Config(s.Attr),
		ConfigPlanChecks: resource.ConfigPlanChecks{
			PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(k.Addr, tfjsonpath.New("thumbnail_sha256"), knownvalue.StringExact(FileSHA256(t, file))),
			},
			PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
		},
		ConfigStateChecks: []statecheck.StateCheck{IdOf(k.Addr, s.ID), is(1)},
	}
	s.Rewritten = resource.TestStep{
		PreConfig:        func() { WritePNG(t, dir, "thumb.png", 64, 36, 2) },
		Config:           k.Config(s.Attr),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: update},
		ConfigStateChecks: []statecheck.StateCheck{
			is(2),
			statecheck.ExpectKnownValue(k.Addr, tfjsonpath.New("assets").AtMapKey("thumbnail"), knownvalue.StringRegexp(ThumbnailVersionRe(2))),
		},
	}
	s.SetOutside = resource.TestStep{
		PreConfig:         func() { uploadThumbnailOutside(t, k.Upload, *s.ID) },
		Config:            k.Config(s.Attr),
		ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: update},
		ConfigStateChecks: []statecheck.StateCheck{is(4)},
	}
	last := 0
	if k.KeptOnRemoval {
		last = 4
	}
	s.Removed = resource.TestStep{
		Config:           k.Config(""),
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: update, PostApplyPostRefresh: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		ConfigStateChecks: []statecheck.StateCheck{
			is(last),
			statecheck.ExpectKnownValue(k.Addr, tfjsonpath.New("thumbnail_sha256"), knownvalue.Null()),
		},
	}
	return s
}

// thumbnailIs checks that the service's thumbnail of the object is its version'th upload, or
// the service's own image (no version) for 0.
func thumbnailIs[T any](k ThumbnailKind[T], id *string, version int) statecheck.StateCheck {
	return OnService(k.Get, id, func(v T) error {
		got := k.Thumbnail(v)
		ok := ThumbnailVersionRe(version).MatchString(got)
		if version == 0 {
			ok = strings.HasSuffix(got, "/thumbnail.jpg")
		}
		if !ok {
			return fmt.Errorf("the service's thumbnail of %s is %q, want upload %d", *id, got, version)
		}
		return nil
	})
}

// uploadThumbnailOutside uploads a new image as the thumbnail of object id through upload.
func uploadThumbnailOutside[T any](t *testing.T, upload func(context.Context, string, videohost.UploadSource) (T, error), id string) {
	t.Helper()
	other := WriteJPEG(t, t.TempDir(), "other.jpg", 8, 8, 7)
	f, err := os.Open(other)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := upload(t.Context(), id, videohost.UploadSource{Name: "other.jpg", Reader: f, Size: st.Size()}); err != nil {
		t.Fatal(err)
	}
}
