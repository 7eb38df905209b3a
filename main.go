// Command terraform-provider-videohost is the Terraform provider of the video hosting service.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/videohost/terraform-provider-videohost/internal/provider"
)

// version is set by the release build through -ldflags "-X main.version=...".
var version = "dev"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version), providerserver.ServeOpts{
		Address: "registry.terraform.io/videohost/videohost",
		Debug:   debug,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
