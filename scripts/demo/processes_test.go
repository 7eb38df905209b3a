package main

import "testing"

// TestFirstLineWriter: the address is the first complete line, however the writes split it.
func TestFirstLineWriter(t *testing.T) {
	line := make(chan string, 1)
	w := &firstLineWriter{line: line}
	for _, chunk := range []string{"http://127.0.", "0.1:4321", "\nsecond line\n", "third\n"} {
		if n, err := w.Write([]byte(chunk)); err != nil || n != len(chunk) {
			t.Fatalf("Write(%q) = %d, %v", chunk, n, err)
		}
	}
	select {
	case got := <-line:
		if got != "http://127.0.0.1:4321" {
			t.Errorf("first line %q", got)
		}
	default:
		t.Fatal("no first line was passed on")
	}
	select {
	case got := <-line:
		t.Errorf("a second line was passed on: %q", got)
	default:
	}
}
