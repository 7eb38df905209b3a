package main

import (
	"testing"
)

func TestMedian(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
		{[]float64{10, 2}, 6},
		{nil, 0},
	} {
		in := append([]float64(nil), tc.in...)
		if got := median(tc.in); got != tc.want {
			t.Errorf("median(%v) = %v, want %v", tc.in, got, tc.want)
		}
		for i := range in {
			if in[i] != tc.in[i] {
				t.Errorf("median sorted its argument: %v", tc.in)
			}
		}
	}
}

func TestTableMarkdown(t *testing.T) {
	var tab table
	tab.add("throughput, 64 MiB, unthrottled", "provider / curl throughput", f2(0.874), "≥ 0.8", metGE(0.874, 0.8))
	tab.must("", "apply exit status", "1", "0", false)
	tab.must("", "videos / emulator's SHA-256 = the file's", "1 / yes", "1 / yes", true)
	want := "| scenario | measure | figure | goal | met? |\n" +
		"|---|---|---|---|---|\n" +
		"| throughput, 64 MiB, unthrottled | provider / curl throughput | 0.87 | ≥ 0.8 | yes |\n" +
		"|  | apply exit status | 1 | 0 | **NO** |\n" +
		"|  | videos / emulator's SHA-256 = the file's | 1 / yes | 1 / yes | yes |\n"
	if got := tab.markdown(); got != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, want)
	}
	if len(tab.mustFailed) != 1 || tab.mustFailed[0] != "apply exit status" {
		t.Errorf("musts failed: %v", tab.mustFailed)
	}
}

func TestFigures(t *testing.T) {
	for got, want := range map[string]string{
		f1(0.46): "0.5", f2(2.005): "2.00", f0(137.6): "138", short(100 * 0.2): "20", short(0.2): "0.2",
		metLE(3, 3): "yes", metLE(3.01, 3): "no", metGE(0.79, 0.8): "no",
		shapeWords(50, "default"): "the provider's choice", shapeWords(50, "4"): "4 in flight × 50 MiB",
		shapeWords(50, "8c"): "8 in flight, the provider's chunk size",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	// The reads' goal is met by the figure as printed, 3.00 for 3.004.
	if metLE(round2(3.004), 3.0) != "yes" || metLE(round2(3.006), 3.0) != "no" {
		t.Error("round2 does not compare the printed figure")
	}
}

func TestWANGoals(t *testing.T) {
	for _, tc := range []struct {
		mib            int
		limit, setting string
		goal           string
	}{
		{1024, "none", "4", "≥ 3.2"},
		{1024, "sandbox", "8", "≥ 5.5"},
		{1024, "production", "8c", "≥ 5.5"},
		{1024, "sandbox", "default", "≥ 5.0"},
		{1024, "production", "default", "≥ 6.0"},
		{1024, "none", "default", "—"},
		{1024, "none", "16", "—"},
		// A smaller run only prints its figures.
		{256, "none", "4", "—"},
	} {
		if got, _ := wanGoal(tc.mib, tc.limit, tc.setting); got != tc.goal {
			t.Errorf("wanGoal(%d, %s, %s) = %s, want %s", tc.mib, tc.limit, tc.setting, got, tc.goal)
		}
	}
}
