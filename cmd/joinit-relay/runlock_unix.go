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

// takeRunLock waits until no other run holds -state-dir/run.lock and
// takes it: every start is made holding it, so two relays on one
// directory never start at once. The command inherits the locked file
// (cmd.ExtraFiles), so the lock is held by the run's processes, not only
// by the relay: a relay killed with SIGKILL leaves its command running and
// locked, and the relay started after it waits for that run to end before
// starting its own. A lock (flock) ends with the last process holding it,
// however it ends; a recorded process group would outlive its processes or
// be reused. The wait is bounded by wait (a run past that is stuck), then
// the start fails, and is retried.
func takeRunLock(ctx context.Context, dir string, wait time.Duration, log *slog.Logger) (*os.File, error) {
	f, err := openRegular(dir, runLockFile, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	err = flockWithin(ctx, f, wait, waits.runLockPoll, func() {
		log.Info("waiting for another run to end: its processes hold -state-dir/" + runLockFile + " (an earlier relay's run, or another relay's on this directory)")
	})
	if err == nil {
		return f, nil
	}
	f.Close()
	if errors.Is(err, errLockHeld) {
		return nil, fmt.Errorf("another run still holds it after %s: end what holds it (fuser -v %s)", wait, filepath.Join(dir, runLockFile))
	}
	return nil, err
}

// releaseRunLock unlocks the lock's open file, for every process that
// inherited it.
func releaseRunLock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }

// recordLockWait bounds the wait for owed.lock: its holders keep it for
// one write, so a holder past this is stopped (a paused container), and a
// wait without end would hold up every webhook and the shutdown.
const recordLockWait = 10 * time.Second

// lockFile takes an exclusive lock on f, waiting at most recordLockWait.
func lockFile(f *os.File) error {
	err := flockWithin(context.Background(), f, recordLockWait, 5*time.Millisecond, nil)
	if errors.Is(err, errLockHeld) {
		return fmt.Errorf("another process has held it for %s (a relay stopped, or paused, mid-write?)", recordLockWait)
	}
	return err
}

// errLockHeld is flockWithin's error when another process held the lock
// for all of the wait.
var errLockHeld = errors.New("lock held past the wait")

// flockWithin takes an exclusive flock on f, trying again every poll
// while another process holds it, for at most wait (then errLockHeld) or
// until ctx ends. held, when set, is called once, when the lock is first
// found held.
func flockWithin(ctx context.Context, f *os.File, wait, poll time.Duration, held func()) error {
	deadline := time.Now().Add(wait)
	for first := true; ; first = false {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if time.Now().After(deadline) {
			return errLockHeld
		}
		if first && held != nil {
			held()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		}
	}
}

func unlockFile(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
