//go:build !linux

package main

import (
	"fmt"
	"os"
)

// run refuses: the bench reads the provider's counters in /proc and stops process groups.
func run() int {
	fmt.Fprintln(os.Stderr, "bench-upload: needs Linux (it reads /proc)")
	return 1
}
