//go:build joinit_relay_test

package main

import (
	"fmt"
	"os"
	"time"
)

// This file is compiled only into the binary the tests build (go build
// -tags joinit_relay_test, in helpers_test.go's TestMain), never into a
// release: the JOINIT_RELAY_TEST_* variables are the tests' knobs, not the
// operator's, and a release binary does not read them. A test sets one to
// run an assertion about a wait (a connection closed after its idle
// timeout, a start retried after its backoff) in milliseconds.
func init() {
	for name, wait := range map[string]*time.Duration{
		"JOINIT_RELAY_TEST_IDLE_TIMEOUT":        &waits.idle,
		"JOINIT_RELAY_TEST_READ_HEADER_TIMEOUT": &waits.readHeader,
		"JOINIT_RELAY_TEST_READ_TIMEOUT":        &waits.read,
		"JOINIT_RELAY_TEST_POLL_INTERVAL":       &waits.poll,
		"JOINIT_RELAY_TEST_RETRY_MIN":           &waits.retryMin,
		"JOINIT_RELAY_TEST_RUN_LOCK_POLL":       &waits.runLockPoll,
		"JOINIT_RELAY_TEST_DISPATCH_WAIT_MIN":   &waits.dispatchWaitMin,
		"JOINIT_RELAY_TEST_STOP_GRACE":          &waits.stopGrace,
	} {
		v := os.Getenv(name)
		if v == "" {
			continue
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			fmt.Fprintf(os.Stderr, "joinit-relay (test build): %s=%q is not a positive duration\n", name, v)
			os.Exit(exitUsage)
		}
		*wait = d
	}
}
