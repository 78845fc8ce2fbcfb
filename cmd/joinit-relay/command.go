package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// commandBackend runs -run-command through sh -c. Its start is the whole
// run: the scheduler makes one start at a time, holding the run lock, and
// the command's process group is killed when it ends, so two never overlap.
type commandBackend struct {
	command  string
	timeout  time.Duration
	stateDir string
	env      []string // the command's environment: the relay's without its secret
}

func (b *commandBackend) Describe() string { return "command" }

// Longest is -run-timeout and the interrupted command's grace.
func (b *commandBackend) Longest() time.Duration { return b.timeout + waits.stopGrace }

// Start runs the command in b.env with -run-timeout, its output (standard
// output and error) written to -state-dir/last-run.log, replaced each run
// and readable by the relay's user only. The command's processes inherit
// runLock, held (runlock_unix.go; nil where there is no flock).
func (b *commandBackend) Start(ctx context.Context, runLock *os.File) error {
	out, err := openRegular(b.stateDir, runOutputFile, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("the command's output file: %w", err)
	}
	defer out.Close()
	// A file left readable by others (an older relay, a copy) is made the
	// relay's own before a run's addresses go in it.
	if err := errors.Join(out.Chmod(0o600), out.Truncate(0)); err != nil {
		return fmt.Errorf("the command's output file: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", b.command)
	cmd.Env = b.env
	cmd.Stdout, cmd.Stderr = out, out
	if runLock != nil {
		cmd.ExtraFiles = []*os.File{runLock} // the run's processes hold the lock (runlock_unix.go)
	}
	interruptGroup(cmd)
	// After the interrupt, the command has this long to stop (Terraform
	// releases its state lock) before it is killed.
	cmd.WaitDelay = waits.stopGrace
	err = cmd.Run()
	killGroup(cmd) // what it left running would overlap the next run
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("the command ran past -run-timeout (%s) and was interrupted; its output is in -state-dir/%s", b.timeout, runOutputFile)
	case err != nil:
		return fmt.Errorf("the command failed (%w); its output is in -state-dir/%s", err, runOutputFile)
	}
	return nil
}

// environWithout is env less the variables named.
func environWithout(env []string, names ...string) []string {
	out := env[:0:0]
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		keep := true
		for _, n := range names {
			if name == n {
				keep = false
			}
		}
		if keep {
			out = append(out, kv)
		}
	}
	return out
}
