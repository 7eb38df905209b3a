package main

import (
	"math"
	"testing"
)

func TestPaceFloor(t *testing.T) {
	// 20 chunks at 5 a window of 3 s: the fourth window opens 9 s after the first chunk; its
	// 25 MiB then take 0.25 s at 100 MiB/s.
	wait, last := paceFloor(100 << 20)
	if wait != 9 || math.Abs(last-0.25) > 1e-9 {
		t.Errorf("paceFloor = %d, %v; want 9, 0.25", wait, last)
	}
	// Without the throughput scenario the rate is unknown: the floor is the windows alone.
	if wait, last := paceFloor(0); wait != 9 || last != 0 {
		t.Errorf("paceFloor(0) = %d, %v; want 9, 0", wait, last)
	}
}

func TestWANFloorAndCeiling(t *testing.T) {
	// 1 GiB over 4 connections of 12,500,000 B/s is 21.47 s, plus 3 s of the apply's 25 s spent
	// outside its 22 s upload.
	got := wanFloor(1<<30, 4, 25, 22)
	if want := float64(1<<30)/(4*12500000) + 3; math.Abs(got-want) > 1e-9 {
		t.Errorf("wanFloor = %v, want %v", got, want)
	}
	// curl's 90 s over curl sending the shape in 20 s plus the apply's 3 s outside its upload.
	if got := wanCeiling(90, 20, 25, 22); math.Abs(got-90.0/23) > 1e-9 {
		t.Errorf("wanCeiling = %v, want %v", got, 90.0/23)
	}
}
