//go:build unix && !solaris && !aix

package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// takeRunLock waits until no earlier run holds -state-dir/run.lock and
// takes it. The command inherits the locked file (cmd.ExtraFiles), so the
// lock is held by the run's processes, not by the relay: a relay killed
// with SIGKILL leaves its command running and locked, and the relay
// started after it waits for that run to end before starting its own. A
// lock (flock) ends with the last process holding it, however it ends;
// a recorded process group would outlive its processes or be reused. The
// wait is bounded by wait (-run-timeout and the stop grace: an earlier
// run past that is stuck), then the start fails, and is retried.
func takeRunLock(ctx context.Context, dir string, wait time.Duration, log *slog.Logger) (*os.File, error) {
	f, err := openRegular(dir, runLockFile, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(wait)
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
		if time.Now().After(deadline) {
			f.Close()
			return nil, fmt.Errorf("an earlier run still holds it after %s (-run-timeout and its stop grace): end what holds it (fuser -v %s)", wait, filepath.Join(dir, runLockFile))
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

// releaseRunLock unlocks the lock's open file, for every process that
// inherited it.
func releaseRunLock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
