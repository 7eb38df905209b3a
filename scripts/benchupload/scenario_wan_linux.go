package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

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
	settings := []string{"default"}
	for _, n := range c.flights {
		settings = append(settings, strconv.Itoa(n))
	}
	for _, n := range c.chosen {
		settings = append(settings, strconv.Itoa(n)+"c")
	}
	b.say("bench-upload: wan: %d MiB through Toxiproxy (25 ms and 100 Mbit/s each way per connection), limits: %s; settings: %s; %d run(s)",
		c.wanMiB, strings.Join(c.limits, " "), strings.Join(settings, " "), c.wanRuns)
	b.buildToxiproxy()
	file := filepath.Join(b.tmp, "media", "wan.bin")
	b.randomFile(file, c.wanMiB)
	size := mibBytes(c.wanMiB)
	applies, spans, floors := map[string][]float64{}, map[string][]float64{}, map[string][]float64{}
	shapes, rowShape := map[string]string{}, map[string]string{}
	curlShape, curlShapeSeen := map[string][]float64{}, map[string]bool{}
	twiceFirst, twiceSecond := map[string][]float64{}, map[string][]float64{}
	var curls []float64
	rss := 0
	for r := 1; r <= c.wanRuns; r++ {
		proxy := b.wanPair(fmt.Sprintf("emu-wan-c%d", r), "none")
		run := b.curlUpload(file, size, mibBytes(c.chunkMiB))
		curls = append(curls, run.whole)
		b.wanUnpair(proxy)
		b.say("  run %d: curl %s s", r, f1(run.whole))
		for _, l := range c.limits {
			line := "    " + l + ":"
			for _, n := range settings {
				key := l + "/" + n
				proxy := b.wanPair(fmt.Sprintf("emu-wan-%s-%s-%d", l, n, r), l)
				dir := filepath.Join(b.tmp, "wan")
				configuration(dir, file, c.chunkMiB, n, "bench-upload")
				shape := b.wanApply(fmt.Sprintf("apply-wan-%s-%s-%d", l, n, r), dir)
				apply := b.tfSeconds
				span, _ := b.sourceSpan()
				rss = max(rss, b.providerRSS())
				b.mustHoldOne(fmt.Sprintf("wan, %s, %s", l, n))
				b.wanUnpair(proxy)
				_ = os.RemoveAll(dir)
				// The floor: the file over the connections' rate, plus what the apply spent
				// outside the upload (terraform's start, the plan's hash, the create, the end).
				floor := float64(size)/float64(shape.inFlight*wanRate) + apply - span
				applies[key] = append(applies[key], apply)
				spans[key] = append(spans[key], span)
				floors[key] = append(floors[key], floor)
				shapes[key] = fmt.Sprintf("%d × %s MiB", shape.inFlight, shape.chunkMiB)
				// The same shape sent by curl, once a run and with no limit: where the model, and
				// not the provider, sets the row's ceiling.
				sk := fmt.Sprintf("%d/%s", shape.inFlight, shape.chunkMiB)
				if !curlShapeSeen[fmt.Sprintf("%s/%d", sk, r)] {
					mib, err := strconv.ParseFloat(shape.chunkMiB, 64)
					check(err)
					proxy := b.wanPair(fmt.Sprintf("emu-wan-curl-%d-%d", shape.inFlight, r), "none")
					cspan := b.curlParallel(file, size, int64(math.Round(mib*1048576)), shape.inFlight)
					b.wanUnpair(proxy)
					curlShape[sk] = append(curlShape[sk], cspan)
					curlShapeSeen[fmt.Sprintf("%s/%d", sk, r)] = true
					b.say("      curl %d at a time × %s MiB: first chunk in → source complete %s s", shape.inFlight, shape.chunkMiB, f1(cspan))
				}
				rowShape[key] = sk
				line += fmt.Sprintf(" %s: %s s (upload %s s, %d × %s MiB, floor %s s; limiter held: %s);", n, f1(apply), f1(span), shape.inFlight, shape.chunkMiB, f1(floor), shape.held)
			}
			b.say("%s", line)
		}
		if c.wanTwice {
			// Two uploads in a row through the same emulator and proxy, as the second of a pair
			// of applies meets them: the window of the first still counts its chunks.
			for _, n := range []string{"4", "default"} {
				proxy := b.wanPair(fmt.Sprintf("emu-wan-twice-%s-%d", n, r), "none")
				dir1, dir2 := filepath.Join(b.tmp, "wan1"), filepath.Join(b.tmp, "wan2")
				configuration(dir1, file, c.chunkMiB, n, "bench-upload first")
				configuration(dir2, file, c.chunkMiB, n, "bench-upload second")
				held1 := b.wanApply(fmt.Sprintf("apply-wan-twice1-%s-%d", n, r), dir1).held
				one := b.tfSeconds
				twiceFirst[n] = append(twiceFirst[n], one)
				held2 := b.wanApply(fmt.Sprintf("apply-wan-twice2-%s-%d", n, r), dir2).held
				twiceSecond[n] = append(twiceSecond[n], b.tfSeconds)
				if b.videosTotal() != 2 {
					fail("wan, two in a row, %s: the emulator does not hold two videos", n)
				}
				b.wanUnpair(proxy)
				_ = os.RemoveAll(dir1)
				_ = os.RemoveAll(dir2)
				b.say("    two in a row, %s: %s s (limiter held: %s) then %s s (limiter held: %s)", n, f1(one), held1, f1(b.tfSeconds), held2)
			}
		}
	}
	_ = os.Remove(file)
	curl := median(curls)
	t := &b.tab
	t.add(fmt.Sprintf("long path, %d MiB, Toxiproxy: 25 ms and 100 Mbit/s each way per connection", c.wanMiB),
		fmt.Sprintf("curl: create, then %d MiB Content-Range chunks one after another, one connection, no limit (median of %d)", c.chunkMiB, c.wanRuns),
		f1(curl)+" s", "—", "—")
	for _, l := range c.limits {
		for _, n := range settings {
			key := l + "/" + n
			apply, upload, floor := median(applies[key]), median(spans[key]), median(floors[key])
			ratio := curl / apply
			goal, least := wanGoal(c.wanMiB, l, n)
			met := "—"
			if goal != "—" {
				met = metGE(ratio, least)
			}
			what := shapeWords(c.chunkMiB, n)
			if n == "default" || strings.HasSuffix(n, "c") {
				what += " (" + shapes[key] + ")"
			}
			// The provider's choice comes first: it opens each limit set's rows.
			first := ""
			if n == "default" {
				first = "limits: " + limitSets[l].words
			}
			// The model's own ceiling for the row: curl sending the same shape, plus what the
			// apply spent outside its upload.
			cspan := median(curlShape[rowShape[key]])
			ceiling := curl / (cspan + apply - upload)
			t.add(first, fmt.Sprintf("%s: curl / apply's whole wall (%s s, of which first chunk in → source complete %s s); floor %s; the model's ceiling for the shape %s (curl sending it: %s s)",
				what, f1(apply), f1(upload), f2(curl/floor), f2(ceiling), f1(cspan)), f2(ratio), goal, met)
		}
	}
	t.add("", "provider peak RSS, the largest of every long-path run", fmt.Sprintf("%d MiB", rss), "< 64 MiB", metLE(float64(rss), 63))
	if c.wanTwice {
		for _, n := range []string{"4", "default"} {
			one, two := median(twiceFirst[n]), median(twiceSecond[n])
			first := ""
			if n == "4" {
				first = "two uploads in a row, one emulator and proxy, no limit"
			}
			t.add(first, fmt.Sprintf("%s: curl / apply, the first then the second (%s s, %s s)", shapeWords(c.chunkMiB, n), f1(one), f1(two)),
				fmt.Sprintf("%s / %s", f2(curl/one), f2(curl/two)), "second ≥ 0.9 × first", metGE(one/two, 0.9))
		}
	}
}
