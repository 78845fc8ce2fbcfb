package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// commandBackend runs -run-command through sh -c. Its start is the whole
// run: the scheduler makes one start at a time, so two never overlap.
type commandBackend struct {
	command string
	timeout time.Duration
}

func (b *commandBackend) Describe() string { return "command" }

// Start runs the command with -run-timeout. Its output goes to the relay's
// standard error as the command writes it: what it prints is the command's
// own (a sync command should not print members' data). The environment is
// the relay's without JOINIT_RELAY_SECRET.
func (b *commandBackend) Start(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", b.command)
	cmd.Env = environWithout(os.Environ(), envSecret)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	interruptGroup(cmd)
	// After the interrupt, the command has this long to stop (Terraform
	// releases its state lock) before it is killed.
	cmd.WaitDelay = 30 * time.Second
	err := cmd.Run()
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return fmt.Errorf("the command ran past -run-timeout (%s) and was interrupted", b.timeout)
	case err != nil:
		return fmt.Errorf("the command failed: %w", err)
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
