package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"time"
)

// owedFile is the record of an owed run in -state-dir: present while a run
// is owed, removed once a start covering every accepted event succeeded.
const owedFile = "owed.json"

// ledger is the relay's one piece of state: whether a run is owed. An
// accepted event is on disk (written, fsynced, renamed, directory fsynced)
// before record returns, so a relay killed at any moment and started again
// still starts the owed run.
//
// Writes are grouped: a request that finds a write in progress waits for it
// and then writes once for every request that arrived meanwhile, so a burst
// costs a few fsyncs, not one per request.
type ledger struct {
	dir  string
	wake chan struct{} // cap 1: the scheduler's "something changed"

	mu          sync.Mutex
	events      uint64    // events accepted so far
	owedSince   time.Time // the first event no started run covers; zero: none owed
	lastEvent   time.Time
	lastStarted time.Time // when the last start succeeded
	failing     time.Time // when the current run of failed starts began; zero: none
	starting    bool      // a start is being made
	recordErr   string    // why the last event could not be written; "" once one is

	writeMu sync.Mutex
	written uint64 // events the file on disk covers
}

// onDisk is the content of owedFile.
type onDisk struct {
	OwedSince time.Time `json:"owed_since"`
}

// openLedger reads an owed run left by an earlier relay in the state
// directory (openStateDir checked it). Its quiet period counts from now:
// the events before the restart are over.
func openLedger(dir string, now time.Time) (*ledger, error) {
	l := &ledger{dir: dir, wake: make(chan struct{}, 1)}
	// Temporary files of writes a crash cut short, before their rename.
	if left, err := filepath.Glob(filepath.Join(dir, "."+owedFile+"-*")); err == nil {
		for _, f := range left {
			_ = os.Remove(f)
		}
	}
	b, err := readRegular(dir, owedFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return l, nil
	case err != nil:
		return nil, fmt.Errorf("-state-dir: %w", err)
	}
	var d onDisk
	// A file cut short by a crash before its rename cannot be here (the
	// rename is atomic); one that does not parse still means a run is owed.
	if json.Unmarshal(b, &d) != nil || d.OwedSince.IsZero() || d.OwedSince.After(now) {
		d.OwedSince = now
	}
	l.owedSince, l.lastEvent = d.OwedSince, now
	return l, nil
}

// owedAtStart says whether the ledger found a run owed when it opened.
func (l *ledger) owedAtStart() bool { return !l.snapshot().owedSince.IsZero() }

// record notes an accepted event and returns once it is on disk.
func (l *ledger) record(now time.Time) error {
	l.mu.Lock()
	l.events++
	n := l.events
	if l.owedSince.IsZero() {
		l.owedSince = now
	}
	l.lastEvent = now
	l.mu.Unlock()
	err := l.persist(n)
	l.mu.Lock()
	l.recordErr = ""
	if err != nil {
		l.recordErr = err.Error()
	}
	l.mu.Unlock()
	// Even unrecorded (answered 503), the event is owed in memory: the run
	// starts for it and for the events recorded before.
	l.signal()
	return err
}

// persist writes the owed record unless a write since event n covers it.
func (l *ledger) persist(n uint64) error {
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	if l.written >= n {
		return nil
	}
	l.mu.Lock()
	covers, since := l.events, l.owedSince
	l.mu.Unlock()
	if since.IsZero() {
		// A start began after this event: it is owed until that start succeeds.
		since = time.Now()
	}
	b, err := json.Marshal(onDisk{OwedSince: since.UTC()})
	if err != nil {
		return err
	}
	if err := writeSynced(l.dir, owedFile, b); err != nil {
		return err
	}
	l.written = covers
	return nil
}

func (l *ledger) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// claim is what one start covers: the events accepted before it began.
type claim struct {
	events    uint64
	owedSince time.Time
}

// begin takes the owed run for a start. Events from now on owe the next one.
func (l *ledger) begin() claim {
	l.mu.Lock()
	defer l.mu.Unlock()
	c := claim{events: l.events, owedSince: l.owedSince}
	l.owedSince = time.Time{}
	l.starting = true
	return c
}

// finish ends a start. On success the record is removed when no event
// arrived since begin; on failure the run is owed again from its first event.
func (l *ledger) finish(c claim, err error, now time.Time) error {
	l.writeMu.Lock()
	defer l.writeMu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.starting = false
	if err != nil {
		l.owedSince = c.owedSince
		if l.failing.IsZero() {
			l.failing = now
		}
		return nil
	}
	l.lastStarted, l.failing = now, time.Time{}
	if !l.owedSince.IsZero() {
		return nil // events during the start owe the next one; the record stays
	}
	l.written = l.events
	return removeSynced(l.dir, owedFile)
}

// ledgerState is a copy of the ledger's state, for the scheduler and /healthz.
type ledgerState struct {
	owedSince, lastEvent, lastStarted, failing time.Time
	starting                                   bool
	recordErr                                  string
}

func (l *ledger) snapshot() ledgerState {
	l.mu.Lock()
	defer l.mu.Unlock()
	return ledgerState{owedSince: l.owedSince, lastEvent: l.lastEvent, lastStarted: l.lastStarted, failing: l.failing, starting: l.starting, recordErr: l.recordErr}
}

// writeSynced replaces dir/name with b durably: a temporary file, fsynced,
// renamed over name, then the directory fsynced so the rename survives a
// power cut.
func writeSynced(dir, name string, b []byte) error {
	tmp, err := os.CreateTemp(dir, "."+name+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(b); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, name)); err != nil {
		return err
	}
	return syncDir(dir)
}

// removeSynced removes dir/name durably.
func removeSynced(dir, name string) error {
	if err := os.Remove(filepath.Join(dir, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil // Windows cannot sync a directory; its renames are durable on their own
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
