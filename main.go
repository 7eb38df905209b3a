// Command terraform-provider-videohost is the Terraform provider of the video hosting service.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/videohost/terraform-provider-videohost/internal/lifecycle"
	"github.com/videohost/terraform-provider-videohost/internal/provider"
)

// version is set by the release build through -ldflags "-X main.version=...".
var version = "dev"

// address is the provider's source address, under which Terraform knows it.
const address = "registry.terraform.io/videohost/videohost"

// main picks what this process is: the cleaner that the provider starts, or the provider
// served to Terraform.
func main() {
	if os.Getenv(lifecycle.CleanerRoleEnv) == lifecycle.CleanerRole {
		os.Exit(lifecycle.RunCleaner(os.Stdin, provider.Leftovers{}))
	}
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()
	if err := lifecycle.Serve(address, provider.NewServer(version), provider.Leftovers{}, debug); err != nil {
		log.Fatal(err.Error())
	}
}
