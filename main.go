// Command terraform-provider-videohost is the Terraform provider of the video hosting service.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/videohost/terraform-provider-videohost/internal/lifecycle"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
)

// version is set by the release build through -ldflags "-X main.version=...".
var version = "dev"

// address is the provider's source address, under which Terraform knows it.
const address = "registry.terraform.io/videohost/videohost"

// main picks what this process is. Terraform starts a provider with no argument, and the process
// serves the provider. A role is chosen by an argument that only the provider itself gives, when
// it starts its own executable again: a command line, unlike the environment, is never inherited
// from Terraform, a CI job or a wrapper.
func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	switch flag.Arg(0) {
	case "":
		if err := lifecycle.Serve(address, provider.NewServer(version), provider.Leftovers{}, debug); err != nil {
			log.Fatal(err.Error())
		}
	case lifecycle.CleanerRole:
		os.Exit(lifecycle.RunCleaner(os.Stdin, provider.Leftovers{}))
	default:
		fmt.Fprintf(os.Stderr, "terraform-provider-videohost is a Terraform plugin, started by Terraform with no argument; %q is not an argument it takes\n", flag.Arg(0))
		os.Exit(2)
	}
}
