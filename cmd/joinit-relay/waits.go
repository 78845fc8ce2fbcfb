package main

import "time"

// waits are the relay's timeouts and intervals that its tests shorten. The
// relay runs with the values written here. Only a binary built with the
// joinit_relay_test tag, which the tests build (helpers_test.go) and a
// release never is, may replace them from JOINIT_RELAY_TEST_* variables
// (waits_testbuild.go): the tests of the built binary then make the same
// assertions in a fraction of a second rather than waiting these out.
// TestTheRelaysWaitsAreTheProductionOnes writes the values out again, so a
// changed wait fails a test until the test is changed with it.
var waits = struct {
	// idle is how long a keep-alive connection may wait for its next
	// request: the service opens one per webhook, so a long wait only
	// serves a sender holding connections open.
	idle time.Duration
	// readHeader is how long a connection has to send its headers: the
	// service's arrive at once.
	readHeader time.Duration
	// read is how long a connection has to send a whole request.
	read time.Duration
	// poll is how often the scheduler reads owed.json again: another
	// relay on the directory may have recorded a webhook, or died before
	// its run.
	poll time.Duration
	// retryMin is the wait after a failed start, doubled for each failure
	// in a row (schedule.go's backoff).
	retryMin time.Duration
	// runLockPoll is how often a start waiting for the run lock tries it
	// again (runlock_unix.go).
	runLockPoll time.Duration
	// dispatchWaitMin is the first wait between the tries of one start's
	// request, doubled for each try (dispatch.go).
	dispatchWaitMin time.Duration
	// stopGrace is how long an interrupted command has to stop before it
	// is killed (command.go); with -run-timeout, how long another relay
	// waits for the command's run lock before its start fails.
	stopGrace time.Duration
}{
	idle:            10 * time.Second,
	readHeader:      5 * time.Second,
	read:            30 * time.Second,
	poll:            time.Second,
	retryMin:        time.Second,
	runLockPoll:     250 * time.Millisecond,
	dispatchWaitMin: time.Second,
	stopGrace:       30 * time.Second,
}
