// Command terraform-provider-joinit serves the joinit Terraform provider.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	rtdebug "runtime/debug"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/joinit-community/terraform-provider-joinit/internal/buildinfo"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider"
)

// version is set by the release build (goreleaser's ldflags).
var version = "dev"

func main() {
	var debug, devOverrides, showVersion bool
	flag.BoolVar(&debug, "debug", false, "run the provider with support for debuggers like delve")
	flag.BoolVar(&devOverrides, "dev-overrides", false, "print a Terraform CLI configuration whose dev_overrides run this binary, and exit")
	flag.BoolVar(&showVersion, "version", false, "print the provider's version, and exit")
	flag.Parse()
	if showVersion {
		fmt.Println(buildinfo.Line("terraform-provider-joinit", version))
		return
	}
	if devOverrides {
		if err := printDevOverrides(); err != nil {
			log.Fatal(err)
		}
		return
	}
	// A large read holds the records, their encoded state and gRPC's copy
	// of it at once; collecting garbage at 1.5× the live heap rather than
	// 2× keeps the provider under 400 MB at 100,000 memberships, for no
	// measurable plan time (make bench). GOGC set by the user wins.
	if os.Getenv("GOGC") == "" {
		rtdebug.SetGCPercent(50)
	}

	// A terminal's Ctrl-C reaches the provider as it reaches Terraform (one
	// process group). go-plugin ignores it in a plugin, and Terraform 1.11
	// sends no StopProvider while `terraform apply` computes its plan, so
	// without this a long read runs on to its end. The signal stays caught
	// for the life of the process: a second Ctrl-C is Terraform's to act on.
	interrupt, stopCatching := signal.NotifyContext(context.Background(), os.Interrupt)

	// Go's standard logger has one writer in a serving provider: net/http,
	// which logs the bytes a server sends on an idle connection (quoted, but
	// as the server chose them) to stderr, and Terraform keeps a provider's
	// stderr in its log. A server must not write there, where a token it
	// echoes would land: the provider logs through tflog, redacted.
	log.SetOutput(io.Discard)

	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	err := tf6server.Serve(provider.RegistryAddress, provider.NewServer(interrupt, version), opts...)
	stopCatching()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// printDevOverrides prints the CLI configuration that points Terraform at
// the directory holding this binary (make demo uses it).
func printDevOverrides() error {
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return err
	}
	_, err = fmt.Print(provider.DevOverridesCLIConfig(filepath.Dir(exe)))
	return err
}
