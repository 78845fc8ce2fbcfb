//go:build !unix || solaris || aix

package main

import (
	"context"
	"log/slog"
	"os"
	"time"
)

// takeRunLock takes no lock where there is no flock: a relay started again
// after a crash may start a run beside one its predecessor left running,
// and one directory must have one relay.
func takeRunLock(context.Context, string, time.Duration, *slog.Logger) (*os.File, error) {
	return nil, nil
}

func releaseRunLock(*os.File) {}

func lockFile(*os.File) error { return nil }

func unlockFile(*os.File) {}
