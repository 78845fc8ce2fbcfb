//go:build unix && !solaris && !aix

package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// timedRun is a run command that says when it starts and ends, by its
// process id, in $RELAY_TEST_TIMES, which relays on one directory share.
const timedRun = `id=$$; echo "start $id $(date +%s.%N)" >> "$RELAY_TEST_TIMES"; sleep 0.1; echo "end $id $(date +%s.%N)" >> "$RELAY_TEST_TIMES"`

// gatedRun is timedRun waiting at a gate (gate_test.go) instead of
// sleeping: it ends when the test opens the gate.
var gatedRun = strings.Replace(timedRun, "sleep 0.1", atGate, 1)

// span is one run, as the command saw it.
type span struct{ start, end float64 }

// runSpans reads the runs of timesFile, failing the test on a run that
// started and never ended.
func runSpans(t *testing.T, timesFile string) []span {
	t.Helper()
	b, _ := os.ReadFile(timesFile)
	byID := map[string]*span{}
	var ids []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		at, _ := strconv.ParseFloat(f[2], 64)
		if byID[f[1]] == nil {
			byID[f[1]] = &span{}
			ids = append(ids, f[1])
		}
		if f[0] == "start" {
			byID[f[1]].start = at
		} else {
			byID[f[1]].end = at
		}
	}
	var spans []span
	for _, id := range ids {
		if s := byID[id]; s.end == 0 {
			t.Errorf("run %s started at %.3f and never ended", id, s.start)
		} else {
			spans = append(spans, *s)
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	return spans
}

// checkRuns fails the test when two runs overlapped or a webhook answered
// 202 (sent at a time of sent) has no run that started after it.
func checkRuns(t *testing.T, spans []span, sent []time.Time) {
	t.Helper()
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			t.Errorf("two runs overlapped: one ran %.3f-%.3f, the next started at %.3f", spans[i-1].start, spans[i-1].end, spans[i].start)
		}
	}
	for i, at := range sent {
		sec := float64(at.UnixNano()) / 1e9
		if len(spans) == 0 || spans[len(spans)-1].start < sec {
			t.Errorf("webhook %d (sent at %.3f, answered 202) has no run that started after it; runs: %v", i, sec, spans)
		}
	}
}

// waitNothingOwed waits until none of the relays owes or starts a run and
// owed.json is gone.
func waitNothingOwed(t *testing.T, dir string, relays ...*relay) {
	t.Helper()
	testutil.Eventually(t, "nothing owed on the shared directory", func() bool {
		for _, r := range relays {
			if h := r.health(); h.RunOwed || h.Starting {
				return false
			}
		}
		_, err := os.Stat(filepath.Join(dir, owedFile))
		return errors.Is(err, os.ErrNotExist)
	})
}

// The case: a second relay on the first's directory accepts a
// webhook while the first's run goes. The first's success must not clear
// it: the first relay serves it (the second never starts a run on its own
// here), and a restart of the second finds nothing owed only after that.
// The runs wait at a gate, so the second webhook comes during the first
// run, and the record is read before a run could serve it.
func TestAWebhookToOneRelayDuringAnothersRunIsServed(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	times := filepath.Join(t.TempDir(), "times")
	g := newGate(t)
	o := relayOptions{stateDir: dir, env: []string{"RELAY_TEST_TIMES=" + times, g.env()}}
	a := startRelay(t, o, "-quiet-period", "100ms", "-run-command", gatedRun)
	b := startRelay(t, o, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", gatedRun)
	if status, _ := post(t, a.hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
		t.Fatalf("answered %d", status)
	}
	testutil.Eventually(t, "the first relay's run starts", func() bool { return a.health().Starting })
	during := time.Now()
	if status, _ := post(t, b.hookURL, membership("m2", "memberships.inactive")); status != http.StatusAccepted {
		t.Fatalf("the second relay answered %d during the first's run", status)
	}
	g.open(t)
	testutil.Eventually(t, "the first relay's run ends", func() bool { return strings.Count(readFile(times), "end") == 1 })
	// The record, not a relay's view of it (up to a poll old): a run that
	// serves the second webhook waits at the gate, and the record stays
	// until it ends.
	if _, err := os.Stat(filepath.Join(dir, owedFile)); err != nil {
		t.Errorf("after the first relay's run, owed.json: %v; the second relay's webhook is still owed", err)
	}
	g.open(t)
	testutil.Eventually(t, "a run after the second relay's webhook ends", func() bool { return strings.Count(readFile(times), "end") == 2 })
	b.signal(syscall.SIGKILL)
	<-b.exited
	waitNothingOwed(t, dir, a)
	checkRuns(t, runSpans(t, times), []time.Time{during})
}

// Two relays on one directory, webhooks to either at random moments, one
// of them SIGKILLed now and then and started again: every 202 is followed
// by a run that started after it, no two runs overlap, nothing is owed at
// the end. In rounds, each waited out: a later round's run would cover an
// earlier round's lost webhook. The moments are drawn from a seed, logged;
// JOINIT_RELAY_TEST_SEED=<seed> draws the same ones again (the machine's
// timing still varies: the assertions hold for any).
func TestTwoRelaysOnOneDirectoryKilledAtRandomLoseNoWebhook(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if v := os.Getenv("JOINIT_RELAY_TEST_SEED"); v != "" {
		var err error
		if seed, err = strconv.ParseUint(v, 10, 64); err != nil {
			t.Fatalf("JOINIT_RELAY_TEST_SEED=%q: %v", v, err)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 56))
	t.Logf("seed %d (JOINIT_RELAY_TEST_SEED=%d draws it again)", seed, seed)
	dir := t.TempDir()
	times := filepath.Join(t.TempDir(), "times")
	o := relayOptions{stateDir: dir, env: []string{"RELAY_TEST_TIMES=" + times}}
	start := func() *relay { return startRelay(t, o, "-quiet-period", "50ms", "-run-command", timedRun) }
	relays := []*relay{start(), start()}
	webhooks, kills := 0, 0
	for round := range 10 {
		var sent []time.Time
		for range 2 + rng.IntN(4) {
			k := rng.IntN(2)
			at := time.Now()
			if status, _ := post(t, relays[k].hookURL, membership(fmt.Sprintf("m%d", webhooks), "memberships.inactive")); status == http.StatusAccepted {
				sent = append(sent, at)
			} else {
				t.Errorf("round %d: a webhook answered %d", round, status)
			}
			webhooks++
			// A moment drawn, not a wait for an event: before, during or
			// after the quiet period (50 ms) and the run (0.1 s).
			time.Sleep(time.Duration(rng.IntN(150)) * time.Millisecond)
			if rng.IntN(5) == 0 {
				kills++
				k := rng.IntN(2)
				relays[k].signal(syscall.SIGKILL)
				<-relays[k].exited
				relays[k] = start()
			}
		}
		waitNothingOwed(t, dir, relays...)
		checkRuns(t, runSpans(t, times), sent)
		if t.Failed() {
			t.Fatalf("round %d failed (seed %d)", round, seed)
		}
	}
	t.Logf("%d webhooks, %d kills, %d runs", webhooks, kills, len(runSpans(t, times)))
}

// A relay killed after its 202 and never started again: the other relay
// on the directory finds the owed run (it reads owed.json every second)
// and serves it.
func TestARunOwedByADeadRelayIsServedByTheOther(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	times := filepath.Join(t.TempDir(), "times")
	o := relayOptions{stateDir: dir, env: []string{"RELAY_TEST_TIMES=" + times}}
	survivor := startRelay(t, o, "-quiet-period", "100ms", "-run-command", timedRun)
	dead := startRelay(t, o, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", timedRun)
	at := time.Now()
	if status, _ := post(t, dead.hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
		t.Fatalf("answered %d", status)
	}
	dead.signal(syscall.SIGKILL)
	<-dead.exited
	testutil.Eventually(t, "the other relay's run", func() bool { return strings.Count(readFile(times), "end") == 1 })
	waitNothingOwed(t, dir, survivor)
	checkRuns(t, runSpans(t, times), []time.Time{at})
}

// Two relays writing at once (owed.lock: unix only) never lose each other's webhooks: the count
// on disk is every webhook accepted.
func TestConcurrentWritersLoseNoWebhook(t *testing.T) {
	t.Parallel()
	a, b := openTwo(t)
	var wg sync.WaitGroup
	for i := range 200 {
		l := a
		if i%2 == 1 {
			l = b
		}
		wg.Go(func() {
			if err := l.record(time.Now()); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if err := a.refresh(); err != nil {
		t.Fatal(err)
	}
	if got := a.snapshotRecord().Webhooks; got != 200 {
		t.Errorf("owed.json counts %d webhooks, want 200", got)
	}
}

// countingBackend counts its starts.
type countingBackend struct{ starts int }

func (b *countingBackend) Start(context.Context, *os.File) error { b.starts++; return nil }
func (b *countingBackend) Longest() time.Duration                { return time.Second }
func (b *countingBackend) Describe() string                      { return "counting" }

// A relay that got the run lock after another relay took a webhook reads
// the record again: the other's webhook restarted the quiet period, so it
// starts nothing yet (a start now would be followed by a second run for
// the rest of the burst).
func TestAStartReadsTheRecordAgainOnceItHoldsTheRunLock(t *testing.T) {
	t.Parallel()
	a, b := openTwo(t)
	if err := a.record(time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := b.record(time.Now()); err != nil { // A has not read it
		t.Fatal(err)
	}
	backend := &countingBackend{}
	s := &scheduler{ledger: a, backend: backend, stateDir: a.dir, quietPeriod: 10 * time.Second, maxDelay: time.Hour, log: slog.New(slog.DiscardHandler)}
	if err := s.startOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	if backend.starts != 0 {
		t.Errorf("started %d runs inside the other relay's quiet period, want 0", backend.starts)
	}
}

// failingRun is a run command that fails, saying when it started in
// $RELAY_TEST_TIMES, which relays on one directory share.
const failingRun = `date +%s.%N >> "$RELAY_TEST_TIMES"; exit 1`

// startTimes reads the starts of timesFile, in order; a line still being
// written is left for the next read.
func startTimes(t *testing.T, timesFile string) []float64 {
	t.Helper()
	text := readFile(timesFile)
	var starts []float64
	for _, f := range strings.Fields(text[:strings.LastIndexByte(text, '\n')+1]) {
		at, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("a start's time %q: %v", f, err)
		}
		starts = append(starts, at)
	}
	sort.Float64s(starts)
	return starts
}

// A failing backend gets one schedule of starts from the relays on a
// directory, as from one relay, not one schedule each: after the n-th
// failed start in a row, whichever relay made it, no relay starts before
// the backoff of the n-th (100 ms, doubled each time, here; 1 s in a
// release). One relay, then two, are held to it: the starts' own times,
// as their commands wrote them, so a slow machine only makes the gaps
// longer. Each start's line is written before it fails, so each gap is at
// least the backoff counted from the end of the start before it.
func TestRelaysOnOneDirectoryRetryAFailingBackendOnOneSchedule(t *testing.T) {
	t.Parallel()
	const retryMin = 100 * time.Millisecond
	const starts = 6 // gaps of 100, 200, 400, 800 and 1600 ms or more
	for _, relays := range []int{1, 2} {
		t.Run(fmt.Sprintf("%d relays", relays), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			times := filepath.Join(t.TempDir(), "times")
			o := relayOptions{stateDir: dir, env: []string{"RELAY_TEST_TIMES=" + times, "JOINIT_RELAY_TEST_RETRY_MIN=" + retryMin.String()}}
			var rs []*relay
			for range relays {
				rs = append(rs, startRelay(t, o, "-quiet-period", "50ms", "-run-command", failingRun))
			}
			if status, _ := post(t, rs[0].hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
				t.Fatalf("answered %d", status)
			}
			testutil.Eventually(t, fmt.Sprintf("%d starts", starts), func() bool { return len(startTimes(t, times)) >= starts })
			at := startTimes(t, times)
			for n := 1; n < starts; n++ {
				gap := time.Duration((at[n] - at[n-1]) * 1e9)
				if want := retryMin << (n - 1); gap < want {
					t.Errorf("start %d came %s after start %d, failure %d in a row on the directory; want %s or more, its backoff", n+1, gap.Round(time.Millisecond), n, n, want)
				}
			}
			if t.Failed() {
				t.Logf("the starts, in seconds after the first: %.3f", offsets(at))
			}
		})
	}
}

// offsets are times in seconds after the first.
func offsets(at []float64) []float64 {
	var d []float64
	for _, a := range at {
		d = append(d, a-at[0])
	}
	return d
}

// A restarted relay says when a backoff the relays on its directory share
// lets the next start come: an operator who fixed a token sees why it
// waits.
func TestARestartedRelaySaysWhenTheSharedBackoffEnds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	now := time.Now().UTC()
	rec := fmt.Sprintf(`{"id":"0123456789abcdef","webhooks":1,"owed_since":%q,"last_webhook":%q,"failing_since":%q,"failures":3,"retry_at":%q}`,
		now.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano), now.Add(time.Hour).Format(time.RFC3339Nano))
	if err := os.WriteFile(filepath.Join(dir, owedFile), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startRelay(t, relayOptions{stateDir: dir}, "-run-command", appendRun)
	want := "failures=3 next_start_after=" + now.Add(time.Hour).Format(time.RFC3339)
	if !strings.Contains(r.log.String(), want) {
		t.Errorf("the start's log does not say %q:\n%s", want, r.log)
	}
}

// A retry_at further on than the longest wait a backend may ask (a day,
// written by a relay before the bound) is brought to an hour from the
// restart, in owed.json for every relay on the directory, and said.
func TestARestartedRelayBoundsARecordsFarRetry(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	now := time.Now().UTC()
	rec := fmt.Sprintf(`{"id":"0123456789abcdef","webhooks":1,"owed_since":%q,"last_webhook":%q,"failing_since":%q,"failures":1,"retry_at":%q}`,
		now.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano), now.Add(24*time.Hour).Format(time.RFC3339Nano))
	if err := os.WriteFile(filepath.Join(dir, owedFile), []byte(rec), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startRelay(t, relayOptions{stateDir: dir}, "-run-command", appendRun)
	listening := time.Now()
	var got owedRecord
	if err := json.Unmarshal([]byte(readFile(filepath.Join(dir, owedFile))), &got); err != nil {
		t.Fatalf("owed.json: %v", err)
	}
	if got.RetryAt.Before(now.Add(time.Hour)) || got.RetryAt.After(listening.Add(time.Hour)) {
		t.Errorf("owed.json's retry_at is %s after the restart, want an hour", got.RetryAt.Sub(now).Round(time.Second))
	}
	if want := "next_start_after=" + got.RetryAt.UTC().Format(time.RFC3339); !strings.Contains(r.log.String(), want) {
		t.Errorf("the start's log does not say %q", want)
	}
	if h := r.health(); h.NextStart == nil || !h.NextStart.Equal(got.RetryAt) {
		t.Errorf("/healthz next_start %v, want owed.json's retry_at %s", h.NextStart, got.RetryAt)
	}
}
