package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// gate is where a test's run command waits until the test lets it go: a
// run that must still be going when the test acts (sends webhooks, kills
// its relay) waits on the test, not on a sleep a loaded machine can
// outlast. It is a file: the test creates it, and the run that goes
// through removes it, so each opening lets one run through.
type gate struct{ path string }

func newGate(t testing.TB) gate { return gate{filepath.Join(t.TempDir(), "gate")} }

// env names the gate to run commands: relayOptions.env.
func (g gate) env() string { return "RELAY_TEST_GATE=" + g.path }

// atGate is the shell that waits at the gate and goes through once it is
// opened (rm succeeds for one waiter only).
const atGate = `while ! rm "$RELAY_TEST_GATE" 2>/dev/null; do sleep 0.01; done`

// open lets the next run through, once the run the last opening let
// through has gone (an opening is one run, never two).
func (g gate) open(t testing.TB) {
	t.Helper()
	testutil.Eventually(t, "the last opening of the gate used", func() bool {
		_, err := os.Stat(g.path)
		return errors.Is(err, fs.ErrNotExist)
	})
	if err := os.WriteFile(g.path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}
