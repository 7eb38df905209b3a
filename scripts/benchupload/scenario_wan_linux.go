package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// wanFigures gathers the long path's figures over its runs, each list keyed by "limit/setting":
// the apply's whole wall, its upload's span and its floor; the shape the provider took; the span
// of curl sending each shape ("n/mib"); the two applies in a row, by setting; curl's sequential
// upload; and the provider's largest peak RSS.
type wanFigures struct {
	file     string
	size     int64
	settings []string

	applies, spans, floors map[string][]float64
	shapes, rowShape       map[string]string
	curlShape              map[string][]float64
	curlShapeSeen          map[string]bool
	twiceFirst             map[string][]float64
	twiceSecond            map[string][]float64
	curls                  []float64
	rss                    int
}

// wanPair is a fresh emulator under a limit set and a fresh Toxiproxy in front of it.
func (b *bench) wanPair(name, limit string) *process {
	b.startEmulator(name, limitSets[limit].flags...)
	return b.startProxy()
}

func (b *bench) wanUnpair(proxy *process) {
	b.ps.stop(proxy)
	b.stopEmulator()
}

// wanApply runs terraform apply in dir with the provider's debug log, the file planned as new,
// and reads from the log the shape the upload took and how often the rate limiter held a call.
func (b *bench) wanApply(name, dir string) uploadShape {
	_ = os.RemoveAll(b.hashCache())
	logPath := filepath.Join(b.tmp, name+".tflog")
	b.tfOK(name, dir, []string{"TF_LOG_PROVIDER=DEBUG", "TF_LOG_PATH=" + logPath}, "apply", "-auto-approve")
	data, err := os.ReadFile(logPath)
	check(err)
	_ = os.Remove(logPath)
	s, err := parseUploadLog(string(data))
	if err != nil {
		fail("%s: %v", name, err)
	}
	return s
}

// wan runs the long path: each setting under each limit set, each transfer in a fresh emulator
// and proxy, against curl's sequential chunks through the same model, beside the floor and the
// model's ceiling for the row's shape; then two uploads in a row through one pair.
func (b *bench) wan() {
	c := b.cfg
	w := &wanFigures{settings: []string{"default"},
		applies: map[string][]float64{}, spans: map[string][]float64{}, floors: map[string][]float64{},
		shapes: map[string]string{}, rowShape: map[string]string{}, curlShape: map[string][]float64{},
		curlShapeSeen: map[string]bool{}, twiceFirst: map[string][]float64{}, twiceSecond: map[string][]float64{}}
	for _, n := range c.flights {
		w.settings = append(w.settings, strconv.Itoa(n))
	}
	for _, n := range c.chosen {
		w.settings = append(w.settings, strconv.Itoa(n)+"c")
	}
	b.say("bench-upload: wan: %d MiB through Toxiproxy (25 ms and 100 Mbit/s each way per connection), limits: %s; settings: %s; %d run(s)",
		c.wanMiB, strings.Join(c.limits, " "), strings.Join(w.settings, " "), c.wanRuns)
	b.buildToxiproxy()
	w.file = filepath.Join(b.tmp, "media", "wan.bin")
	b.randomFile(w.file, c.wanMiB)
	w.size = mibBytes(c.wanMiB)
	for r := 1; r <= c.wanRuns; r++ {
		proxy := b.wanPair(fmt.Sprintf("emu-wan-c%d", r), "none")
		run := b.curlUpload(w.file, w.size, mibBytes(c.chunkMiB))
		w.curls = append(w.curls, run.whole)
		b.wanUnpair(proxy)
		b.say("  run %d: curl %s s", r, f1(run.whole))
		for _, l := range c.limits {
			line := "    " + l + ":"
			for _, n := range w.settings {
				line += b.wanTransfer(w, l, n, r)
			}
			b.say("%s", line)
		}
		if c.wanTwice {
			b.wanTwice(w, r)
		}
	}
	_ = os.Remove(w.file)
	b.wanRows(w)
}

// wanTransfer is one apply of the long path under limit l with setting n, in run r, and curl
// sending the shape the provider took (once a run per shape). It returns its words for the
// run's line.
func (b *bench) wanTransfer(w *wanFigures, l, n string, r int) string {
	c := b.cfg
	key := l + "/" + n
	proxy := b.wanPair(fmt.Sprintf("emu-wan-%s-%s-%d", l, n, r), l)
	dir := filepath.Join(b.tmp, "wan")
	configuration(dir, w.file, c.chunkMiB, n, "bench-upload")
	shape := b.wanApply(fmt.Sprintf("apply-wan-%s-%s-%d", l, n, r), dir)
	apply := b.tfSeconds
	span, _ := b.sourceSpan()
	w.rss = max(w.rss, b.providerRSS())
	b.mustHoldOne(fmt.Sprintf("wan, %s, %s", l, n))
	b.wanUnpair(proxy)
	_ = os.RemoveAll(dir)
	floor := wanFloor(w.size, shape.inFlight, apply, span)
	w.applies[key] = append(w.applies[key], apply)
	w.spans[key] = append(w.spans[key], span)
	w.floors[key] = append(w.floors[key], floor)
	w.shapes[key] = fmt.Sprintf("%d × %s MiB", shape.inFlight, shape.chunkMiB)
	// The same shape sent by curl, once a run and with no limit: where the model, and not the
	// provider, sets the row's ceiling.
	sk := fmt.Sprintf("%d/%s", shape.inFlight, shape.chunkMiB)
	if seen := fmt.Sprintf("%s/%d", sk, r); !w.curlShapeSeen[seen] {
		mib, err := strconv.ParseFloat(shape.chunkMiB, 64)
		check(err)
		proxy := b.wanPair(fmt.Sprintf("emu-wan-curl-%d-%d", shape.inFlight, r), "none")
		cspan := b.curlParallel(w.file, w.size, int64(math.Round(mib*1048576)), shape.inFlight)
		b.wanUnpair(proxy)
		w.curlShape[sk] = append(w.curlShape[sk], cspan)
		w.curlShapeSeen[seen] = true
		b.say("      curl %d at a time × %s MiB: first chunk in → source complete %s s", shape.inFlight, shape.chunkMiB, f1(cspan))
	}
	w.rowShape[key] = sk
	return fmt.Sprintf(" %s: %s s (upload %s s, %d × %s MiB, floor %s s; limiter held: %s);", n, f1(apply), f1(span), shape.inFlight, shape.chunkMiB, f1(floor), shape.held)
}

// wanTwice sends two uploads in a row through the same emulator and proxy, as the second of a
// pair of applies meets them: the window of the first still counts its chunks.
func (b *bench) wanTwice(w *wanFigures, r int) {
	c := b.cfg
	for _, n := range []string{"4", "default"} {
		proxy := b.wanPair(fmt.Sprintf("emu-wan-twice-%s-%d", n, r), "none")
		dir1, dir2 := filepath.Join(b.tmp, "wan1"), filepath.Join(b.tmp, "wan2")
		configuration(dir1, w.file, c.chunkMiB, n, "bench-upload first")
		configuration(dir2, w.file, c.chunkMiB, n, "bench-upload second")
		held1 := b.wanApply(fmt.Sprintf("apply-wan-twice1-%s-%d", n, r), dir1).held
		one := b.tfSeconds
		w.twiceFirst[n] = append(w.twiceFirst[n], one)
		held2 := b.wanApply(fmt.Sprintf("apply-wan-twice2-%s-%d", n, r), dir2).held
		w.twiceSecond[n] = append(w.twiceSecond[n], b.tfSeconds)
		if b.videosTotal() != 2 {
			fail("wan, two in a row, %s: the emulator does not hold two videos", n)
		}
		b.wanUnpair(proxy)
		_ = os.RemoveAll(dir1)
		_ = os.RemoveAll(dir2)
		b.say("    two in a row, %s: %s s (limiter held: %s) then %s s (limiter held: %s)", n, f1(one), held1, f1(b.tfSeconds), held2)
	}
}

// wanRows adds the long path's rows to the table: medians over the runs.
func (b *bench) wanRows(w *wanFigures) {
	c := b.cfg
	curl := median(w.curls)
	t := &b.tab
	t.add(fmt.Sprintf("long path, %d MiB, Toxiproxy: 25 ms and 100 Mbit/s each way per connection", c.wanMiB),
		fmt.Sprintf("curl: create, then %d MiB Content-Range chunks one after another, one connection, no limit (median of %d)", c.chunkMiB, c.wanRuns),
		f1(curl)+" s", "—", "—")
	for _, l := range c.limits {
		for _, n := range w.settings {
			key := l + "/" + n
			apply, upload, floor := median(w.applies[key]), median(w.spans[key]), median(w.floors[key])
			ratio := curl / apply
			goal, least := wanGoal(c.wanMiB, l, n)
			met := "—"
			if goal != "—" {
				met = metGE(ratio, least)
			}
			what := shapeWords(c.chunkMiB, n)
			if n == "default" || strings.HasSuffix(n, "c") {
				what += " (" + w.shapes[key] + ")"
			}
			// The provider's choice comes first: it opens each limit set's rows.
			first := ""
			if n == "default" {
				first = "limits: " + limitSets[l].words
			}
			cspan := median(w.curlShape[w.rowShape[key]])
			ceiling := wanCeiling(curl, cspan, apply, upload)
			t.add(first, fmt.Sprintf("%s: curl / apply's whole wall (%s s, of which first chunk in → source complete %s s); floor %s; the model's ceiling for the shape %s (curl sending it: %s s)",
				what, f1(apply), f1(upload), f2(curl/floor), f2(ceiling), f1(cspan)), f2(ratio), goal, met)
		}
	}
	t.add("", "provider peak RSS, the largest of every long-path run", fmt.Sprintf("%d MiB", w.rss), "< 64 MiB", metLE(float64(w.rss), 63))
	if !c.wanTwice {
		return
	}
	for _, n := range []string{"4", "default"} {
		one, two := median(w.twiceFirst[n]), median(w.twiceSecond[n])
		first := ""
		if n == "4" {
			first = "two uploads in a row, one emulator and proxy, no limit"
		}
		t.add(first, fmt.Sprintf("%s: curl / apply, the first then the second (%s s, %s s)", shapeWords(c.chunkMiB, n), f1(one), f1(two)),
			fmt.Sprintf("%s / %s", f2(curl/one), f2(curl/two)), "second ≥ 0.9 × first", metGE(one/two, 0.9))
	}
}
