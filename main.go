// Command terraform-provider-joinit serves the joinit Terraform provider.
package main

import (
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider"
)

// version is set by the release build (goreleaser's ldflags).
var version = "dev"

// registryAddress is where the provider is published.
const registryAddress = "registry.terraform.io/joinit-community/joinit"

func main() {
	var debug bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.Parse()

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	if err := tf6server.Serve(registryAddress, provider.NewServer(version), opts...); err != nil {
		log.Fatal(err)
	}
}
