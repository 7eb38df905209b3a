package main

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// unlimited is a rate limit no scenario reaches.
const unlimited = "100000000"

// bench holds what every scenario shares: the temporary directory, the processes started, the
// built binaries, the emulator of the scenario running now and the table.
type bench struct {
	cfg       config
	tmp       string
	ps        *processes
	terraform string
	key       string
	tab       table
	http      *http.Client

	// emu and emuURL are the emulator of the scenario running now; baseURL is where terraform
	// and curl send their requests (the emulator, or Toxiproxy in front of it).
	emu     *process
	emuURL  string
	baseURL string

	// fileSum is the SHA-256 of the last random file written.
	fileSum string
	// tfSeconds is the wall time of the last terraform command.
	tfSeconds float64
	toxiproxy string
	// interrupted is set on Ctrl-C or TERM, before the processes are stopped.
	interrupted atomic.Bool
}

// failure is a fatal error of the bench: fail panics with it and run recovers it, so that a
// step several calls deep stops the bench as the script's lib_fail did. Only the main goroutine
// calls fail.
type failure struct{ err error }

func fail(format string, args ...any) { panic(failure{fmt.Errorf(format, args...)}) }

// check fails on an error.
func check(err error) {
	if err != nil {
		panic(failure{err})
	}
}

func (b *bench) say(format string, args ...any) { fmt.Printf(format+"\n", args...) }

// setup builds the provider and the emulator, links the provider wrapper (this program) under
// the provider's name, and sets the environment every terraform run inherits.
func (b *bench) setup() {
	b.say("bench-upload: building the provider and the emulator")
	for _, d := range []string{"bin", "rssbin", "rss", "media"} {
		check(os.MkdirAll(filepath.Join(b.tmp, d), 0o700))
	}
	p, err := b.ps.start("build", nil, "go", "build", "-o", filepath.Join(b.tmp, "bin")+"/", ".", "./cmd/videohost-emulator")
	check(err)
	if b.ps.wait(p) != 0 {
		fail("go build failed: %s", b.tail("build.err"))
	}
	self, err := os.Executable()
	check(err)
	check(os.Symlink(self, filepath.Join(b.tmp, "rssbin", wrapperName)))
	tfrc := filepath.Join(b.tmp, "rssbin.tfrc")
	check(os.WriteFile(tfrc, []byte(devOverrides(filepath.Join(b.tmp, "rssbin"))), 0o600))
	for _, v := range []string{"VIDEOHOST_ENVIRONMENT", "TF_LOG", "TF_LOG_PROVIDER", "TF_LOG_PATH", "TF_DATA_DIR", "TF_WORKSPACE", "TF_CLI_ARGS",
		"TF_CLI_ARGS_plan", "TF_CLI_ARGS_apply", "TF_CLI_ARGS_destroy", "TF_CLI_ARGS_output",
		"VIDEOHOST_UPLOAD_CHUNK_SIZE_MIB", "VIDEOHOST_UPLOAD_CHUNKS_IN_FLIGHT"} {
		check(os.Unsetenv(v))
	}
	key := make([]byte, 12)
	_, _ = rand.Read(key)
	b.key = "bench_" + hex.EncodeToString(key)
	for k, v := range map[string]string{
		"TF_CLI_CONFIG_FILE": tfrc, "TF_IN_AUTOMATION": "1", "CHECKPOINT_DISABLE": "1",
		// The provider's records of the files' SHA-256 stay in the temporary directory, not the
		// user's cache, and start empty, as on a machine that never planned these files.
		"VIDEOHOST_FILE_HASH_CACHE_DIR": b.hashCache(),
		"VIDEOHOST_API_KEY":             b.key,
		wrapperProviderEnv:              filepath.Join(b.tmp, "bin", wrapperName),
		wrapperDirEnv:                   filepath.Join(b.tmp, "rss"),
	} {
		check(os.Setenv(k, v))
	}
}

func (b *bench) hashCache() string { return filepath.Join(b.tmp, "file-sha256") }

// machine describes the machine, Go and the CLI for the line above the table.
func (b *bench) machine() string {
	cpu := "unknown CPU"
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(info)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	gov, _ := exec.Command("go", "version").Output()
	tfv, _ := exec.Command(b.terraform, "version").Output()
	tfLine, _, _ := strings.Cut(string(tfv), "\n")
	return fmt.Sprintf("%s, %d cores; %s; %s", cpu, runtime.NumCPU(), strings.TrimPrefix(strings.TrimSpace(string(gov)), "go version "), tfLine)
}

// tail prints the last lines of a file of the temporary directory.
func (b *bench) tail(name string) string {
	data, _ := os.ReadFile(filepath.Join(b.tmp, name))
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-15):], "\n")
}

// ---- the emulator ---------------------------------------------------------------------------

// startEmulator starts an emulator on a free loopback port with its upload chunks under the
// temporary directory; terraform and curl are pointed at it.
func (b *bench) startEmulator(name string, flags ...string) {
	chunks := filepath.Join(b.tmp, "emu-chunks")
	check(os.MkdirAll(chunks, 0o700))
	argv := append([]string{filepath.Join(b.tmp, "bin", "videohost-emulator"), "-listen", "127.0.0.1:0", "-api-key", b.key,
		"-ingest-delay", "10ms", "-encoding-delay", "10ms"}, flags...)
	p, err := b.ps.start(name, []string{"TMPDIR=" + chunks}, argv...)
	check(err)
	b.emu = p
	b.emuURL = b.firstLine(name, p)
	if !strings.HasPrefix(b.emuURL, "http://127.0.0.1:") {
		fail("the emulator's first line is not its address: %s", b.emuURL)
	}
	b.waitHTTP(b.emuURL + "/_emulator/")
	b.pointAt(b.emuURL)
}

func (b *bench) unthrottled(name string) {
	b.startEmulator(name, "-rate-limit-uploads", unlimited, "-rate-limit-writes", unlimited, "-rate-limit-reads", unlimited)
}

// pointAt sends terraform's and curl's requests to url.
func (b *bench) pointAt(url string) {
	b.baseURL = url
	check(os.Setenv("VIDEOHOST_BASE_URL", url))
}

// stopEmulator stops the emulator and removes its chunks.
func (b *bench) stopEmulator() {
	b.ps.stop(b.emu)
	_ = os.RemoveAll(filepath.Join(b.tmp, "emu-chunks"))
}

// firstLine waits at most 15 s for the first complete line of a started process's stdout.
func (b *bench) firstLine(name string, p *process) string {
	for range 150 {
		data, _ := os.ReadFile(filepath.Join(b.tmp, name+".out"))
		if line, _, ok := strings.Cut(string(data), "\n"); ok && line != "" {
			return line
		}
		if !p.running() {
			fail("%s exited before printing its address: %s", name, b.tail(name+".err"))
		}
		time.Sleep(100 * time.Millisecond)
	}
	fail("%s printed no address within 15 s", name)
	return ""
}

// waitHTTP waits at most 5 s until a GET of url succeeds.
func (b *bench) waitHTTP(url string) {
	for range 50 {
		if resp, err := b.http.Get(url); err == nil {
			resp.Body.Close()
			if resp.StatusCode < 400 {
				return
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	fail("nothing answers at %s", url)
}

// get reads a path of the emulator itself (not through a proxy); with the key for the
// service's paths.
func (b *bench) get(path string, withKey bool) []byte {
	req, err := http.NewRequest(http.MethodGet, b.emuURL+path, nil)
	check(err)
	if withKey {
		req.SetBasicAuth(b.key, "")
	}
	resp, err := b.http.Do(req)
	if err != nil {
		fail("GET %s failed: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		fail("GET %s failed: %d %v", path, resp.StatusCode, err)
	}
	return body
}

func (b *bench) stats() emulatorStats {
	s, err := parseStats(b.get("/_emulator/stats", false))
	check(err)
	return s
}

func (b *bench) source(id string) videoSource {
	s, err := parseSource(b.get("/_emulator/videos/"+id+"/source", false))
	check(err)
	return s
}

func (b *bench) videosTotal() int {
	n, err := itemsTotal(b.get("/videos?pageSize=1", true))
	check(err)
	return n
}

// sourceSpan is the seconds from the first upload request's arrival at the emulator to the moment
// an upload's last chunk made the first video's source complete (hashed), and that moment: both
// from the emulator's own clock, read once the upload is over, so that nothing polls the
// emulator while it works (a poller every 50 ms took CPU from the upload).
func (b *bench) sourceSpan() (span float64, completeAt time.Time) {
	ids := b.stats().videoIDs()
	if len(ids) == 0 {
		fail("no video received source bytes")
	}
	at, err := b.source(ids[0]).completedAt()
	if err != nil {
		fail("the source of %s is not complete on the emulator: %v", ids[0], err)
	}
	first, err := b.stats().uploadsFirst()
	check(err)
	return at.Sub(first).Seconds(), at
}

// checkVideo counts the videos the service lists and says whether exactly one video received
// source bytes and holds the file's SHA-256.
func (b *bench) checkVideo() (count int, shaOK bool) {
	ids := b.stats().videoIDs()
	count = b.videosTotal()
	if len(ids) == 1 {
		s := b.source(ids[0])
		shaOK = s.Complete && s.sha256() == b.fileSum
	}
	return count, shaOK
}

// mustHoldOne fails unless the emulator holds one video with the file's SHA-256.
func (b *bench) mustHoldOne(what string) {
	if n, ok := b.checkVideo(); n != 1 || !ok {
		fail("%s: the emulator does not hold one video with the file's SHA-256", what)
	}
}

// ---- files ----------------------------------------------------------------------------------

// randomFile writes mib MiB of random bytes to path and notes their SHA-256; it returns once the
// file is older than the provider's 2 s racy window, as a user's file is.
func (b *bench) randomFile(path string, mib int) {
	f, err := os.Create(path)
	check(err)
	h := sha256.New()
	_, err = io.CopyN(io.MultiWriter(f, h), rand.Reader, mibBytes(mib))
	check(errors.Join(err, f.Close()))
	b.fileSum = hex.EncodeToString(h.Sum(nil))
	time.Sleep(2 * time.Second)
}

// ---- terraform ------------------------------------------------------------------------------

// tf runs "terraform -chdir=DIR ARGS[0] -input=false -no-color ARGS[1:]" (a saved plan's file
// must come last) with its output in <log>.log, after emptying the provider wrapper's records so
// that those read next are this run's. It notes the wall time and returns the exit status.
func (b *bench) tf(log, dir string, env []string, args ...string) int {
	old, _ := filepath.Glob(filepath.Join(b.tmp, "rss", "*"))
	for _, f := range old {
		_ = os.Remove(f)
	}
	argv := append([]string{b.terraform, "-chdir=" + dir, args[0], "-input=false", "-no-color"}, args[1:]...)
	t0 := time.Now()
	p, err := b.ps.start(log, env, argv...)
	check(err)
	rc := b.ps.wait(p)
	b.tfSeconds = time.Since(t0).Seconds()
	b.joinLog(log)
	return rc
}

// joinLog puts a process's stdout and stderr into <log>.log.
func (b *bench) joinLog(log string) {
	out, _ := os.ReadFile(filepath.Join(b.tmp, log+".out"))
	errs, _ := os.ReadFile(filepath.Join(b.tmp, log+".err"))
	_ = os.WriteFile(filepath.Join(b.tmp, log+".log"), append(out, errs...), 0o600)
	_ = os.Remove(filepath.Join(b.tmp, log+".out"))
	_ = os.Remove(filepath.Join(b.tmp, log+".err"))
}

// tfOK is tf, failing the bench when terraform fails.
func (b *bench) tfOK(log, dir string, env []string, args ...string) {
	if rc := b.tf(log, dir, env, args...); rc != 0 {
		fail("terraform %s failed (exit %d): see %s.log above", strings.Join(args, " "), rc, log)
	}
}

// providerRSS is the largest peak RSS, in MiB, of the provider processes of the last terraform
// run.
func (b *bench) providerRSS() int {
	files, _ := filepath.Glob(filepath.Join(b.tmp, "rss", "rss.*"))
	var most int64 = -1
	for _, f := range files {
		if v, ok := readNumber(f); ok {
			most = max(most, v)
		}
	}
	if most < 0 {
		fail("no peak RSS of the provider was recorded")
	}
	return int(float64(most)/1024 + 0.5)
}

// providerReads is the bytes read by the provider processes of the last terraform run, summed:
// each one's count at its end, or else (its wrapper was killed) the larger of the sampler's two
// files, the last whole count.
func (b *bench) providerReads() int64 {
	files, _ := filepath.Glob(filepath.Join(b.tmp, "rss", "io.*"))
	seen := map[string]bool{}
	var sum int64
	n := 0
	for _, f := range files {
		key := strings.TrimSuffix(f, filepath.Ext(f))
		if seen[key] {
			continue
		}
		seen[key] = true
		v, ok := readNumber(key + ".end")
		if !ok {
			v0, ok0 := readNumber(key + ".0")
			v1, ok1 := readNumber(key + ".1")
			v, ok = max(v0, v1), ok0 || ok1
		}
		if ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		fail("no read count of the provider was recorded")
	}
	return sum
}

func readNumber(path string) (int64, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return v, err == nil
}

// perByte is n over the file's size.
func perByte(n int64, size int64) float64 { return float64(n) / float64(size) }

// configuration writes into dir a configuration of one video of file (videoConfig).
func configuration(dir, file string, chunkMiB int, setting, title string) {
	writeConfig(dir, videoConfig(file, chunkMiB, setting, title))
}

func writeConfig(dir, tf string) {
	check(os.MkdirAll(dir, 0o700))
	check(os.WriteFile(filepath.Join(dir, "main.tf"), []byte(tf), 0o600))
}
