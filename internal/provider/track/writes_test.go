package track_test

import (
	"github.com/videohost/terraform-provider-videohost/internal/acctest"
	"github.com/videohost/terraform-provider-videohost/internal/provider/track"
	"strings"
	"testing"
)

// TestOpenWebVTT: the apply uploads the file only if it is still the file the plan hashed.
func TestOpenWebVTT(t *testing.T) {
	content := acctest.WebVTT("Hello.")
	name := acctest.TempFile(t, t.TempDir(), "en.vtt", content)
	fh, src, sum, why := track.OpenWebVTT(t.Context(), name, acctest.Sha256Hex(content))
	if why != "" || src.Size != int64(len(content)) || sum != acctest.Sha256Hex(content) {
		t.Fatalf("the planned file: %+v, %q, %q", src, sum, why)
	}
	buf := make([]byte, src.Size)
	if _, err := src.Reader.ReadAt(buf, 0); err != nil || string(buf) != content {
		t.Errorf("the upload reads %q (%v)", buf, err)
	}
	fh.Close()
	if fh, _, sum, why := track.OpenWebVTT(t.Context(), name, ""); why != "" || sum != acctest.Sha256Hex(content) {
		t.Errorf("a file the plan could not hash (its path was unknown): %q, %q", sum, why)
	} else {
		fh.Close()
	}
	acctest.WriteFile(t, name, acctest.WebVTT("Changed since the plan."))
	if fh, _, _, why := track.OpenWebVTT(t.Context(), name, acctest.Sha256Hex(content)); fh != nil || !strings.Contains(why, "changed after the plan was made") {
		t.Errorf("a file changed after the plan: %q", why)
	}
}
