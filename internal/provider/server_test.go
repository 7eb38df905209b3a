package provider

import (
	"context"
	"errors"
	"reflect"
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

// TestReleasingServerServesAllTheFrameworkServes: the wrapper of NewServer must serve every
// request that the framework's server serves. It embeds the interfaces it knows
// (frameworkServer), so a framework release that adds a method or an optional interface would
// be hidden by it silently: Terraform would find the capability missing. Each interface of
// tfprotov6 is listed here (a package's types cannot be enumerated by reflection); the method
// sets are compared as well, which is what catches an interface that this list does not name.
func TestReleasingServerServesAllTheFrameworkServes(t *testing.T) {
	framework := reflect.TypeOf(providerserver.NewProtocol6(New("test")())())
	served := NewServer("test")()
	if _, ok := served.(releasingServer); !ok {
		t.Fatalf("NewServer serves a %T, not the releasingServer", served)
	}
	wrapper := reflect.TypeOf(served)
	interfaces := map[string]reflect.Type{
		"ProviderServer":                 reflect.TypeFor[tfprotov6.ProviderServer](),
		"ResourceServer":                 reflect.TypeFor[tfprotov6.ResourceServer](),
		"DataSourceServer":               reflect.TypeFor[tfprotov6.DataSourceServer](),
		"FunctionServer":                 reflect.TypeFor[tfprotov6.FunctionServer](),
		"EphemeralResourceServer":        reflect.TypeFor[tfprotov6.EphemeralResourceServer](),
		"ListResourceServer":             reflect.TypeFor[tfprotov6.ListResourceServer](),
		"ActionServer":                   reflect.TypeFor[tfprotov6.ActionServer](),
		"StateStoreServer":               reflect.TypeFor[tfprotov6.StateStoreServer](),
		"ProviderServerWithListResource": reflect.TypeFor[tfprotov6.ProviderServerWithListResource](), //nolint:staticcheck // the deprecated combinations are interfaces a server may still be asked for.
		"ProviderServerWithActions":      reflect.TypeFor[tfprotov6.ProviderServerWithActions](),      //nolint:staticcheck // as above
		"ProviderServerWithStateStores":  reflect.TypeFor[tfprotov6.ProviderServerWithStateStores](),  //nolint:staticcheck // as above
	}
	for name, iface := range interfaces {
		if framework.Implements(iface) && !wrapper.Implements(iface) {
			t.Errorf("the framework's server implements tfprotov6.%s and the releasingServer does not", name)
		}
	}
	if framework.NumMethod() < 20 {
		t.Fatalf("the framework's server %v has only %d methods", framework, framework.NumMethod())
	}
	for i := range framework.NumMethod() {
		m := framework.Method(i)
		w, ok := wrapper.MethodByName(m.Name)
		switch {
		case !ok:
			t.Errorf("the framework's server has the method %s and the releasingServer does not", m.Name)
		case !sameSignature(m.Type, w.Type):
			t.Errorf("%s is %v on the framework's server and %v on the releasingServer", m.Name, m.Type, w.Type)
		}
	}
}

// sameSignature reports whether two method types take and return the same, their receivers
// aside.
func sameSignature(a, b reflect.Type) bool {
	if a.NumIn() != b.NumIn() || a.NumOut() != b.NumOut() {
		return false
	}
	for i := 1; i < a.NumIn(); i++ {
		if a.In(i) != b.In(i) {
			return false
		}
	}
	for i := range a.NumOut() {
		if a.Out(i) != b.Out(i) {
			return false
		}
	}
	return true
}
