// Command releasecheck is the Go half of `make release-check`
// (scripts/release-check.sh):
//
//	releasecheck host-config -in .goreleaser.yml -out FILE -dist DIR
//	releasecheck verify -dist DIR -manifest FILE
//	releasecheck verify -dist DIR -lock FILE -host HOST
//
// host-config writes the project's GoReleaser configuration with every build
// narrowed to this machine's platform, so that a snapshot release builds one
// archive instead of all of them. verify checks that what the snapshot built
// is what the Terraform Registry expects; with -lock, that the lock file
// Terraform wrote after installing it holds the archive's hashes.
package main

import (
	"fmt"
	"os"
)

const usage = `usage:
  releasecheck host-config -in .goreleaser.yml -out FILE -dist DIR
  releasecheck verify -dist DIR -manifest FILE
  releasecheck verify -dist DIR -lock FILE -host HOST`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "host-config":
		err = runHostConfig(os.Args[2:])
	case "verify":
		err = runVerify(os.Args[2:])
	default:
		fmt.Fprintln(os.Stderr, usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "releasecheck:", err)
		os.Exit(1)
	}
}
