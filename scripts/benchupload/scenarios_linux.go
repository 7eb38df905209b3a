package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// throughput times the first size's upload by terraform apply against curl's, with the bytes the
// provider read, and notes the provider's peak RSS for the memory scenario. It returns the
// provider's unthrottled rate in bytes a second and the largest peak RSS in MiB.
func (b *bench) throughput() (rate float64, rss int) {
	c := b.cfg
	small := c.smallMiB()
	b.say("bench-upload: throughput: %d MiB, %d run(s) of the provider and of curl (%d MiB chunks)", small, c.runs, c.chunkMiB)
	file := filepath.Join(b.tmp, "media", "small.bin")
	b.randomFile(file, small)
	size := mibBytes(small)
	var pSpans, cSpans, cWalls, pApplies, pReads, planReads, planWalls, cE2E, sApplies, sReads []float64
	rss = -1
	for r := 1; r <= c.runs; r++ {
		b.unthrottled(fmt.Sprintf("emu-p%d", r))
		dir := filepath.Join(b.tmp, fmt.Sprintf("p%d", r))
		configuration(dir, file, c.chunkMiB, c.inFlight, "bench-upload")
		_ = os.RemoveAll(b.hashCache()) // every run plans the file as new
		b.tfOK(fmt.Sprintf("apply-p%d", r), dir, nil, "apply", "-auto-approve")
		span, _ := b.sourceSpan()
		pSpans = append(pSpans, span)
		pApplies = append(pApplies, b.tfSeconds)
		pReads = append(pReads, perByte(b.providerReads(), size))
		rss = max(rss, b.providerRSS())
		b.tfOK(fmt.Sprintf("plan-p%d", r), dir, nil, "plan")
		planReads = append(planReads, perByte(b.providerReads(), size))
		planWalls = append(planWalls, b.tfSeconds)
		b.mustHoldOne(fmt.Sprintf("throughput run %d", r))
		b.stopEmulator()
		_ = os.RemoveAll(dir)

		// A pipeline's way: terraform plan -out, then terraform apply of that plan, timed alone.
		b.unthrottled(fmt.Sprintf("emu-s%d", r))
		dir = filepath.Join(b.tmp, fmt.Sprintf("s%d", r))
		configuration(dir, file, c.chunkMiB, c.inFlight, "bench-upload")
		_ = os.RemoveAll(b.hashCache())
		b.tfOK(fmt.Sprintf("plan-s%d", r), dir, nil, "plan", "-out=tfplan")
		b.tfOK(fmt.Sprintf("apply-s%d", r), dir, nil, "apply", "tfplan")
		b.sourceSpan()
		sApplies = append(sApplies, b.tfSeconds)
		sReads = append(sReads, perByte(b.providerReads(), size))
		b.mustHoldOne(fmt.Sprintf("throughput run %d (saved plan)", r))
		b.stopEmulator()
		_ = os.RemoveAll(dir)

		b.unthrottled(fmt.Sprintf("emu-c%d", r))
		run := b.curlUpload(file, size, mibBytes(c.chunkMiB))
		span, completeAt := b.sourceSpan()
		cSpans = append(cSpans, span)
		cWalls = append(cWalls, run.seconds)
		cE2E = append(cE2E, completeAt.Sub(run.created).Seconds())
		b.stopEmulator()
		b.say("  run %d: provider %s s (apply %s s; of a saved plan %s s), curl %s s (curl's own %s s)",
			r, f1(pSpans[r-1]), f1(pApplies[r-1]), f1(sApplies[r-1]), f1(cSpans[r-1]), f1(run.seconds))
	}
	_ = os.Remove(file)
	pSpan, cSpan := median(pSpans), median(cSpans)
	rate = float64(size) / pSpan
	if !c.want("throughput") {
		return rate, rss
	}
	ratio := cSpan / pSpan
	t := &b.tab
	t.add(fmt.Sprintf("throughput, %d MiB, unthrottled", small), fmt.Sprintf("provider: first chunk in → source complete (median of %d; terraform apply in all)", c.runs),
		fmt.Sprintf("%s s = %s MiB/s (%s s)", f1(pSpan), f0(float64(small)/pSpan), f1(median(pApplies))), "—", "—")
	t.add("", fmt.Sprintf("curl, %d MiB Content-Range chunks, sequential, one connection (curl's own wall)", c.chunkMiB),
		fmt.Sprintf("%s s = %s MiB/s (%s s)", f1(cSpan), f0(float64(small)/cSpan), f1(median(cWalls))), "—", "—")
	t.add("", fmt.Sprintf("provider / curl throughput (%s)", shapeWords(c.chunkMiB, c.inFlight)), f2(ratio), "≥ 0.8", metGE(ratio, 0.8))
	e2e := median(cE2E) / median(pApplies)
	t.add("", fmt.Sprintf("end to end: curl (create, chunks, source complete: %s s) / terraform apply's whole wall, its start and its plan's hash of the file included", f1(median(cE2E))),
		f2(e2e), "≥ 0.95", metGE(e2e, 0.95))
	sE2E := median(cE2E) / median(sApplies)
	t.add("", fmt.Sprintf("the same for terraform apply of a plan saved by terraform plan -out (%s s; that plan hashed the file)", f1(median(sApplies))),
		f2(sE2E), "≥ 0.95", metGE(sE2E, 0.95))
	applyReads := median(pReads)
	t.add(fmt.Sprintf("reads, %d MiB", small), fmt.Sprintf("bytes the provider read per byte of the file: terraform apply creating the video (its plan, the apply's plan, the upload; median of %d)", c.runs),
		f2(applyReads), "≤ 3.0", metLE(round2(applyReads), 3.0))
	t.add("", "the same by terraform apply of a saved plan (its plan again, the upload)", f2(median(sReads)), "—", "—")
	unchanged := median(planReads)
	t.add("", fmt.Sprintf("the same by a refreshing terraform plan right after, nothing changed (%s s)", f1(median(planWalls))),
		fmt.Sprintf("%.4f", unchanged), "≤ 0.01", metLE(unchanged, 0.01))
	return rate, rss
}

// memory measures the provider's peak RSS at the last size, beside the first size's.
func (b *bench) memory(smallRSS int) {
	c := b.cfg
	largeRSS := smallRSS
	if c.largeMiB() != c.smallMiB() {
		b.say("bench-upload: memory: %d MiB", c.largeMiB())
		file := filepath.Join(b.tmp, "media", "large.bin")
		b.randomFile(file, c.largeMiB())
		b.unthrottled("emu-m")
		dir := filepath.Join(b.tmp, "m")
		configuration(dir, file, c.chunkMiB, c.inFlight, "bench-upload")
		b.tfOK("apply-m", dir, nil, "apply", "-auto-approve")
		largeRSS = b.providerRSS()
		b.mustHoldOne("memory")
		b.stopEmulator()
		_ = os.RemoveAll(dir)
		_ = os.Remove(file)
	}
	growth := largeRSS - smallRSS
	b.tab.add("memory, "+shapeWords(c.chunkMiB, c.inFlight), fmt.Sprintf("provider peak RSS: %d MiB (largest of the throughput runs) / %d MiB source", c.smallMiB(), c.largeMiB()),
		fmt.Sprintf("%d / %d MiB", smallRSS, largeRSS), "≤ 100 MiB", metLE(float64(max(smallRSS, largeRSS)), 100))
	b.tab.add("", fmt.Sprintf("growth from %d MiB to %d MiB", c.smallMiB(), c.largeMiB()), fmt.Sprintf("%d MiB", growth), "flat (≤ 5 MiB)", metLE(float64(max(growth, -growth)), 5))
}

// pacing sends 20 chunks of 5 MiB under an uploads limit of 5 per 3 s: no request may come
// before a 429's Retry-After has elapsed. unthrottledRate (bytes a second, 0 when the throughput
// scenario did not run) prices the last window's chunks.
func (b *bench) pacing(unthrottledRate float64) {
	b.say("bench-upload: pacing: %d chunks of %d MiB at %d uploads per %d s", paceChunks, paceChunkMiB, paceLimit, paceWindow)
	file := filepath.Join(b.tmp, "media", "pace.bin")
	b.randomFile(file, paceChunks*paceChunkMiB)
	b.startEmulator("emu-pace", "-rate-limit-uploads", fmt.Sprint(paceLimit), "-rate-window", fmt.Sprintf("%ds", paceWindow),
		"-rate-limit-writes", unlimited, "-rate-limit-reads", unlimited)
	dir := filepath.Join(b.tmp, "pace")
	configuration(dir, file, paceChunkMiB, fixedInFlight, "bench-upload")
	b.tfOK("apply-pace", dir, nil, "apply", "-auto-approve")
	wall, _ := b.sourceSpan()
	s := b.stats()
	first, err := s.uploadsFirst()
	check(err)
	last, err := s.uploadsLast()
	check(err)
	arrivals := last.Sub(first).Seconds()
	if _, ok := b.checkVideo(); !ok {
		fail("pacing: the emulator does not hold the file")
	}
	b.stopEmulator()
	_ = os.RemoveAll(dir)
	_ = os.Remove(file)
	waitFloor, lastWindow := paceFloor(unthrottledRate)
	floor := float64(waitFloor) + lastWindow
	ratio := wall / floor
	u := s.RateLimits.Uploads
	label := fmt.Sprintf("pacing, %d × %d MiB, %d uploads / %d s", paceChunks, paceChunkMiB, paceLimit, paceWindow)
	b.tab.must(label, "requests before a 429's Retry-After had elapsed", fmt.Sprint(u.Early), "0 (must)", u.Early <= 0)
	b.tab.add("", fmt.Sprintf("429s (upload requests: %d)", u.Requests), fmt.Sprint(u.TooManyRequests), "≤ 1", metLE(float64(u.TooManyRequests), 1))
	b.tab.add("", "first chunk in → last chunk in", f1(arrivals)+" s", fmt.Sprintf("≥ %d s (the limit)", waitFloor), "—")
	b.tab.add("", fmt.Sprintf("first chunk in → source complete, over the floor (%d s + %s s for the last window's chunks)", waitFloor, f2(lastWindow)),
		fmt.Sprintf("%.3f (%s s)", ratio, f1(wall)), "≤ 1.15", metLE(ratio, 1.15))
}

// resume sends SIGINT to terraform once half of the source reached the emulator, then applies
// again: the second apply sends what is left, and one video holds the file.
func (b *bench) resume() {
	c := b.cfg
	b.say("bench-upload: resume: %d MiB, SIGINT to terraform at half, then apply again", c.resumeMiB)
	file := filepath.Join(b.tmp, "media", "resume.bin")
	b.randomFile(file, c.resumeMiB)
	size := mibBytes(c.resumeMiB)
	// Two uploads a second, so that the SIGINT lands while the upload is under way.
	b.startEmulator("emu-resume", "-rate-limit-uploads", "2", "-rate-window", "1s", "-rate-limit-writes", unlimited, "-rate-limit-reads", unlimited)
	dir := filepath.Join(b.tmp, "resume")
	configuration(dir, file, c.chunkMiB, fixedInFlight, "bench-upload")
	p, err := b.ps.start("apply-r1", nil, b.terraform, "-chdir="+dir, "apply", "-auto-approve", "-input=false", "-no-color")
	check(err)
	for p.running() && b.stats().Uploads.Bytes < size/2 {
		time.Sleep(50 * time.Millisecond)
	}
	if !p.running() {
		fail("resume: the first apply ended before half of the file was sent")
	}
	atSigint := b.stats().Uploads.Bytes
	check(p.cmd.Process.Signal(syscall.SIGINT))
	r1 := b.ps.wait(p)
	b.joinLog("apply-r1")
	s := b.stats()
	firstBytes := s.Uploads.Bytes
	if ids := s.videoIDs(); len(ids) > 0 && b.source(ids[0]).Complete {
		fail("resume: the source was complete before the SIGINT took effect")
	}
	b.tfOK("apply-r2", dir, nil, "apply", "-auto-approve")
	second := b.stats().Uploads.Bytes - firstBytes
	count, shaOK := b.checkVideo()
	b.stopEmulator()
	_ = os.RemoveAll(dir)
	_ = os.Remove(file)
	share := 100 * float64(second) / float64(size)
	b.tab.add(fmt.Sprintf("resume, %d MiB, SIGINT at half", c.resumeMiB), fmt.Sprintf("bytes received at the SIGINT / when the first apply ended (exit %d)", r1),
		fmt.Sprintf("%d / %d MiB", atSigint>>20, firstBytes>>20), "—", "—")
	b.tab.add("", "bytes the second apply sent", fmt.Sprintf("%d MiB = %s%% of the file", second>>20, f0(share)), "≤ 55%", metLE(share, 55))
	b.videosMust(count, shaOK)
}

// videosMust is the row that one video exists and holds the file's SHA-256.
func (b *bench) videosMust(count int, shaOK bool) {
	b.tab.must("", "videos / emulator's SHA-256 = the file's", fmt.Sprintf("%d / %s", count, yesNo(shaOK)), "1 / yes", count == 1 && shaOK)
}

// faults stores 20% of the chunks and answers 500, and cuts the first chunk's connection after
// 1 MiB: the apply completes, one video exists, the SHA-256 is the file's.
func (b *bench) faults() {
	b.say("bench-upload: faults: %d chunks of %d MiB, %s stored then 500, one cut", faultChunks, faultChunkMiB, short(faultRate))
	file := filepath.Join(b.tmp, "media", "faults.bin")
	b.randomFile(file, faultChunks*faultChunkMiB)
	size := mibBytes(faultChunks * faultChunkMiB)
	b.startEmulator("emu-faults", "-rate-limit-uploads", unlimited, "-rate-limit-writes", unlimited, "-rate-limit-reads", unlimited,
		"-fault-upload-commit-then-500", short(faultRate), "-fault-upload-cuts", "1")
	dir := filepath.Join(b.tmp, "faults")
	configuration(dir, file, faultChunkMiB, fixedInFlight, "bench-upload")
	rc := b.tf("f-apply", dir, nil, "apply", "-auto-approve")
	injected, err := injectedUploadFaults(b.get("/_emulator/faults", false))
	check(err)
	if injected == "" {
		injected = "?"
	}
	s := b.stats()
	count, shaOK := b.checkVideo()
	b.stopEmulator()
	_ = os.RemoveAll(dir)
	_ = os.Remove(file)
	label := fmt.Sprintf("faults, %d × %d MiB, %s%% stored then 500, 1 cut", faultChunks, faultChunkMiB, short(100*faultRate))
	b.tab.add(label, fmt.Sprintf("injected (%d chunk requests, %d MiB received for a %d MiB file)", s.RateLimits.Uploads.Requests, s.Uploads.Bytes>>20, size>>20),
		injected, "—", "—")
	b.tab.must("", "apply exit status", fmt.Sprint(rc), "0", rc == 0)
	b.videosMust(count, shaOK)
}

// many creates BENCH_UPLOAD_MANY sources in one apply, then times a refreshing plan over them.
func (b *bench) many() {
	c := b.cfg
	b.say("bench-upload: many: %d sources of %d MiB, one apply, then a refreshing plan", c.many, c.manyMiB)
	dir := filepath.Join(b.tmp, "many")
	writeConfig(dir, manyConfig(filepath.Join(b.tmp, "media"), c.many, c.chunkMiB, c.inFlight))
	// Sparse files, each with its own first bytes: the same reads and hashing as random ones,
	// without writing gigabytes to the disk.
	var files []string
	for i := range c.many {
		f := filepath.Join(b.tmp, "media", fmt.Sprintf("many.%d.bin", i))
		check(os.WriteFile(f, fmt.Appendf(nil, "bench-upload source %d", i), 0o600))
		check(os.Truncate(f, mibBytes(c.manyMiB)))
		files = append(files, f)
	}
	time.Sleep(2 * time.Second)
	b.unthrottled("emu-many")
	b.tfOK("apply-many", dir, nil, "apply", "-auto-approve")
	apply := b.tfSeconds
	b.tfOK("plan-many", dir, nil, "plan")
	plan := b.tfSeconds
	reads := b.providerReads()
	b.stopEmulator()
	_ = os.RemoveAll(dir)
	for _, f := range files {
		_ = os.Remove(f)
	}
	b.tab.add(fmt.Sprintf("many, %d × %d MiB", c.many, c.manyMiB),
		fmt.Sprintf("refreshing terraform plan over %d unchanged sources: wall (bytes the provider read; the apply that made them took %s s)", c.many, f1(apply)),
		fmt.Sprintf("%s s (%d KiB)", f1(plan), reads>>10), "≤ 3 s", metLE(plan, 3))
}
