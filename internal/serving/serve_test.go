package serving

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

func TestServeStopsCleanlyWhenTheContextEnds(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, "served")
		}), time.Second)
	}()

	resp, err := http.Get("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if string(body) != "served" {
		t.Fatalf("body %q, want the handler's", body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("a stop asked for by the context returned %v, want nil", err)
		}
	case <-time.After(shutdownTimeout + 5*time.Second):
		t.Fatal("Serve did not return after its context ended")
	}
	if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		_ = c.Close()
		t.Fatal("the listener still accepts after Serve returned")
	}
}

func TestServeReturnsTheFailureOfServing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	// A listener closed under the server makes Serve fail at once.
	_ = ln.Close()
	err = Serve(t.Context(), ln, http.NotFoundHandler(), time.Second)
	if err == nil || errors.Is(err, http.ErrServerClosed) {
		t.Fatalf("Serve on a closed listener returned %v, want the accept error", err)
	}
	if !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Serve on a closed listener returned %v, want net.ErrClosed", err)
	}
}
