package main

import (
	"os"
	"strings"
	"testing"
)

// The network soak (scripts/lib.sh) and this bench build Toxiproxy into one cache directory per
// version: they must name the same version, or each would build its own.
func TestToxiproxyVersionIsLibs(t *testing.T) {
	lib, err := os.ReadFile("../lib.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(lib), "\nlib_toxiproxy_version="+toxiproxyVersion+"\n") {
		t.Errorf("scripts/lib.sh does not set lib_toxiproxy_version=%s", toxiproxyVersion)
	}
}
