// Command joinit-token runs the Join It OAuth 2.0 authorization-code flow
// (API specification §5) for a user and prints the access token the
// Terraform provider needs (JOINIT_ACCESS_TOKEN). Run it with -h for the
// flow, the flags and the exit codes.
//
// Standard output carries the token alone (when -out is not given), so
// `export JOINIT_ACCESS_TOKEN=$(joinit-token ...)` works; everything else
// goes to standard error. The client secret and the authorization code are
// never printed or logged.
package main

import (
	"context"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes. Each failure a user can act on has its own, so a script can
// tell a typo in the secret from a closed browser tab.
const (
	exitOK            = 0
	exitFailure       = 1 // anything else: the code was refused, -out cannot be written, interrupted
	exitUsage         = 2 // bad flags, or no client secret
	exitBadClient     = 3 // the token endpoint refused the client credentials (401 / invalid_client)
	exitDenied        = 4 // the authorization was denied (error= on the callback)
	exitStateMismatch = 5 // the callback's state is not this run's
	exitTimeout       = 6 // no callback within -timeout
	exitPortInUse     = 7 // cannot listen on the redirect URI's port
	exitUnreachable   = 8 // the auth URL or its token endpoint cannot be reached
)

// version is set by the release build (GoReleaser's ldflags).
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// env is what run takes from the process beyond its arguments; tests swap
// it so they run in parallel without touching the real environment or
// opening a browser.
type env struct {
	getenv func(string) string
	browse func(url string) error
}

var processEnv = env{getenv: os.Getenv, browse: func(u string) error { return openBrowser(os.Getenv, u) }}

// run is the whole command; it returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return processEnv.run(ctx, args, stdin, stdout, stderr)
}
