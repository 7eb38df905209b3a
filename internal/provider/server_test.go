package provider

import (
	"context"
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

type requestMarkKey struct{}

// contextsLetGo serves n GetMetadata requests on srv, each with a context holding a value of
// its own, and returns how many of those values the garbage collector could reclaim after
// the requests returned (waiting up to a few seconds for the cleanups to run).
func contextsLetGo(t *testing.T, srv tfprotov6.ProviderServer, n int) int64 {
	t.Helper()
	var reclaimed atomic.Int64
	for range n {
		mark := new([64]byte)
		runtime.AddCleanup(mark, func(*atomic.Int64) { reclaimed.Add(1) }, &reclaimed)
		ctx, cancel := context.WithCancel(context.WithValue(t.Context(), requestMarkKey{}, mark))
		if _, err := srv.GetMetadata(ctx, &tfprotov6.GetMetadataRequest{}); err != nil {
			t.Fatal(err)
		}
		// gRPC cancels a request's context when the request ends.
		cancel()
	}
	for deadline := time.Now().Add(2 * time.Second); reclaimed.Load() < int64(n) && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	// The server lives on, as it does in the provider's process.
	runtime.KeepAlive(srv)
	return reclaimed.Load()
}

func TestServerLetsRequestContextsGo(t *testing.T) {
	const n = 200
	// The framework's own server keeps every request's context until StopProvider. Should a
	// release of the framework stop doing so, this fails: NewServer's wrapper can then go.
	if got := contextsLetGo(t, providerserver.NewProtocol6(New("test")())(), n); got > n/10 {
		t.Errorf("the framework's server let %d of %d request contexts go; it kept them all when NewServer was written", got, n)
	}
	srv := NewServer("test")()
	if _, ok := srv.(releasingServer); !ok {
		t.Fatalf("NewServer returned a %T, not the releasing server: the framework's server no longer has the methods it wraps", srv)
	}
	if got := contextsLetGo(t, srv, n); got != n {
		t.Errorf("NewServer's server let %d of %d request contexts go, want all", got, n)
	}
	// The servers Terraform asks for list resources and actions are still there.
	if _, ok := srv.(tfprotov6.ListResourceServer); !ok {
		t.Error("NewServer's server serves no list resources")
	}
	if _, ok := srv.(tfprotov6.ActionServer); !ok {
		t.Error("NewServer's server serves no actions")
	}
}

func TestRequestContextIsTheRequestsUntilItReturns(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(t.Context(), requestMarkKey{}, "mark"))
	defer cancel()
	var seen context.Context
	_, err := serve(parent, "req", func(ctx context.Context, req string) (string, error) {
		seen = ctx
		if got := ctx.Value(requestMarkKey{}); got != "mark" {
			t.Errorf("during the request, Value = %v, want the request's", got)
		}
		child, stop := context.WithCancel(ctx)
		defer stop()
		cancel()
		select {
		case <-child.Done():
		case <-time.After(5 * time.Second):
			t.Error("a context derived during the request was not cancelled with the request's")
		}
		if !errors.Is(ctx.Err(), context.Canceled) {
			t.Errorf("during the request, after its cancellation, Err = %v", ctx.Err())
		}
		return req, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := seen.Value(requestMarkKey{}); got != nil {
		t.Errorf("after the request, Value = %v, want nil: the request's context is still held", got)
	}
	if seen.Err() == nil {
		t.Error("after the request, Err = nil, want an ended context")
	}
}
