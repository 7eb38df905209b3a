package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// config is what the BENCH_UPLOAD_* variables ask for, checked before anything is built.
type config struct {
	// sizes are the sources of the throughput and memory scenarios, in MiB: the first is
	// timed, the first and the last are measured for memory.
	sizes     []int
	resumeMiB int
	runs      int
	scenarios []string
	many      int
	manyMiB   int
	// chunkMiB is the size of curl's chunks, and of the provider's where a row sets them.
	chunkMiB int
	wanMiB   int
	wanRuns  int
	// inFlight is "default" (the provider chooses the chunks) or a count of chunks in flight.
	inFlight string
	// flights are the long path's counts of chunks in flight with chunks of chunkMiB, and chosen
	// its counts set alone, the provider choosing the chunk size for them; both sorted, unique.
	flights  []int
	chosen   []int
	limits   []string
	wanTwice bool
}

// Fixed shapes: the pacing, resume and faults scenarios check the limiter, the resume and the
// retries with 4 chunks in flight, so that a SIGINT lands between two waves of chunks.
const (
	fixedInFlight = "4"
	paceChunks    = 20
	paceLimit     = 5
	paceWindow    = 3 // seconds
	paceChunkMiB  = 5
	faultChunks   = 20
	faultChunkMiB = 5
	faultRate     = 0.2
)

// toxiproxyVersion is the Toxiproxy that the long path builds, as scripts/lib.sh's
// lib_toxiproxy_build does for the network soak: the two share the cache.
const toxiproxyVersion = "v2.5.0"

// allScenarios are the scenarios in the order they run, the default of BENCH_UPLOAD_SCENARIOS.
var allScenarios = []string{"throughput", "memory", "pacing", "resume", "faults", "many", "wan"}

// limitSets are the emulator's rate-limit flags of each limit set of the long path: none
// (1,000,000 a minute in every class), or the service's published limits.
var limitSets = map[string]struct {
	flags []string
	words string
}{
	"none":       {[]string{"-rate-limit-uploads", "1000000", "-rate-limit-writes", "1000000", "-rate-limit-reads", "1000000"}, "none (1,000,000 a minute)"},
	"production": {[]string{"-rate-limit-uploads", "100", "-rate-limit-writes", "200", "-rate-limit-reads", "500"}, "production (100 uploads a minute)"},
	"sandbox":    {[]string{"-rate-limit-uploads", "40", "-rate-limit-writes", "40", "-rate-limit-reads", "100"}, "sandbox (40 uploads a minute)"},
}

// loadConfig reads the BENCH_UPLOAD_* variables through lookup (os.LookupEnv). As in the shell
// script it replaces, an empty variable takes the default, except BENCH_UPLOAD_WAN_CHOSEN, where
// an empty value asks for no such row.
func loadConfig(lookup func(string) (string, bool)) (config, error) {
	get := func(name, def string) string {
		if v, ok := lookup("BENCH_UPLOAD_" + name); ok && v != "" {
			return v
		}
		return def
	}
	var c config
	var err error
	num := func(name, def string) int {
		if err != nil {
			return 0
		}
		var n int
		n, err = positive(name, get(name, def))
		return n
	}
	list := func(name, value string) []int {
		var out []int
		for _, w := range strings.Fields(value) {
			if err != nil {
				return nil
			}
			var n int
			n, err = positive(name, w)
			out = append(out, n)
		}
		return out
	}
	c.sizes = list("SIZES", get("SIZES", "1024 4096"))
	c.resumeMiB = num("RESUME_MIB", "512")
	c.runs = num("RUNS", "3")
	c.chunkMiB = num("CHUNK_MIB", "50")
	c.many = num("MANY", "20")
	c.manyMiB = num("MANY_MIB", "1024")
	c.wanMiB = num("WAN_MIB", "1024")
	c.wanRuns = num("WAN_RUNS", "1")
	c.flights = sortedUnique(list("WAN_FLIGHTS", get("WAN_FLIGHTS", "4 8 16")))
	chosen, ok := lookup("BENCH_UPLOAD_WAN_CHOSEN")
	if !ok {
		chosen = "8"
	}
	c.chosen = sortedUnique(list("WAN_CHOSEN", chosen))
	if err != nil {
		return c, err
	}
	c.inFlight = get("IN_FLIGHT", "default")
	c.limits = strings.Fields(get("WAN_LIMITS", "none production sandbox"))
	c.scenarios = strings.Fields(get("SCENARIOS", strings.Join(allScenarios, " ")))
	c.wanTwice = get("WAN_TWICE", "yes") == "yes"
	return c, c.check()
}

// check refuses what the provider would refuse, and a resume that cannot land between chunks.
func (c config) check() error {
	if len(c.sizes) == 0 {
		return fmt.Errorf("BENCH_UPLOAD_SIZES is empty: give one or two sizes in MiB")
	}
	if c.chunkMiB < 5 || c.chunkMiB > 200 {
		return fmt.Errorf("BENCH_UPLOAD_CHUNK_MIB=%d: the provider takes 5 to 200", c.chunkMiB)
	}
	inFlight := 1
	if c.inFlight != "default" {
		var err error
		if inFlight, err = positive("IN_FLIGHT", c.inFlight); err != nil {
			return fmt.Errorf("BENCH_UPLOAD_IN_FLIGHT: '%s' is neither default nor a positive whole number", c.inFlight)
		}
	}
	for _, n := range append(append([]int{inFlight}, c.flights...), c.chosen...) {
		if n > 16 {
			return fmt.Errorf("BENCH_UPLOAD_IN_FLIGHT, BENCH_UPLOAD_WAN_FLIGHTS or BENCH_UPLOAD_WAN_CHOSEN: %d chunks in flight: the provider takes 1 to 16", n)
		}
	}
	for _, l := range c.limits {
		if _, ok := limitSets[l]; !ok {
			return fmt.Errorf("BENCH_UPLOAD_WAN_LIMITS: '%s' is not one of none, production, sandbox", l)
		}
	}
	for _, s := range c.scenarios {
		if !slices.Contains(allScenarios, s) {
			return fmt.Errorf("BENCH_UPLOAD_SCENARIOS: '%s' is not one of %s", s, strings.Join(allScenarios, ", "))
		}
	}
	if c.resumeMiB <= 2*c.chunkMiB {
		return fmt.Errorf("BENCH_UPLOAD_RESUME_MIB=%d: the resume needs more than two chunks of %d MiB, so that a SIGINT can land between them", c.resumeMiB, c.chunkMiB)
	}
	return nil
}

// positive parses a positive whole number of the variable BENCH_UPLOAD_<name>.
func positive(name, v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 || strings.ContainsAny(v, "+-") {
		return 0, fmt.Errorf("BENCH_UPLOAD_%s: '%s' is not a positive whole number", name, v)
	}
	return n, nil
}

func sortedUnique(ns []int) []int {
	slices.Sort(ns)
	return slices.Compact(ns)
}

// want says whether BENCH_UPLOAD_SCENARIOS asks for a scenario.
func (c config) want(scenario string) bool { return slices.Contains(c.scenarios, scenario) }

// smallMiB and largeMiB are the first and the last size.
func (c config) smallMiB() int { return c.sizes[0] }
func (c config) largeMiB() int { return c.sizes[len(c.sizes)-1] }
