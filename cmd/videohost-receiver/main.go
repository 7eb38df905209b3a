// Command videohost-receiver is a small webhook receiver for the demo: it checks the signature of
// every delivery with videohost.Verify against the secrets of a key ring file and logs one line
// per delivery. It never prints a secret.
//
// It listens on a loopback port and prints its base URL on the first line of standard output,
// so that a script can start it on port 0 and read back where it listens.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"time"

	"github.com/videohost/terraform-provider-videohost/internal/serving"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on (host:port; port 0 picks a free one)")
	var secrets []string
	flag.Func("secrets", "JSON file of webhook id to signature secret, such as the output of `terraform output -json webhook_secrets`; "+
		"may be given more than once, and every file is read again on every delivery (a missing one knows no webhook)",
		func(path string) error { secrets = append(secrets, path); return nil })
	flag.Parse()

	if err := run(*listen, secrets, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "videohost-receiver:", err)
		os.Exit(1)
	}
}

// run serves until SIGINT or SIGTERM.
func run(listen string, secretsPaths []string, out io.Writer) error {
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	recv := newReceiver(fileKeyRing(secretsPaths...), out)

	// The first line is the contract with the scripts that start the receiver.
	fmt.Fprintf(out, "http://%s\n", ln.Addr().String())

	ctx, stop := serving.UntilSignal(context.Background())
	defer stop()
	return serving.Serve(ctx, ln, recv, 5*time.Second)
}
