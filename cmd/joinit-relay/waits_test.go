package main

import (
	"errors"
	"log/slog"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The waits a release runs with, written out: the tests of the built
// binary shorten them (testWaits), so this is where a changed wait fails a
// test until the test, and what the docs say of it, change with it. This
// test binary is built without the joinit_relay_test tag, as a release is,
// so it holds a release's values.
func TestTheRelaysWaitsAreTheProductionOnes(t *testing.T) {
	t.Parallel()
	srv := newHTTPServer(http.NotFoundHandler(), slog.New(slog.DiscardHandler))
	d := newDispatcher("GitHub", "token", nil)
	for _, c := range []struct {
		name      string
		got, want time.Duration
	}{
		{"the header timeout", srv.ReadHeaderTimeout, 5 * time.Second},
		{"the idle timeout", srv.IdleTimeout, 10 * time.Second},
		{"a request's read timeout", srv.ReadTimeout, 30 * time.Second},
		{"an answer's write timeout", srv.WriteTimeout, 30 * time.Second},
		{"the poll of owed.json", waits.poll, time.Second},
		{"the first backoff after a failed start", waits.retryMin, time.Second},
		{"the poll of the run lock", waits.runLockPoll, 250 * time.Millisecond},
		{"the first wait between a start's tries", d.client.RetryWaitMin, time.Second},
		{"an interrupted command's time to stop", waits.stopGrace, 30 * time.Second},
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got, c.want)
		}
	}
}

// A release never reads the tests' knobs: built as a release is (no tag),
// the relay starts with a JOINIT_RELAY_TEST_* variable that the test build
// refuses, so a tag dropped from waits_testbuild.go fails here.
func TestAReleaseIgnoresTheTestsWaits(t *testing.T) {
	t.Parallel()
	release := filepath.Join(t.TempDir(), "joinit-relay")
	if out, err := exec.Command("go", "build", "-o", release, ".").CombinedOutput(); err != nil {
		t.Fatalf("building a release of joinit-relay: %v\n%s", err, out)
	}
	const knob = "JOINIT_RELAY_TEST_IDLE_TIMEOUT=not-a-duration"
	for _, c := range []struct {
		name, binary string
		refuses      bool
	}{{"a release", release, false}, {"the test build", relayBinary, true}} {
		cmd := exec.Command(c.binary, "-version")
		cmd.Env = append(cmd.Environ(), knob)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		refused := errors.As(err, &exit) && exit.ExitCode() == exitUsage && strings.Contains(string(out), "JOINIT_RELAY_TEST_IDLE_TIMEOUT")
		if refused != c.refuses || (!c.refuses && err != nil) {
			t.Errorf("%s with %s: %v\n%s", c.name, knob, err, out)
		}
	}
}
