package main

import (
	"slices"
	"strings"
	"testing"
)

func lookupOf(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

func TestLoadConfigDefaults(t *testing.T) {
	c, err := loadConfig(lookupOf(nil))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.sizes, []int{1024, 4096}) || c.resumeMiB != 512 || c.runs != 3 || c.many != 20 || c.manyMiB != 1024 ||
		c.chunkMiB != 50 || c.wanMiB != 1024 || c.wanRuns != 1 || c.inFlight != "default" || !c.wanTwice {
		t.Errorf("defaults: %+v", c)
	}
	if !slices.Equal(c.flights, []int{4, 8, 16}) || !slices.Equal(c.chosen, []int{8}) ||
		!slices.Equal(c.limits, []string{"none", "production", "sandbox"}) || !slices.Equal(c.scenarios, allScenarios) {
		t.Errorf("default lists: %+v", c)
	}
	if c.smallMiB() != 1024 || c.largeMiB() != 4096 {
		t.Errorf("small %d, large %d", c.smallMiB(), c.largeMiB())
	}
}

func TestLoadConfigSettings(t *testing.T) {
	c, err := loadConfig(lookupOf(map[string]string{
		"BENCH_UPLOAD_SIZES": "64", "BENCH_UPLOAD_WAN_FLIGHTS": "16 4 4", "BENCH_UPLOAD_WAN_CHOSEN": "",
		"BENCH_UPLOAD_SCENARIOS": "pacing wan", "BENCH_UPLOAD_IN_FLIGHT": "8", "BENCH_UPLOAD_WAN_TWICE": "no",
		// Empty takes the default, as ${VAR:-default} did.
		"BENCH_UPLOAD_RUNS": "",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if c.smallMiB() != 64 || c.largeMiB() != 64 || c.runs != 3 || c.inFlight != "8" || c.wanTwice {
		t.Errorf("settings: %+v", c)
	}
	// Sorted and each once; an empty BENCH_UPLOAD_WAN_CHOSEN asks for no such row.
	if !slices.Equal(c.flights, []int{4, 16}) || len(c.chosen) != 0 {
		t.Errorf("flights %v, chosen %v", c.flights, c.chosen)
	}
	if !c.want("wan") || c.want("throughput") {
		t.Errorf("scenarios %v", c.scenarios)
	}
}

func TestLoadConfigRefusals(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"BENCH_UPLOAD_RUNS": "0"}, "BENCH_UPLOAD_RUNS: '0' is not a positive whole number"},
		{map[string]string{"BENCH_UPLOAD_SIZES": "64 big"}, "BENCH_UPLOAD_SIZES: 'big' is not a positive whole number"},
		{map[string]string{"BENCH_UPLOAD_SIZES": " "}, "BENCH_UPLOAD_SIZES is empty"},
		{map[string]string{"BENCH_UPLOAD_WAN_MIB": "-5"}, "BENCH_UPLOAD_WAN_MIB: '-5'"},
		{map[string]string{"BENCH_UPLOAD_CHUNK_MIB": "4"}, "the provider takes 5 to 200"},
		{map[string]string{"BENCH_UPLOAD_IN_FLIGHT": "many"}, "neither default nor a positive whole number"},
		{map[string]string{"BENCH_UPLOAD_WAN_CHOSEN": "17"}, "17 chunks in flight: the provider takes 1 to 16"},
		{map[string]string{"BENCH_UPLOAD_WAN_LIMITS": "none staging"}, "'staging' is not one of none, production, sandbox"},
		{map[string]string{"BENCH_UPLOAD_SCENARIOS": "throughput wna"}, "'wna' is not one of"},
		{map[string]string{"BENCH_UPLOAD_RESUME_MIB": "100"}, "the resume needs more than two chunks of 50 MiB"},
	} {
		_, err := loadConfig(lookupOf(tc.env))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.env, err, tc.want)
		}
	}
}
