package testutil

import (
	"testing"
	"time"
)

// hangLimit is how long Eventually waits before it calls a wait a hang. It
// is a limit on hangs, not a claim about speed: a condition reached late on
// a loaded machine still passes.
const hangLimit = 60 * time.Second

// Eventually polls cond until it holds, and fails the test, naming what it
// waited for, if it has not held within hangLimit. Tests wait on an event
// with it (a request logged, a file written, a run started) rather than
// sleeping a fixed time and hoping the event came. Not for a test inside
// synctest.Test: there the limit would run on the bubble's clock.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, hangLimit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
