package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// openTwo opens two ledgers on one directory, as two relays sharing
// -state-dir do: each has its own descriptor of owed.lock.
func openTwo(t *testing.T) (a, b *ledger) {
	t.Helper()
	dir := t.TempDir()
	var err error
	if a, err = openLedger(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	if b, err = openLedger(dir, time.Now()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.owedLock.Close(); b.owedLock.Close() })
	return a, b
}

// The case: relay B accepts a webhook while relay A's run goes;
// A's success must not clear it.
func TestASuccessClearsOnlyWhatItsStartClaimed(t *testing.T) {
	t.Parallel()
	a, b := openTwo(t)
	t0 := time.Now().Add(-time.Minute) // in the past: a record from the future is read as owed since now
	if err := a.record(t0); err != nil {
		t.Fatal(err)
	}
	c, owed, err := a.begin(t0.Add(time.Second))
	if err != nil || !owed {
		t.Fatalf("begin: owed %v, %v", owed, err)
	}
	during := t0.Add(2 * time.Second)
	if err := b.record(during); err != nil {
		t.Fatal(err)
	}
	if err := a.finish(c, nil, t0.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := b.refresh(); err != nil {
		t.Fatal(err)
	}
	for name, l := range map[string]*ledger{"A": a, "B": b} {
		if st := l.snapshot(); !st.owedSince.Equal(during) {
			t.Errorf("relay %s after A's run: owed since %v, want %v (B's webhook during the run)", name, st.owedSince, during)
		}
	}
	// B serves it; A then finds nothing owed and starts nothing.
	c, owed, err = b.begin(t0.Add(4 * time.Second))
	if err != nil || !owed {
		t.Fatalf("B's begin: owed %v, %v", owed, err)
	}
	if err := b.finish(c, nil, t0.Add(5*time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, owed, _ := a.begin(t0.Add(6 * time.Second)); owed {
		t.Error("A started a run B's run had covered")
	}
	if _, err := os.Stat(filepath.Join(a.dir, owedFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("owed.json after both runs: %v", err)
	}
}

// Owed means owed until a run succeeds: through the start, a failed start,
// and a restart, owed_since stays the first webhook's time and failing_for
// its first failure's.
func TestOwedSinceAndFailingSurviveAStartAFailureAndARestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := openLedger(dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	first := time.Now().Add(-time.Minute).Round(0)
	if err := l.record(first); err != nil {
		t.Fatal(err)
	}
	_ = l.record(first.Add(time.Second))
	c, _, _ := l.begin(first.Add(2 * time.Second))
	if st := l.snapshot(); !st.owedSince.Equal(first) || !st.starting {
		t.Errorf("during the start: owed since %v, starting %v; want %v, true", st.owedSince, st.starting, first)
	}
	failed := first.Add(3 * time.Second)
	if err := l.finish(c, errors.New("answered 502"), failed); err != nil {
		t.Fatal(err)
	}
	l.owedLock.Close()
	again, err := openLedger(dir, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	defer again.owedLock.Close()
	st := again.snapshot()
	if !st.owedSince.Equal(first) || !st.failing.Equal(failed) {
		t.Errorf("after a failed start and a restart: owed since %v, failing since %v; want %v, %v", st.owedSince, st.failing, first, failed)
	}
	c, _, _ = again.begin(time.Now())
	if err := again.finish(c, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	if st := again.snapshot(); st.owed() || !st.failing.IsZero() {
		t.Errorf("after a successful start: owed since %v, failing since %v; want neither", st.owedSince, st.failing)
	}
}

// The backoff of a failing backend is the directory's, not a relay's: a
// failed start by either of two relays counts once more in the record,
// and the later retry holds. owed.json as a relay before it wrote it (no
// failures, no retry_at) is owed all the same, with no retry pending; a
// success clears them with the record.
func TestFailedStartsAreCountedInTheRecordForEveryRelay(t *testing.T) {
	t.Parallel()
	a, b := openTwo(t)
	t0 := time.Now().Add(-time.Hour).UTC().Round(time.Second)
	older := fmt.Sprintf(`{"id":"0123456789abcdef","webhooks":1,"owed_since":%q,"last_webhook":%q,"failing_since":%q}`,
		t0.Format(time.RFC3339Nano), t0.Format(time.RFC3339Nano), t0.Add(time.Minute).Format(time.RFC3339Nano))
	if err := os.WriteFile(filepath.Join(a.dir, owedFile), []byte(older), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := a.refresh(); err != nil {
		t.Fatal(err)
	}
	if st := a.snapshot(); !st.owedSince.Equal(t0) || !st.retryAt.IsZero() {
		t.Errorf("an older relay's record: owed since %v, retry at %v; want %v, none", st.owedSince, st.retryAt, t0)
	}
	wait := func(n int) time.Duration { return time.Duration(n) * time.Minute }
	now := time.Now()
	if err := a.retry("0123456789abcdef", now, wait); err != nil {
		t.Fatal(err)
	}
	if err := b.retry("0123456789abcdef", now.Add(time.Second), wait); err != nil {
		t.Fatal(err)
	}
	// A start of a record since replaced (its lock wait outlasted another
	// relay's run and a new webhook) and a shorter backoff (a Retry-After
	// of another relay's outlasts it) leave the record's retry as it is.
	if err := a.retry("fedcba9876543210", now.Add(2*time.Second), wait); err != nil {
		t.Fatal(err)
	}
	if err := a.retry("0123456789abcdef", now.Add(3*time.Second), func(int) time.Duration { return 0 }); err != nil {
		t.Fatal(err)
	}
	if err := a.refresh(); err != nil {
		t.Fatal(err)
	}
	rec, st := a.snapshotRecord(), a.snapshot()
	if want := now.Add(time.Second + 2*time.Minute); rec.Failures != 3 || !st.retryAt.Equal(want) || !st.failing.Equal(t0.Add(time.Minute)) {
		t.Errorf("after failed starts by each relay, one of another record's: %d failures, retry at %v, failing since %v; want 3, %v, %v", rec.Failures, st.retryAt, st.failing, want, t0.Add(time.Minute))
	}
	c, _, _ := b.begin(time.Now())
	_ = b.record(time.Now()) // during the start: the record stays, owed by the next run
	if err := b.finish(c, nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := a.refresh(); err != nil {
		t.Fatal(err)
	}
	if rec, st := a.snapshotRecord(), a.snapshot(); rec.Failures != 0 || !st.retryAt.IsZero() || !st.failing.IsZero() {
		t.Errorf("after a successful start: %d failures, retry at %v, failing since %v; want none", rec.Failures, st.retryAt, st.failing)
	}
}
