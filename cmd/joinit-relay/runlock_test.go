//go:build unix && !solaris && !aix

package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// A relay killed with SIGKILL leaves its command running; the relay
// started again at once must not start a run beside it. The runs wait at a
// gate: the first is let go only once the second relay has said it waits.
func TestRelayStartedAfterACrashWaitsForTheRunItLeft(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	times := filepath.Join(t.TempDir(), "times")
	g := newGate(t)
	// A run that says when it starts and ends.
	slow := `echo "output of a run"; echo start $(date +%s.%N) >> "$RELAY_TEST_TIMES"; ` + atGate + `; echo end $(date +%s.%N) >> "$RELAY_TEST_TIMES"; ` + appendRun
	o := relayOptions{stateDir: dir, env: []string{"RELAY_TEST_TIMES=" + times, g.env()}}
	first := startRelay(t, o, "-quiet-period", "50ms", "-run-command", slow)
	if status, _ := post(t, first.hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
		t.Fatalf("answered %d, want 202", status)
	}
	read := func() []string {
		b, _ := os.ReadFile(times)
		return strings.Fields(string(b))
	}
	testutil.Eventually(t, "the first relay's run starts", func() bool { return len(read()) >= 2 })
	first.signal(syscall.SIGKILL)
	<-first.exited

	// The record stays (the run did not end): the second relay owes it.
	second := startRelay(t, o, "-quiet-period", "50ms", "-run-command", slow)
	testutil.Eventually(t, "the wait is logged", func() bool {
		return strings.Contains(second.log.String(), "waiting for another run to end")
	})
	g.open(t) // the first relay's run
	g.open(t) // the second relay's
	testutil.Eventually(t, "the second relay's run ends", func() bool { return strings.Count(strings.Join(read(), " "), "end") == 2 })
	f := read() // start T end T start T end T
	if len(f) != 8 || f[0] != "start" || f[2] != "end" || f[4] != "start" {
		t.Fatalf("the runs' times: %v", f)
	}
	firstEnd, _ := strconv.ParseFloat(f[3], 64)
	secondStart, _ := strconv.ParseFloat(f[5], 64)
	if secondStart < firstEnd {
		t.Errorf("the second relay started its run %.2fs before the first relay's run ended: two runs overlapped", firstEnd-secondStart)
	}
	second.waitIdle()
}

// While the second relay waits, the first relay's run still writes its
// output: the wait must not have emptied it. The first run waits at a gate
// twice: once the second relay waits (so it writes while it waits), and
// once its output is read (so the second run cannot replace it before).
func TestRelayWaitingForAnEarlierRunLeavesItsOutput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := newGate(t)
	slow := `echo "the first run began"; ` + atGate + `; echo "the first run ended"; ` + atGate + `; ` + appendRun
	first := startRelay(t, relayOptions{stateDir: dir, env: []string{g.env()}}, "-quiet-period", "50ms", "-run-command", slow)
	post(t, first.hookURL, membership("m1", "memberships.inactive"))
	output := func() string { b, _ := os.ReadFile(filepath.Join(dir, runOutputFile)); return string(b) }
	testutil.Eventually(t, "the first run writes", func() bool { return strings.Contains(output(), "the first run began") })
	first.signal(syscall.SIGKILL)
	<-first.exited
	second := startRelay(t, relayOptions{stateDir: dir}, "-quiet-period", "50ms", "-run-command", "echo the second run")
	testutil.Eventually(t, "the second relay waits", func() bool {
		return strings.Contains(second.log.String(), "waiting for another run to end")
	})
	g.open(t)
	testutil.Eventually(t, "the first run writes again", func() bool { return strings.Contains(output(), "the first run ended") })
	if out := output(); out != "the first run began\nthe first run ended\n" {
		t.Errorf("the first run's output while the second relay waited: %q", out)
	}
	g.open(t)
	testutil.Eventually(t, "the second run replaces it", func() bool { return output() == "the second run\n" })
}

// A process the command leaves outside its group keeps the inherited lock
// descriptor: the relay releases the lock itself, so the next run starts.
// The command ends only once its daemon has left the group (the daemon
// writes its process id after setsid, to a file named by the run's shell):
// one still in it would be killed with the group and take the lock with
// it, relay or no relay.
func TestALeftoverDaemonDoesNotHoldTheNextRunBack(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	daemons := func() []int {
		var pids []int
		files, _ := filepath.Glob(filepath.Join(dir, "*"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	t.Cleanup(func() {
		for _, pid := range daemons() {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	// The daemon outlives the test: only the relay's release lets the
	// second run start without waiting for the lock.
	command := `setsid sh -c 'echo $$ > "$0"; exec sleep 60' "$RELAY_TEST_DAEMONS/$$" & ` +
		`while [ ! -s "$RELAY_TEST_DAEMONS/$$" ]; do sleep 0.01; done; ` + appendRun
	r := startRelay(t, relayOptions{env: []string{"RELAY_TEST_DAEMONS=" + dir}}, "-quiet-period", "50ms", "-run-command", command)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the first run", func() bool { return r.runCount() == 1 })
	r.waitIdle()
	first := daemons()
	if len(first) != 1 {
		t.Fatalf("the first run left %d daemons, want 1", len(first))
	}
	post(t, r.hookURL, membership("m2", "memberships.inactive"))
	// A start that finds the lock held says so before it waits
	// (takeRunLock): the line, or the second start's end, logged after it
	// would have been, decides the test, not a time.
	waited := func() bool { return strings.Contains(r.log.String(), "waiting for another run to end") }
	testutil.Eventually(t, "the second run, or a wait for the lock", func() bool {
		return strings.Count(r.log.String(), `msg="the sync run started"`) == 2 || waited()
	})
	if waited() {
		t.Errorf("the second start found the run lock held by the first run's daemon")
	}
	if n := r.runCount(); n != 2 {
		t.Errorf("%d runs after the second start, want 2", n)
	}
	if err := syscall.Kill(first[0], 0); err != nil {
		t.Errorf("the first run's daemon was gone by the second run (%v): it held no lock to release", err)
	}
}

// A start that waited out the run lock failed, as a failed run does:
// /healthz's failing_for counts it (owed.json keeps it for every relay on
// the directory), until a start succeeds. The first relay's run holds the
// lock at a gate; the second, started then, waits for it -run-timeout and
// an interrupted command's time to stop (here 50 ms and 50 ms), and fails.
func TestAStartThatWaitedOutTheRunLockCountsAsFailing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := newGate(t)
	o := relayOptions{stateDir: dir, env: []string{g.env(), "JOINIT_RELAY_TEST_STOP_GRACE=50ms"}}
	holder := startRelay(t, o, "-quiet-period", "50ms", "-run-command", atGate+"; "+appendRun)
	if status, _ := post(t, holder.hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
		t.Fatalf("answered %d", status)
	}
	testutil.Eventually(t, "the first relay's run starts", func() bool { return holder.health().Starting })
	// Started now, the second relay finds the run owed, and the lock held.
	waiter := startRelay(t, o, "-quiet-period", "50ms", "-run-timeout", "50ms", "-run-command", appendRun)
	// The failure is recorded before it is logged.
	testutil.Eventually(t, "the second relay's wait for the run lock fails", func() bool {
		return strings.Contains(waiter.log.String(), "another run still holds it")
	})
	if h := waiter.health(); h.FailingFor == nil {
		t.Errorf("after a start that waited out the run lock, /healthz: failing_for null, run_owed %v; want failing_for set", h.RunOwed)
	}
	g.open(t)
	testutil.Eventually(t, "the first relay's run", func() bool { return holder.runCount() == 1 })
	waitNothingOwed(t, dir, holder, waiter)
	for _, r := range []*relay{holder, waiter} {
		if h := r.health(); h.FailingFor != nil {
			t.Errorf("after a successful run, failing_for %s", *h.FailingFor)
		}
	}
	if n := waiter.runCount(); n != 0 {
		t.Errorf("the second relay ran %d runs; the first relay's covered the webhook", n)
	}
}
