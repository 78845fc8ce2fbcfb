//go:build unix

package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A relay killed with SIGKILL leaves its command running; the relay
// started again at once must not start a run beside it.
func TestRelayStartedAfterACrashWaitsForTheRunItLeft(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	times := filepath.Join(t.TempDir(), "times")
	// A slow run that says when it starts and ends.
	slow := `echo start $(date +%s.%N) >> "$RELAY_TEST_TIMES"; sleep 2; echo end $(date +%s.%N) >> "$RELAY_TEST_TIMES"; ` + appendRun
	o := relayOptions{stateDir: dir, env: []string{"RELAY_TEST_TIMES=" + times}}
	first := startRelay(t, o, "-quiet-period", "50ms", "-run-command", slow)
	if status, _ := post(t, first.hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
		t.Fatalf("answered %d, want 202", status)
	}
	read := func() []string {
		b, _ := os.ReadFile(times)
		return strings.Fields(string(b))
	}
	waitFor(t, "the first relay's run starts", func() bool { return len(read()) >= 2 })
	first.signal(syscall.SIGKILL)
	<-first.exited

	// The record stays (the run did not end): the second relay owes it.
	second := startRelay(t, o, "-quiet-period", "50ms", "-run-command", slow)
	waitFor(t, "the second relay's run ends", func() bool { return strings.Count(strings.Join(read(), " "), "end") == 2 })
	f := read() // start T end T start T end T
	if len(f) != 8 || f[0] != "start" || f[2] != "end" || f[4] != "start" {
		t.Fatalf("the runs' times: %v", f)
	}
	firstEnd, _ := strconv.ParseFloat(f[3], 64)
	secondStart, _ := strconv.ParseFloat(f[5], 64)
	if secondStart < firstEnd {
		t.Errorf("the second relay started its run %.2fs before the first relay's run ended: two runs overlapped", firstEnd-secondStart)
	}
	waitFor(t, "the wait is logged", func() bool {
		return strings.Contains(second.log.String(), "waiting for a run an earlier relay started")
	})
	second.waitIdle(100 * time.Millisecond)
}
