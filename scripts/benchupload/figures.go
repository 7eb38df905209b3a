package main

import "slices"

// The figures the scenarios compute from what they measured.

// wanRate is Toxiproxy's 12,500 KB/s per connection, in bytes a second.
const wanRate = 12500000

// median is the middle value, or the mean of the two middle values of an even count.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// paceFloor is the pacing scenario's floor: the fourth window of paceLimit uploads cannot open
// before (paceChunks/paceLimit - 1) windows after the first chunk (waitFloor, in seconds), and
// its chunks then take what they take unthrottled (lastWindow, 0 when the rate in bytes a second
// is unknown).
func paceFloor(unthrottledRate float64) (waitFloor int, lastWindow float64) {
	if unthrottledRate > 0 {
		lastWindow = float64(mibBytes(paceLimit*paceChunkMiB)) / unthrottledRate
	}
	return (paceChunks/paceLimit - 1) * paceWindow, lastWindow
}

// wanFloor is a long-path apply's floor in seconds: the file over inFlight connections' rate,
// plus what the apply spent outside the upload (terraform's start, the plan's hash, the create,
// the end): its whole wall less the upload's span.
func wanFloor(size int64, inFlight int, apply, span float64) float64 {
	return float64(size)/float64(inFlight*wanRate) + apply - span
}

// wanCeiling is the model's own ceiling of curl / apply for a row: curl sending the row's shape
// (cspan), plus what the apply spent outside its upload.
func wanCeiling(curl, cspan, apply, upload float64) float64 {
	return curl / (cspan + apply - upload)
}
