//go:build linux || darwin

package localfile

import (
	"fmt"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"testing"
)

// The peak memory of a plan's image checks, measured in a process of its own (the test binary
// run again), since a benchmark's process holds what the harness and earlier benchmarks left.

const (
	peakModeEnv = "LOCALFILE_IMAGE_PEAK_MODE" // "check" (ReadImage) or "decode" (image.Decode)
	peakDirEnv  = "LOCALFILE_IMAGE_PEAK_DIR"
	// decodeEnv also measures image.Decode, as the checks were made before, for comparison: it
	// takes well over a gigabyte, so it is not run unless asked for.
	decodeEnv = "VIDEOHOST_BENCH_IMAGE_DECODE"
)

// BenchmarkPlanImagesPeakMemory prints the peak resident memory of a process that checks ten
// PNGs as a plan of ten images does (each one, at once, by ReadImage with no trusted record): each
// file is 130 KB and declares 4096 × 4096 pixels of 16-bit RGBA, 128 MiB once decoded. With
// VIDEOHOST_BENCH_IMAGE_DECODE=1 it also prints the peak of decoding them whole.
func BenchmarkPlanImagesPeakMemory(b *testing.B) {
	dir := b.TempDir()
	data := pngSpec{w: 4096, h: 4096, depth: 16, ctype: 6}.bytes(b)
	for i := range 10 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("thumb-%d.png", i)), data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	modes := []string{"check"}
	if os.Getenv(decodeEnv) == "1" {
		modes = append(modes, "decode")
	}
	peaks := map[string]float64{}
	for b.Loop() {
		for _, mode := range modes {
			peaks[mode] = max(peaks[mode], peakMiB(b, mode, dir))
		}
	}
	for _, mode := range modes {
		b.ReportMetric(peaks[mode], mode+"-peak-MiB")
		fmt.Printf("plan of 10 PNGs of %d bytes, 4096 x 4096 16-bit RGBA: %s peak RSS %.0f MiB\n", len(data), mode, peaks[mode])
	}
}

// peakMiB runs the helper test in mode over the files of dir and returns its peak RSS.
func peakMiB(b *testing.B, mode, dir string) float64 {
	cmd := exec.CommandContext(b.Context(), os.Args[0], "-test.run=^TestImagePeakHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), peakModeEnv+"="+mode, peakDirEnv+"="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("the %s helper: %v\n%s", mode, err, out)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		b.Skip("no resource usage on this system")
	}
	if runtime.GOOS == "darwin" {
		return float64(ru.Maxrss) / (1 << 20) // bytes
	}
	return float64(ru.Maxrss) / (1 << 10) // KiB
}

// TestImagePeakHelper is the process that BenchmarkPlanImagesPeakMemory measures; it does
// nothing in a test run.
func TestImagePeakHelper(t *testing.T) {
	mode, dir := os.Getenv(peakModeEnv), os.Getenv(peakDirEnv)
	if mode == "" {
		t.Skip("run by BenchmarkPlanImagesPeakMemory")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.png"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no files in %s: %v", dir, err)
	}
	var wg sync.WaitGroup
	for _, name := range files {
		wg.Go(func() {
			if mode == "check" {
				if _, err := ReadImage(name, ImageLimits{}, Record{}); err != nil {
					t.Error(err)
				}
				return
			}
			f, err := os.Open(name)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			if _, _, err := image.Decode(f); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
}
