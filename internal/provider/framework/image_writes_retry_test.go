package framework_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/localfile"
	"github.com/videohost/terraform-provider-videohost/internal/provider/framework"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// pngOf is a 2 × 2 PNG of one colour.
func pngOf(t *testing.T, c color.Color) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for x := range 2 {
		for y := range 2 {
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestUploadImageRewrittenDuringRetry: a thumbnail whose upload is answered 500, and whose file
// is rewritten before the retry, is not sent as the planned image: the upload fails saying the
// file changed while it was sent, and the service never reads the new bytes whole. Without the
// planned SHA-256 handed to the client, the retry would send them and succeed.
func TestUploadImageRewrittenDuringRetry(t *testing.T) {
	planned, rewritten := pngOf(t, color.RGBA{R: 255, A: 255}), pngOf(t, color.RGBA{B: 255, A: 255})
	name := filepath.Join(t.TempDir(), "thumb.png")
	if err := os.WriteFile(name, planned, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(planned)
	var mu sync.Mutex
	var attempts int
	var receivedWhole [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mr, err := r.MultipartReader()
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var file []byte
		for part, err := mr.NextPart(); err == nil; part, err = mr.NextPart() {
			b, rerr := io.ReadAll(part)
			if rerr != nil {
				return // the client cut the body: nothing whole arrived
			}
			if part.FormName() == "file" {
				file = b
			}
		}
		mu.Lock()
		defer mu.Unlock()
		attempts++
		receivedWhole = append(receivedWhole, file)
		if attempts == 1 {
			// The first answer is a fault; the file changes while the client waits to retry.
			if err := os.WriteFile(name, rewritten, 0o600); err != nil {
				t.Error(err)
			}
			http.Error(w, `{"title":"fault"}`, http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"videoId":"vi1","title":"t"}`)
	}))
	defer srv.Close()
	c, err := videohost.New(videohost.Config{BaseURL: srv.URL, APIKey: "key", AuthScheme: "basic", HTTPClient: srv.Client(), Version: "test"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = framework.UploadImage(t.Context(), name, hex.EncodeToString(sum[:]), localfile.ImageLimits{MaxBytes: 8 << 20},
		func(ctx context.Context, src videohost.UploadSource) (videohost.Video, error) {
			return c.UploadVideoThumbnail(ctx, "vi1", src)
		})
	if err == nil || !strings.Contains(err.Error(), "changed while it was sent") {
		t.Fatalf("the upload of a file rewritten during the retry's wait: %v; want an error saying the file changed while it was sent", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, got := range receivedWhole {
		if bytes.Equal(got, rewritten) {
			t.Fatal("the service received the rewritten file whole, as if it were the planned one")
		}
	}
}
