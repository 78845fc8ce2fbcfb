// Command joinit-token runs the Join It OAuth 2.0 authorization-code flow
// (API.md#authentication) for a user and prints the access token the
// Terraform provider needs (JOINIT_ACCESS_TOKEN). Run it with -h for the
// flow, the flags and the exit codes.
//
// Standard output carries the token alone (when -out is not given), so
// `export JOINIT_ACCESS_TOKEN=$(joinit-token ...)` works; everything else
// goes to standard error. The client secret and the authorization code are
// never printed or logged.
//
// Its files, bottom up (each uses only those above it): answer, browser,
// failure (exit codes), idtoken, owner, secret; flags (and the version),
// output (and what of a server's words is shown); callback, exchange;
// flow, main.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole command; it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return processEnv.run(ctx, args, stdin, stdout, stderr)
}
