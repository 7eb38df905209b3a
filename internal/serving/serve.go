// Package serving runs the HTTP servers of the project's commands (the emulator and the demo's
// webhook receiver) until SIGINT or SIGTERM, and stops them cleanly. It knows nothing of what
// they serve.
package serving

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"
)

// shutdownTimeout bounds how long a stop waits for the requests in flight.
const shutdownTimeout = 5 * time.Second

// UntilSignal returns a context that ends at SIGINT or SIGTERM; stop releases the signals.
func UntilSignal(parent context.Context) (ctx context.Context, stop context.CancelFunc) {
	return signal.NotifyContext(parent, os.Interrupt, syscall.SIGTERM)
}

// Serve serves h on ln until ctx ends or serving fails, then shuts the server down, waiting for
// the requests in flight at most shutdownTimeout. It returns nil after a stop asked for by ctx that went
// cleanly, else what failed (serving, shutting down, or both).
func Serve(ctx context.Context, ln net.Listener, h http.Handler, readHeaderTimeout time.Duration) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: readHeaderTimeout}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	var failed error
	select {
	case <-ctx.Done():
	case failed = <-served:
		// Serve returns ErrServerClosed only after a Shutdown, which has not happened yet: this
		// is a real failure, and the server is still shut down for the connections it holds.
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return errors.Join(failed, fmt.Errorf("shutting down: %w", err))
	}
	if failed != nil {
		return failed
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
