package main

import (
	"fmt"
	"strconv"
	"strings"
)

// row is one line of the markdown table: the scenario (empty on a scenario's later rows), what
// is measured, the figure, the goal and whether it was met.
type row struct{ scenario, measure, figure, goal, met string }

// table gathers the rows, and the measures of the rows that must hold: a must that failed makes
// the exit status non-zero.
type table struct {
	rows       []row
	mustFailed []string
}

func (t *table) add(scenario, measure, figure, goal, met string) {
	t.rows = append(t.rows, row{scenario, measure, figure, goal, met})
}

// must adds a row whose goal must be met: "yes" when ok, else a bold NO, noted for the exit
// status.
func (t *table) must(scenario, measure, figure, goal string, ok bool) {
	met := "yes"
	if !ok {
		met = "**NO**"
		t.mustFailed = append(t.mustFailed, measure)
	}
	t.add(scenario, measure, figure, goal, met)
}

// markdown prints the table with its header row and rule.
func (t *table) markdown() string {
	var b strings.Builder
	line := func(cells ...string) { fmt.Fprintf(&b, "| %s |\n", strings.Join(cells, " | ")) }
	line("scenario", "measure", "figure", "goal", "met?")
	b.WriteString("|---|---|---|---|---|\n")
	for _, r := range t.rows {
		line(r.scenario, r.measure, r.figure, r.goal, r.met)
	}
	return b.String()
}

// yesNo is the "met?" column of a goal.
func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

func metLE(v, goal float64) string { return yesNo(v <= goal) }
func metGE(v, goal float64) string { return yesNo(v >= goal) }

// f1, f2 and f0 print a figure with one, two or no decimals.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
func f2(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
func f0(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }

// round2 is v as printed with two decimals, for a goal compared with the figure printed.
func round2(v float64) float64 {
	r, _ := strconv.ParseFloat(f2(v), 64)
	return r
}

// short prints a number as awk's %s does (six significant digits): 20, 0.2, 12.5.
func short(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// mibBytes is n MiB in bytes.
func mibBytes(n int) int64 { return int64(n) << 20 }

// shapeWords says how a row's chunks are set: the provider's choice, N in flight × C MiB, or N in
// flight with the provider's chunk size ("Nc").
func shapeWords(chunkMiB int, setting string) string {
	switch {
	case setting == "default":
		return "the provider's choice"
	case strings.HasSuffix(setting, "c"):
		return strings.TrimSuffix(setting, "c") + " in flight, the provider's chunk size"
	default:
		return fmt.Sprintf("%s in flight × %d MiB", setting, chunkMiB)
	}
}

// wanGoal is the goal of a long-path row of curl / apply. The goals are those of 1 GiB, where the
// last round of chunks and the plan's hash weigh as they do for the sources people upload; a
// smaller run only prints its figures.
func wanGoal(wanMiB int, limit, setting string) (goal string, least float64) {
	if wanMiB < 1024 {
		return "—", 0
	}
	switch {
	case setting == "4":
		return "≥ 3.2", 3.2
	case setting == "8" || setting == "8c":
		return "≥ 5.5", 5.5
	case limit == "sandbox" && setting == "default":
		return "≥ 5.0", 5.0
	case limit == "production" && setting == "default":
		return "≥ 6.0", 6.0
	}
	return "—", 0
}
