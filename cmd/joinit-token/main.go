// Command joinit-token runs the Join It OAuth 2.0 authorization-code flow
// (API specification §5) for a user and prints the access token the
// Terraform provider needs (JOINIT_ACCESS_TOKEN). Run it with -h for the
// flow, the flags and the exit codes.
//
// Standard output carries the token alone (when -out is not given), so
// `export JOINIT_ACCESS_TOKEN=$(joinit-token ...)` works; everything else
// goes to standard error. The client secret and the authorization code are
// never printed or logged.
//
// Its files, bottom up (each uses only those above it):
//
//   - answer.go, browser.go, failure.go, idtoken.go, owner_*.go, secret.go,
//     version.go: a token endpoint's answer, the browser, the exit codes and
//     their error, the id_token's organization, who owns -out, the client
//     secret, the version;
//   - flags.go, output.go, words.go: the command line and its endpoints, the
//     token's output, what of a server's words and a run's secrets is shown;
//   - callback.go, exchange.go: the redirect's callback, the code's exchange;
//   - flow.go, main.go: the whole flow, and the process around it.
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
