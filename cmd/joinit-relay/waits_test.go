package main

import (
	"log/slog"
	"net/http"
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
	} {
		if c.got != c.want {
			t.Errorf("%s: %s, want %s", c.name, c.got, c.want)
		}
	}
}
