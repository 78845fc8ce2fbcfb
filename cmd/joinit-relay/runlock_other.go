//go:build !unix

package main

import (
	"context"
	"log/slog"
	"os"
)

// takeRunLock takes no lock where there is no flock: a relay started again
// after a crash may start a run beside one its predecessor left running.
func takeRunLock(context.Context, string, *slog.Logger) (*os.File, error) { return nil, nil }
