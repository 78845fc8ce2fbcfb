//go:build unix

package main

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"syscall"
	"time"
)

// takeRunLock waits until no earlier run holds -state-dir/run.lock and
// takes it. The command inherits the locked file (cmd.ExtraFiles), so the
// lock is held by the run's processes, not by the relay: a relay killed
// with SIGKILL leaves its command running and locked, and the relay
// started after it waits for that run to end before starting its own. A
// lock (flock) ends with the last process holding it, however it ends;
// a recorded process group would outlive its processes or be reused.
func takeRunLock(ctx context.Context, dir string, log *slog.Logger) (*os.File, error) {
	f, err := openRegular(dir, runLockFile, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	logged := false
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, err
		}
		if !logged {
			log.Warn("waiting for a run an earlier relay started: its processes still hold -state-dir/" + runLockFile)
			logged = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}
