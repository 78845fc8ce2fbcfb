package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// A burst costs one run: the relay starts none while webhooks keep coming
// within the quiet period. A pause in the burst as long as the quiet
// period (a loaded machine's) starts a run by design, and the webhooks
// after it owe the next one, so the test allows one run more per pause it
// saw (pauses), and on an unloaded machine, with none, exactly one.
func TestBurstOfAThousandWebhooksStartsOneRunAndOneMorePerPause(t *testing.T) {
	t.Parallel()
	const quiet = time.Second
	r := startRelay(t, relayOptions{}, "-quiet-period", quiet.String(), "-max-delay", "1h", "-run-command", appendRun)
	hooks := burst(t, r.hookURL, 1000, 50)
	if len(hooks) != 1000 {
		t.Fatalf("%d of 1000 webhooks answered", len(hooks))
	}
	r.waitIdle()
	p := pauses(hooks, quiet)
	if n := r.runCount(); n < 1 || n > 1+p {
		t.Errorf("a burst of 1000 webhooks with %d pauses of a quarter of the quiet period started %d runs, want 1 to %d", p, n, 1+p)
	}
	t.Logf("%d runs, %d pauses", r.runCount(), p)
}

// Webhooks that come while a run goes owe the next run, and only one: the
// run waits at a gate until the test has sent them all.
func TestEventsDuringARunOweTheNextOne(t *testing.T) {
	t.Parallel()
	g := newGate(t)
	r := startRelay(t, relayOptions{env: []string{g.env()}}, "-quiet-period", "100ms", "-run-command", atGate+"; "+appendRun)
	if status, _ := post(t, r.hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
		t.Fatalf("answered %d, want 202", status)
	}
	testutil.Eventually(t, "the run starts", func() bool { return r.health().Starting })
	hooks := burst(t, r.hookURL, 200, 10) // while the command waits at the gate
	if len(hooks) != 200 {
		t.Fatalf("%d of 200 webhooks answered while a run was busy", len(hooks))
	}
	if h := r.health(); !h.RunOwed || !h.Starting {
		t.Errorf("during the run, after more events: run_owed %v, starting %v; want both", h.RunOwed, h.Starting)
	}
	g.open(t) // the first run
	g.open(t) // the one the burst owes
	r.waitIdle()
	if n := r.runCount(); n != 2 {
		t.Errorf("started %d runs, want 2: the first, and one for the events during it", n)
	}
}

// With -quiet-period equal to -max-delay, a steady stream never leaves the
// quiet period, so only -max-delay can start a run, and no sooner than
// -max-delay after the first webhook. A stream that paused (pauses) may
// have let the quiet period start it instead: then the test cannot tell,
// and tries again on a new relay.
func TestMaxDelayStartsTheRunWhileEventsKeepComing(t *testing.T) {
	t.Parallel()
	const wait = time.Second
	deadline := time.Now().Add(hang)
	for attempt := 1; ; attempt++ {
		r := startRelay(t, relayOptions{}, "-quiet-period", wait.String(), "-max-delay", wait.String(),
			"-run-command", `date +%s.%N >> "$RELAY_TEST_RUNS"`)
		var hooks []hookTiming
		for r.runCount() == 0 {
			if time.Now().After(deadline) {
				t.Fatalf("attempt %d: no run within %s of a steady stream with -max-delay %s (the attempts before paused)", attempt, hang, wait)
			}
			sent := time.Now()
			if status, _ := post(t, r.hookURL, membership("m1", "memberships.updated")); status != http.StatusAccepted {
				t.Fatalf("a webhook of the stream answered %d", status)
			}
			hooks = append(hooks, hookTiming{sent, time.Now()})
			time.Sleep(20 * time.Millisecond) // the stream's pace
		}
		seen := time.Now() // the stream, as far as the run could have seen it
		started := runStarts(t, r)[0]
		if first := hooks[0].sent; started.Before(first.Add(wait)) {
			t.Errorf("the run started %s after the first webhook, before -max-delay (%s)", started.Sub(first).Round(time.Millisecond), wait)
		}
		p := pauses(append(hooks, hookTiming{seen, seen}), wait)
		if p == 0 {
			t.Logf("attempt %d: a run %s after the first webhook of a stream without a pause", attempt, started.Sub(hooks[0].sent).Round(time.Millisecond))
			return
		}
		t.Logf("attempt %d: the stream paused %d times, which may have let the quiet period start the run; again", attempt, p)
		r.stopAndCheckLog() // one relay at a time: a loaded machine is what made it pause
	}
}

// runStarts are the times the runs of a `date +%s.%N >> "$RELAY_TEST_RUNS"`
// command started, in order.
func runStarts(t *testing.T, r *relay) []time.Time {
	t.Helper()
	var starts []time.Time
	for _, line := range strings.Fields(readFile(r.runs)) {
		sec, err := strconv.ParseFloat(line, 64)
		if err != nil {
			t.Fatalf("a run's start time %q: %v", line, err)
		}
		starts = append(starts, time.Unix(0, int64(sec*1e9)))
	}
	return starts
}

func TestRelayKilledAfter202StartsTheOwedRunWhenStartedAgain(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	first := startRelay(t, relayOptions{stateDir: dir}, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	if status, _ := post(t, first.hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
		t.Fatalf("answered %d, want 202", status)
	}
	first.signal(syscall.SIGKILL)
	<-first.exited

	second := startRelay(t, relayOptions{stateDir: dir}, "-quiet-period", "200ms", "-run-command", appendRun)
	testutil.Eventually(t, "the owed run starts after the restart", func() bool { return second.runCount() == 1 })
	second.waitIdle()
	if n := second.runCount(); n != 1 {
		t.Errorf("started %d runs after the restart, want 1", n)
	}
	if _, err := os.Stat(filepath.Join(dir, owedFile)); !os.IsNotExist(err) {
		t.Errorf("the owed record is still in -state-dir after the run started (%v)", err)
	}
}

func TestForgedRequestsStartNoRun(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "200ms", "-organization-id", testOrg, "-run-command", appendRun)
	_, unknownBody := post(t, r.url+"/no/such/path", "{}")
	other := strings.Replace(membership("m1", "memberships.inactive"), testOrg, "org-other", 1)
	noOrg := `{"_id":"m1","email":"` + testEmail + `","webhook_event_type":"memberships.inactive"}`
	huge := `{"_id":"m1","organization_id":"` + testOrg + `","pad":"` + strings.Repeat("x", maxBody) + `"}`
	cases := []struct {
		name, method, url, body string
		want                    int
	}{
		{"wrong secret", http.MethodPost, r.url + hookPrefix + strings.ToUpper(testSecret), membership("m1", "memberships.inactive"), http.StatusNotFound},
		{"secret's prefix", http.MethodPost, r.url + hookPrefix + testSecret[:31], membership("m1", "memberships.inactive"), http.StatusNotFound},
		{"path past the secret", http.MethodPost, r.hookURL + "/x", membership("m1", "memberships.inactive"), http.StatusNotFound},
		{"no secret", http.MethodPost, r.url + hookPrefix, membership("m1", "memberships.inactive"), http.StatusNotFound},
		{"GET", http.MethodGet, r.hookURL, "", http.StatusMethodNotAllowed},
		{"PUT", http.MethodPut, r.hookURL, membership("m1", "memberships.inactive"), http.StatusMethodNotAllowed},
		{"not JSON", http.MethodPost, r.hookURL, "email=" + testEmail, http.StatusBadRequest},
		{"empty", http.MethodPost, r.hookURL, "", http.StatusBadRequest},
		{"array", http.MethodPost, r.hookURL, "[" + membership("m1", "memberships.inactive") + "]", http.StatusBadRequest},
		{"null", http.MethodPost, r.hookURL, "null", http.StatusBadRequest},
		{"cut short", http.MethodPost, r.hookURL, `{"_id":"m1"`, http.StatusBadRequest},
		{"two objects", http.MethodPost, r.hookURL, membership("m1", "memberships.inactive") + "{}", http.StatusBadRequest},
		{"event type not a string", http.MethodPost, r.hookURL, `{"organization_id":"` + testOrg + `","webhook_event_type":7}`, http.StatusBadRequest},
		{"over 1 MiB", http.MethodPost, r.hookURL, huge, http.StatusRequestEntityTooLarge},
		{"another organization", http.MethodPost, r.hookURL, other, http.StatusForbidden},
		{"no organization", http.MethodPost, r.hookURL, noOrg, http.StatusForbidden},
		{"event outside -events", http.MethodPost, r.hookURL, membership("p1", "payments.created"), http.StatusAccepted},
	}
	for _, c := range cases {
		status, body := request(t, c.method, c.url, c.body)
		if status != c.want {
			t.Errorf("%s: answered %d, want %d (%s)", c.name, status, c.want, body)
		}
		if c.want == http.StatusNotFound && body != unknownBody {
			t.Errorf("%s: the 404 says %q, an unknown path %q: it must not tell a near miss", c.name, body, unknownBody)
		}
		if strings.Contains(body, testSecret) || strings.Contains(body, testEmail) {
			t.Errorf("%s: the answer echoes the secret or the e-mail: %s", c.name, body)
		}
	}
	r.waitIdle()
	if n := r.runCount(); n != 0 {
		t.Errorf("forged requests started %d runs, want 0\n%s", n, r.log)
	}
}

// Two webhooks in a row owe one run; a pause between them as long as the
// quiet period (a loaded machine's) may start one for each (pauses).
func TestBareMembershipObjectStartsARun(t *testing.T) {
	t.Parallel()
	const quiet = 400 * time.Millisecond
	r := startRelay(t, relayOptions{}, "-quiet-period", quiet.String(), "-organization-id", testOrg, "-run-command", appendRun)
	status, body, bare := postTimed(t, r.hookURL, membership("m1", ""))
	if status != http.StatusAccepted {
		t.Fatalf("a bare membership object answered %d, want 202: %s", status, body)
	}
	nullEvent := `{"_id":"m2","organization_id":"` + testOrg + `","webhook_event_type":null}`
	status, body, null := postTimed(t, r.hookURL, nullEvent)
	if status != http.StatusAccepted {
		t.Fatalf("a null webhook_event_type (any field can be null) answered %d, want 202: %s", status, body)
	}
	testutil.Eventually(t, "the run starts", func() bool { return r.runCount() >= 1 })
	r.waitIdle()
	if n, p := r.runCount(), pauses([]hookTiming{bare, null}, quiet); n < 1 || n > 1+p {
		t.Errorf("started %d runs, want 1 (to %d, with %d pauses)", n, 1+p, p)
	}
	if h := r.health(); h.LastStarted == nil {
		t.Errorf("/healthz has no last_started after a run started")
	}
}

func TestFailedCommandIsRetriedUntilItStarts(t *testing.T) {
	t.Parallel()
	// Fails on its first try, succeeds on its second.
	command := `n=$(cat "$RELAY_TEST_RUNS.tries" 2>/dev/null || echo 0); echo $((n+1)) > "$RELAY_TEST_RUNS.tries"; [ "$n" -ge 1 ] && ` + appendRun
	r := startRelay(t, relayOptions{}, "-quiet-period", "100ms", "-run-command", command)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the retried start succeeds", func() bool { return r.runCount() == 1 })
	testutil.Eventually(t, "the failed start is logged", func() bool { return strings.Contains(r.log.String(), "could not be started") })
	r.waitIdle()
	if n := r.runCount(); n != 1 {
		t.Errorf("started %d runs, want 1", n)
	}
}

func TestCommandRunsWithoutTheSecretAndItsOutputStaysOutOfTheLog(t *testing.T) {
	t.Parallel()
	// terraform apply prints members' addresses; the relay's log must not.
	r := startRelay(t, relayOptions{}, "-quiet-period", "50ms", "-run-command", `env > "$RELAY_TEST_RUNS.env" && echo "- `+testEmail+`" && `+appendRun)
	post(t, r.hookURL, membership("m1", "memberships.renewal"))
	testutil.Eventually(t, "the run starts", func() bool { return r.runCount() == 1 })
	env, err := os.ReadFile(r.runs + ".env")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(env), envSecret) || strings.Contains(string(env), testSecret) {
		t.Errorf("the command's environment holds %s", envSecret)
	}
	if !strings.Contains(string(env), "RELAY_TEST_RUNS=") {
		t.Errorf("the command's environment lost the relay's other variables:\n%s", env)
	}
	out, err := os.ReadFile(filepath.Join(r.stateDir, runOutputFile))
	if err != nil || string(out) != "- "+testEmail+"\n" {
		t.Errorf("-state-dir/%s holds %q (%v), want the command's output", runOutputFile, out, err)
	}
	if fi, err := os.Stat(filepath.Join(r.stateDir, runOutputFile)); err == nil && fi.Mode().Perm() != 0o600 {
		t.Errorf("the command's output file has mode %v, want 0600", fi.Mode().Perm())
	}
}

func TestSIGTERMDuringARunStopsCleanlyAndKeepsItOwed(t *testing.T) {
	t.Parallel()
	// The gate is never opened: only the interrupt ends the run.
	g := newGate(t)
	r := startRelay(t, relayOptions{env: []string{g.env()}}, "-quiet-period", "50ms", "-run-command", atGate+"; "+appendRun)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the run starts", func() bool { return r.health().Starting })
	r.signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(60 * time.Second):
		t.Fatal("no exit within 60s of SIGTERM")
	}
	if r.exitErr != nil {
		t.Errorf("exit after SIGTERM: %v, want 0\n%s", r.exitErr, r.log)
	}
	if _, err := os.Stat(filepath.Join(r.stateDir, owedFile)); err != nil {
		t.Errorf("the interrupted run is not owed in -state-dir after SIGTERM: %v", err)
	}
	if n := r.runCount(); n != 0 {
		t.Errorf("the interrupted command ran to its end")
	}
}

func TestAnEventThatCannotBeRecordedIsAnswered503(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "50ms", "-run-command", appendRun)
	// A directory where the record goes: the rename over it fails (as
	// root, which a read-only mode would not stop).
	if err := os.Mkdir(filepath.Join(r.stateDir, owedFile), 0o700); err != nil {
		t.Fatal(err)
	}
	if status, _ := post(t, r.hookURL, membership("m1", "memberships.inactive")); status != http.StatusServiceUnavailable {
		t.Errorf("an event that could not be recorded answered %d, want 503 (Join It then counts it failed)", status)
	}
	// The log comes through a pipe: it may reach the test after the answer.
	testutil.Eventually(t, "the failed write is logged", func() bool {
		return strings.Contains(r.log.String(), "could not be written to -state-dir")
	})
	if h := r.health(); h.RecordError == nil || !strings.Contains(*h.RecordError, owedFile) {
		t.Errorf("/healthz after a failed record: %+v; want record_error to say why", h)
	}
	// The event is owed in memory all the same: its run starts.
	testutil.Eventually(t, "the run for the unrecorded event starts", func() bool { return r.runCount() == 1 })
}

func TestRunTimeoutEndsTheCommandAndItsChildren(t *testing.T) {
	t.Parallel()
	// The child is a shell that outlives sh (in the background, the
	// interrupt does not reach it): it must be killed with its group when
	// sh returns, or it would append when its sleep ends, beside the next
	// run. Each child writes its process id first; the test checks that
	// every one is gone, rather than sleeping past their sleep.
	children := func(r *relay) []int {
		var pids []int
		for _, f := range strings.Fields(readFile(r.runs + ".children")) {
			if pid, err := strconv.Atoi(f); err == nil {
				pids = append(pids, pid)
			}
		}
		return pids
	}
	child := `sh -c 'echo $$ >> "$RELAY_TEST_RUNS.children"; sleep 120; echo run >> "$RELAY_TEST_RUNS"' & sleep 120`
	r := startRelay(t, relayOptions{}, "-quiet-period", "50ms", "-run-timeout", "300ms", "-run-command", child)
	t.Cleanup(func() { // a child the relay failed to kill must not outlive the test
		for _, pid := range children(r) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the first run's child starts", func() bool { return len(children(r)) > 0 })
	testutil.Eventually(t, "the timeout is logged", func() bool { return strings.Contains(r.log.String(), "ran past -run-timeout (300ms)") })
	if h := r.health(); !h.RunOwed && !h.Starting {
		t.Errorf("after a timed-out start the run is no longer owed")
	}
	r.signal(syscall.SIGTERM)
	<-r.exited
	for _, pid := range children(r) {
		testutil.Eventually(t, fmt.Sprintf("the run's child %d ends", pid), func() bool { return !processAlive(pid) })
	}
	if n := r.runCount(); n != 0 {
		t.Errorf("the interrupted command still ran to its end %d times", n)
	}
}

// processAlive says whether pid is a process that has not ended: a child
// the relay killed may stay a zombie until its new parent reaps it.
func processAlive(pid int) bool {
	if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
		// pid (comm) state ...: the state follows the last ')'.
		i := strings.LastIndexByte(string(b), ')')
		return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
	}
	return syscall.Kill(pid, 0) == nil
}

// What a sender chose reaches the log only as a trigger's name or an
// id-shaped _id: an e-mail or a forged line put in either does not.
func TestSenderChosenTextStaysOutOfTheLog(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{secrets: []string{"alice", "forged"}}, "-quiet-period", "50ms",
		"-events", "memberships.inactive,check_ins.all", "-run-command", appendRun)
	post(t, r.hookURL, membership("alice@example.com", "memberships.inactive"))
	post(t, r.hookURL, membership("alice.example.com", "memberships.inactive"))
	post(t, r.hookURL, membership("5f1b2c3d4e5f60718293a4b5", "check_ins.all\nlevel=ERROR msg=forged"))
	post(t, r.hookURL, membership("5f1b2c3d4e5f60718293a4b6", "memberships.all"))
	testutil.Eventually(t, "four webhooks logged", func() bool { return strings.Count(r.log.String(), "msg=\"webhook ") == 4 })
	log := r.log.String()
	for _, want := range []string{`event=memberships.inactive id="(not an id)"`, `event=(other) id=5f1b2c3d4e5f60718293a4b5`, `event=memberships.all id=5f1b2c3d4e5f60718293a4b6`} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %s:\n%s", want, log)
		}
	}
	if strings.Count(log, `id="(not an id)"`) != 2 {
		t.Errorf("an e-mail-shaped _id reached the log:\n%s", log)
	}
}

// A run that started but whose outcome cannot be written (the record
// turned unreadable under the relay) stays owed, and is started again
// after a failure's backoff: not at once, over and over. The backoff is
// 1 s, then 2 s, in a release (TestTheRelaysWaitsAreTheProductionOnes);
// 100 ms, then 200 ms, here. Its lower bounds are what is asserted, from
// the runs' own start times: a slow machine only makes the gaps longer.
func TestAStartWhoseOutcomeCannotBeWrittenIsRetriedWithBackoff(t *testing.T) {
	t.Parallel()
	const retryMin = 100 * time.Millisecond
	dir := t.TempDir()
	breakRecord := `rm -f "$RELAY_TEST_DIR/owed.json"; mkdir -p "$RELAY_TEST_DIR/owed.json"; date +%s.%N >> "$RELAY_TEST_RUNS"`
	r := startRelay(t, relayOptions{stateDir: dir, env: []string{"RELAY_TEST_DIR=" + dir, "JOINIT_RELAY_TEST_RETRY_MIN=" + retryMin.String()}},
		"-quiet-period", "50ms", "-run-command", breakRecord)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "three runs", func() bool { return r.runCount() >= 3 })
	starts := runStarts(t, r)
	for i, want := range []time.Duration{retryMin, 2 * retryMin} {
		if gap := starts[i+1].Sub(starts[i]); gap < want {
			t.Errorf("run %d started %s after run %d, whose outcome could not be written; want a backoff of %s or more between them", i+2, gap.Round(time.Millisecond), i+1, want)
		}
	}
	// The log comes through a pipe: it may reach the test after the runs.
	testutil.Eventually(t, "the failed write is logged", func() bool { return strings.Contains(r.log.String(), "the run stays owed") })
}
