package main

import (
	"errors"
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
