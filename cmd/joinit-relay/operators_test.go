package main

import (
	"bytes"
	"cmp"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// What an operator's alerts read stays true while starts fail: a backend
// that fails, with a restart in the middle. The run is owed, since the
// first webhook, failing since the first failure, and the owed seconds
// never read less than the time since the webhook was answered, until a
// start succeeds. Each start waits at a gate, so the test samples while it
// goes and after it failed, whatever the machine's speed; the restart
// interrupts a start. Starts fail for at least failFor (failing_for counts
// whole seconds): long enough for it to count up across the restart.
func TestOwedStaysOwedThroughFailingStartsAndARestart(t *testing.T) {
	t.Parallel()
	const failFor = 2 * time.Second
	dir := t.TempDir()
	ok := filepath.Join(t.TempDir(), "ok")
	starts := filepath.Join(t.TempDir(), "starts")
	g := newGate(t)
	o := relayOptions{stateDir: dir, env: []string{"RELAY_TEST_OK=" + ok, "RELAY_TEST_STARTS=" + starts, g.env()}}
	args := []string{"-quiet-period", "50ms", "-run-command", `echo start >> "$RELAY_TEST_STARTS"; ` + atGate + `; test -e "$RELAY_TEST_OK" && ` + appendRun}
	r := startRelay(t, o, args...)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	answered := time.Now()
	first := r.health().OwedSince
	if first == nil {
		t.Fatal("no owed_since after a 202")
	}
	var failingSeen time.Time // when the test saw the first failure: no sooner than the relay's
	var failingBefore time.Duration
	restarted := false
	samples, inStart := 0, 0
	sample := func(when string) {
		t.Helper()
		samples++
		// Read before the relay reads its clock, so a stall after it only
		// makes the relay's figures larger.
		floor, failingFloor := time.Since(answered), time.Since(failingSeen)
		h := r.health()
		owedSeconds := metricValue(r.scrape(t), "joinit_relay_run_owed_seconds")
		if h.Starting {
			inStart++
		}
		if !h.RunOwed || h.OwedSince == nil || !h.OwedSince.Equal(*first) || owedSeconds < floor.Seconds() {
			t.Fatalf("%s (restarted: %v): run_owed %v, owed_since %v (first webhook %v), owed seconds %v (since the 202: at least %v)", when, restarted, h.RunOwed, h.OwedSince, first, owedSeconds, floor.Seconds())
		}
		if failingSeen.IsZero() {
			return
		}
		if h.FailingFor == nil {
			t.Fatalf("%s (restarted: %v): failing_for unset after a failed start", when, restarted)
		}
		d, _ := time.ParseDuration(*h.FailingFor)
		if d < failingBefore {
			t.Fatalf("%s: failing_for went back from %s to %s (restarted: %v)", when, failingBefore, d, restarted)
		}
		// Rounded to the second by the relay: at most half a second short.
		if least := failingFloor - time.Second/2; d < least {
			t.Fatalf("%s: failing_for %s, want %s or more: the first failure was seen %s before the request (restarted: %v)", when, d, least.Round(time.Millisecond), failingFloor.Round(time.Millisecond), restarted)
		}
		failingBefore = d
	}
	startsMade := func() int { return strings.Count(readFile(starts), "start") }
	failedStarts := func() int { return strings.Count(r.log.String(), "could not be started") }
	fail := func(n int) { // lets start n fail, once it waits at the gate
		t.Helper()
		testutil.Eventually(t, fmt.Sprintf("start %d", n), func() bool { return startsMade() == n })
		sample(fmt.Sprintf("in start %d", n))
		failed := failedStarts()
		g.open(t)
		testutil.Eventually(t, fmt.Sprintf("start %d's failure is logged", n), func() bool { return failedStarts() > failed })
		if failingSeen.IsZero() {
			failingSeen = time.Now()
		}
		sample(fmt.Sprintf("after start %d failed", n))
	}
	fail(1)
	fail(2)
	// failing_for reads a whole second before the restart, so one that
	// began again at the restart would read less after it.
	testutil.Eventually(t, "failing_for of a second", func() bool {
		f := r.health().FailingFor
		d, _ := time.ParseDuration(*cmp.Or(f, new(string)))
		return d >= time.Second
	})
	sample("before the restart")
	// The restart interrupts start 3 as it waits at the gate.
	testutil.Eventually(t, "start 3", func() bool { return startsMade() == 3 })
	sample("in start 3")
	r.signal(syscall.SIGTERM)
	<-r.exited
	r = startRelay(t, o, args...)
	restarted = true
	sample("after the restart")
	fail(4)
	testutil.Eventually(t, "starts failing for "+failFor.String(), func() bool {
		return time.Since(failingSeen) >= failFor
	})
	fail(5)
	if failingBefore < failFor-time.Second/2 {
		t.Errorf("failing_for at the end: %s, want %s or more", failingBefore, failFor-time.Second/2)
	}
	// A start waits at the gate until the test has sampled it: starting
	// must read true in each of the five.
	if inStart < 5 {
		t.Errorf("%d of %d samples read a start going, want 5 or more (one in each start made)", inStart, samples)
	}
	if err := os.WriteFile(ok, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	g.open(t)
	testutil.Eventually(t, "the run starts once the backend works", func() bool { return r.runCount() == 1 })
	r.waitIdle()
	if h := r.health(); h.OwedSince != nil || h.FailingFor != nil {
		t.Errorf("after a successful start: %+v", h)
	}
	if v := metricValue(r.scrape(t), "joinit_relay_run_owed_seconds"); v != 0 {
		t.Errorf("owed seconds after a successful start: %v", v)
	}
	t.Logf("%d samples, %d in a start", samples, inStart)
}

// A sender with an old secret is counted and logged, at most once a
// minute, without any part of its path.
func TestWrongSecretsAreCountedAndLogged(t *testing.T) {
	t.Parallel()
	old := "old-secret-0123456789abcdefghijklmnopq"
	r := startRelay(t, relayOptions{secrets: []string{old}}, "-quiet-period", "50ms", "-run-command", appendRun)
	for range 5 {
		if status, _ := post(t, r.url+hookPrefix+old, membership("m1", "memberships.inactive")); status != http.StatusNotFound {
			t.Fatalf("a wrong secret answered %d, want 404", status)
		}
	}
	post(t, r.url+"/elsewhere", "{}") // not under /hooks/: not counted
	m := r.scrape(t)
	if v := metricValue(m, "joinit_relay_wrong_secret_total"); v != 5 {
		t.Errorf("joinit_relay_wrong_secret_total: %v, want 5", v)
	}
	if strings.Contains(m, "old-secret") {
		t.Error("/metrics holds the wrong secret")
	}
	testutil.Eventually(t, "the wrong secret is logged", func() bool { return strings.Contains(r.log.String(), "with a wrong secret") })
	if n := strings.Count(r.log.String(), "with a wrong secret"); n != 1 {
		t.Errorf("%d log lines for five wrong secrets within a minute, want 1:\n%s", n, r.log)
	}
	if !strings.Contains(r.log.String(), "count=1 sender=127.0.0.1") {
		t.Errorf("the line does not say the count and the sender:\n%s", r.log)
	}
}

// The requests within a minute of a logged one are counted in the next.
func TestWrongSecretsAreLoggedOnceAMinuteWithTheirCount(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	log := slog.New(slog.NewTextHandler(&buf, nil))
	var s wrongSecrets
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, after := range []time.Duration{0, time.Second, 30 * time.Second, 59 * time.Second, 61 * time.Second, 62 * time.Second} {
		s.note("192.0.2.7:51000", t0.Add(after), log)
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "count=1 sender=192.0.2.7") || !strings.Contains(lines[1], "count=4 sender=192.0.2.7") {
		t.Errorf("six wrong secrets over 62 s logged as:\n%s\nwant two lines, count=1 then count=4", buf.String())
	}
}

func TestStartUpLineSaysWhatIsInEffect(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "7s", "-max-delay", "2m", "-events", "check_ins.all,memberships.inactive", "-run-command", appendRun)
	want := regexp.MustCompile(`msg=listening addr=127\.0\.0\.1:\d+ events=memberships\.inactive,check_ins\.all quiet_period=7s max_delay=2m0s backend=command state_dir=` + regexp.QuoteMeta(r.stateDir) + `\n`)
	if !want.MatchString(r.log.String()) {
		t.Errorf("the start-up line does not say what is in effect:\n%s", r.log)
	}
}

// -metrics-listen keeps /metrics off the webhook's port; /healthz is on both.
func TestMetricsListenServesMetricsOnItsOwnAddressOnly(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-metrics-listen", "127.0.0.1:0", "-quiet-period", "50ms", "-run-command", appendRun)
	m := regexp.MustCompile(`msg="serving /metrics and /healthz" addr=(\S+)`).FindStringSubmatch(r.log.String())
	if m == nil {
		t.Fatalf("no line names -metrics-listen's address:\n%s", r.log)
	}
	private := "http://" + m[1]
	if status, _ := request(t, http.MethodGet, r.url+"/metrics", ""); status != http.StatusNotFound {
		t.Errorf("/metrics on -listen answered %d, want 404", status)
	}
	if status, body := request(t, http.MethodGet, private+"/metrics", ""); status != http.StatusOK || !strings.Contains(body, "joinit_relay_run_owed_seconds") {
		t.Errorf("/metrics on -metrics-listen answered %d", status)
	}
	for _, base := range []string{r.url, private} {
		if status, _ := request(t, http.MethodGet, base+"/healthz", ""); status != http.StatusOK {
			t.Errorf("%s/healthz answered %d", base, status)
		}
	}
	if status, _ := post(t, private+hookPrefix+testSecret, membership("m1", "memberships.inactive")); status != http.StatusNotFound {
		t.Errorf("the webhook on -metrics-listen answered %d, want 404", status)
	}
}
