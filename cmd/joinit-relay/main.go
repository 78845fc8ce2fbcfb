// Command joinit-relay turns the Join It service's membership webhooks into
// the same sync run the schedule starts, so a member cancelled in Join It
// loses access within minutes rather than at the next scheduled plan.
//
// It never trusts a webhook's payload: the service signs nothing
// (API.md#no-signature), so a request only says "something changed". The relay records that a
// run is owed (on disk, before it answers 202), waits for the burst to end,
// and starts one run through one backend: a command, a GitHub Actions
// workflow_dispatch, or an HCP Terraform / Terraform Enterprise run. The
// run reads everything again through the provider, so a forged request
// costs at most one extra run, never a wrong change. Run it with -h for
// the flags.
//
// Its files, bottom up (each uses only those above it): waits (the
// timeouts its tests shorten), answer, bounds, event, triggers, statefiles (the names it keeps), statedir (its checks, repair and durable writes), group;
// command, runlock (the run and record locks); ledger (owed.json); health,
// metrics, receive; schedule; version, dispatch, github, tfe; flags, serve,
// main.
package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1 // the state directory or the listener failed
	exitUsage   = 2 // bad flags or environment
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run is the whole command; it returns the exit code.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	log := slog.New(slog.NewTextHandler(stderr, nil))
	cfg, err := parseConfig(args, getenv, stdout)
	if errors.Is(err, flag.ErrHelp) || errors.Is(err, errVersionShown) {
		return exitOK
	}
	if err != nil {
		log.Error("joinit-relay cannot start", "problem", err.Error())
		return exitUsage
	}
	if err := serve(ctx, cfg, log); err != nil {
		log.Error("joinit-relay stopped", "problem", err.Error())
		return exitFailure
	}
	return exitOK
}
