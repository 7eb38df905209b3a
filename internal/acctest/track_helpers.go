package acctest

// Helpers of the caption and chapter tests: an emulator behind a recorder of the files that
// reach it (the emulator keeps a version of each file, not its content, and the tests check
// that the service received the new content), test videos and WebVTT files.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/videohost/terraform-provider-videohost/internal/emulator"
	"github.com/videohost/terraform-provider-videohost/internal/videohost"
)

// trackUploads records the content of the last caption, chapter or logo file that the emulator
// took for each path (/videos/{id}/captions/{language}, /players/{id}/logo).
type trackUploads struct {
	mu   sync.Mutex
	last map[string][]byte
}

// Content is the file last taken at path, "" when none was.
func (u *trackUploads) Content(path string) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return string(u.last[path])
}

// NewTrackEnv is newAccEnv with the service (the emulator, or the proxy to a real endpoint)
// behind a trackUploads.
func NewTrackEnv(t *testing.T) (*AccEnv, *trackUploads) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance tests run only with TF_ACC=1")
	}
	Parallel(t)
	rec := &trackUploads{last: map[string][]byte{}}
	if os.Getenv("VIDEOHOST_EMULATOR") == "0" {
		env := remoteAccEnv(t, rec.wrap)
		watchDeadline(t, env.remote.inFlight.String)
		return env, rec
	}
	watchDeadline(t, func() string { return "terraform or the test itself (the service is in-process)" })
	emu, baseURL := ServeEmulator(t, emulator.Options{}, func(emu *emulator.Emulator) http.Handler { return rec.wrap(emu) })
	return &AccEnv{BaseURL: baseURL, APIKey: emu.APIKeys()[0], Emu: emu, test: t.Name()}, rec
}

// wrap records the files that next (the service) took.
func (u *trackUploads) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		isFile := r.Method == http.MethodPost && (strings.Contains(r.URL.Path, "/captions/") ||
			strings.Contains(r.URL.Path, "/chapters/") || strings.HasSuffix(r.URL.Path, "/logo"))
		if !isFile {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		if sw.status/100 != 2 {
			return
		}
		if file, ok := multipartFile(r.Header.Get("Content-Type"), body); ok {
			u.mu.Lock()
			u.last[r.URL.Path] = file
			u.mu.Unlock()
		}
	})
}

// multipartFile is the content of the file part of a multipart body.
func multipartFile(contentType string, body []byte) ([]byte, bool) {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		return nil, false
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			return nil, false
		}
		if p.FileName() != "" || p.FormName() == "file" {
			b, err := io.ReadAll(p)
			return b, err == nil
		}
	}
}

// NewTestVideo creates the video whose captions or chapters a test manages, outside Terraform,
// and returns its id; it is deleted when the test ends. Its title carries the run's prefix and
// the test's name (RunName: the env of NewTrackEnv does not know the test's name, so env.Name
// would leave it out), so that a run's ledger and make sweep find it.
func NewTestVideo(t *testing.T, env *AccEnv) string {
	t.Helper()
	return CreateVideoOutside(t, env, videohost.VideoCreate{Title: RunName(t, "captioned")})
}

// WebVTT is a small WebVTT file with one cue of text.
func WebVTT(text string) string {
	return "WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n" + text + "\n"
}

// Sha256Hex is the lowercase hex SHA-256 of s.
func Sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TrackConfig is a caption (kind "caption") or chapter resource named test, with extra lines.
func TrackConfig(env *AccEnv, kind, videoID, language, file string, extra ...string) string {
	return env.ProviderConfig("") + fmt.Sprintf(`
resource "videohost_video_%s" "test" {
  video_id    = %q
  language    = %q
  source_file = %q
%s}
`, kind, videoID, language, file, HclAttrs(extra...))
}

// TrackPath is the service's path of a video's caption or chapter file (kind "captions" or
// "chapters") of language.
func TrackPath(videoID, kind, language string) string {
	return "/videos/" + videoID + "/" + kind + "/" + language
}

// HoldsUpload is a service check that the service took want as the file at path, and that n
// uploads reached it.
func HoldsUpload(env *AccEnv, rec *trackUploads, path, want string, n int) ServiceCheckFunc {
	return func(context.Context) error {
		if got := rec.Content(path); got != want {
			return fmt.Errorf("the service holds %q at %s, want %q", got, path, want)
		}
		if got := env.RequestCount(http.MethodPost, path); got != n {
			return fmt.Errorf("%d uploads reached %s, want %d", got, path, n)
		}
		return nil
	}
}

// OnAttribute matches a diagnostic that Terraform shows on attribute name of resource addr
// (its "with" and "on ... line" lines and the quoted line of the configuration), then text,
// whose words Terraform may wrap.
func OnAttribute(summary, addr, name, text string) *regexp.Regexp {
	typ, res, _ := strings.Cut(addr, ".")
	words := func(s string) string {
		f := strings.Fields(s)
		for i := range f {
			f[i] = regexp.QuoteMeta(f[i])
		}
		return strings.Join(f, `\s+`)
	}
	return regexp.MustCompile(fmt.Sprintf(`(?s)Error: %s\s+with %s,\s+on \S+ line \d+, in resource "%s" "%s":\s+\d+:\s+%s\s+=.*%s`,
		words(summary), regexp.QuoteMeta(addr), typ, res, name, words(text)))
}

// TempFile writes content to name in dir and returns its path.
func TempFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	WriteFile(t, p, content)
	return p
}
