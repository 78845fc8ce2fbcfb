package main

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// owedRecord is owed.json: what every relay on the directory owes.
type owedRecord struct {
	// ID is new each time the record is created, so a start that claimed
	// an earlier record never clears a later one.
	ID          string    `json:"id"`
	Webhooks    uint64    `json:"webhooks"`     // accepted since the record was created
	OwedSince   time.Time `json:"owed_since"`   // the first webhook no successful run covers
	LastWebhook time.Time `json:"last_webhook"` // the quiet period counts from it
	// StartedAt marks a start in progress (it claimed the webhooks counted
	// then); NextSince is the first webhook after it, owed by the next run.
	StartedAt    time.Time `json:"started_at,omitzero"`
	NextSince    time.Time `json:"next_since,omitzero"`
	FailingSince time.Time `json:"failing_since,omitzero"` // starts have failed since
	// Failures counts the failed starts in a row, whichever relay on the
	// directory made them, and no relay starts before RetryAt: one
	// backoff for all (retry). A record without them (an older relay's)
	// is owed all the same, with no retry pending.
	Failures int       `json:"failures,omitzero"`
	RetryAt  time.Time `json:"retry_at,omitzero"`
}

// ledger is the relay's one piece of state: whether a run is owed, kept
// in owed.json. An accepted webhook is on disk (written, fsynced, renamed,
// directory fsynced) before record returns, so a relay killed at any
// moment, or another relay on the same directory, still starts the run.
//
// Writes are grouped: a request that finds a write in progress waits for it
// and then writes once for every request that arrived meanwhile, so a burst
// costs a few fsyncs, not one per request.
type ledger struct {
	dir  string
	wake chan struct{} // cap 1: the scheduler's "something changed"

	fileMu   sync.Mutex // one reader-writer of owed.json in this process; owedLock between processes
	owedLock *os.File
	written  uint64 // this relay's webhooks on disk

	mu          sync.Mutex
	rec         owedRecord // owed.json as last read or written
	owed        bool       // owed.json exists
	events      uint64     // this relay's webhooks accepted so far
	lastEvent   time.Time  // this relay's last webhook
	pendingFrom time.Time  // the first of this relay's webhooks not on disk (yet, or ever: answered 503)
	lastStarted time.Time  // when this relay's last start succeeded
	starting    bool       // this relay is making a start
	recordErr   string     // why the last webhook could not be written; "" once one is
}

// longestAskedWait bounds the wait a backend may ask for between starts
// (Retry-After, a rate limit's reset): a longer one is taken as this
// (schedule.go's backoff). The wait is written to owed.json, binds every
// relay on the directory and outlives a restart, so one odd answer (a
// proxy's, a far date) must not hold a member's removal for a day. No
// backoff is longer, so a record's retry_at further on than this (an
// older relay's, or a clock set back) is brought to it when the ledger
// opens.
const longestAskedWait = time.Hour

// openLedger opens the owed record of the state directory (openStateDir
// checked it). A run owed before the restart has its quiet period count
// from now: the webhooks before the restart are over; its retry_at is an
// hour on at most (longestAskedWait).
func openLedger(dir string, now time.Time) (*ledger, error) {
	lock, err := openRegular(dir, owedLockFile, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("-state-dir: %w", err)
	}
	l := &ledger{dir: dir, wake: make(chan struct{}, 1), owedLock: lock}
	err = l.locked(func() error {
		// Temporary files of writes a crash cut short, before their rename.
		if left, err := filepath.Glob(filepath.Join(dir, "."+owedFile+"-*")); err == nil {
			for _, f := range left {
				_ = os.Remove(f)
			}
		}
		if err := l.read(now); err != nil {
			return err
		}
		if rec := l.snapshotRecord(); rec.RetryAt.After(now.Add(longestAskedWait)) {
			// Not written (a full disk), the record is used as it is:
			// the relay still starts, and says when the next start comes.
			rec.RetryAt = now.Add(longestAskedWait)
			_ = l.write(rec)
		}
		return nil
	})
	if err != nil {
		lock.Close()
		return nil, err
	}
	if l.owed {
		l.lastEvent = now
	}
	return l, nil
}

// owedAtStart says whether the ledger found a run owed when it opened.
func (l *ledger) owedAtStart() bool { return l.snapshot().owed() }

// locked runs f holding the record's lock, in this process and on disk.
func (l *ledger) locked(f func() error) error {
	l.fileMu.Lock()
	defer l.fileMu.Unlock()
	return l.lockedOnDisk(f)
}

// lockedOnDisk runs f holding owed.lock; the caller holds fileMu.
func (l *ledger) lockedOnDisk(f func() error) error {
	if err := lockFile(l.owedLock); err != nil {
		return fmt.Errorf("-state-dir/%s: %w", owedLockFile, err)
	}
	defer unlockFile(l.owedLock)
	return f()
}

// read loads owed.json into l.rec. One that does not parse still means a
// run is owed (the rename is atomic: a crash cannot cut it short).
func (l *ledger) read(now time.Time) error {
	b, err := readRegular(l.dir, owedFile)
	var rec owedRecord
	switch {
	case errors.Is(err, fs.ErrNotExist):
		l.setRecord(rec, false)
		return nil
	case err != nil:
		return fmt.Errorf("-state-dir: %w", err)
	}
	if json.Unmarshal(b, &rec) != nil || rec.OwedSince.IsZero() || rec.OwedSince.After(now) {
		rec.OwedSince = now
	}
	l.setRecord(rec, true)
	return nil
}

// write replaces owed.json with rec.
func (l *ledger) write(rec owedRecord) error {
	if rec.ID == "" {
		rec.ID = newRecordID()
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	if err := writeSynced(l.dir, owedFile, b); err != nil {
		return err
	}
	l.setRecord(rec, true)
	return nil
}

func (l *ledger) setRecord(rec owedRecord, owed bool) {
	l.mu.Lock()
	l.rec, l.owed = rec, owed
	l.mu.Unlock()
}

// refresh reads owed.json again: another relay on the directory may have
// recorded a webhook, or served the run.
func (l *ledger) refresh() error {
	l.fileMu.Lock()
	defer l.fileMu.Unlock()
	return l.read(time.Now())
}

// record notes an accepted webhook and returns once it is on disk.
func (l *ledger) record(now time.Time) error {
	l.mu.Lock()
	l.events++
	n := l.events
	if l.pendingFrom.IsZero() {
		l.pendingFrom = now
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
	// Even unrecorded (answered 503), the webhook is owed in memory: the
	// run starts for it and for the webhooks recorded before.
	l.signal()
	return err
}

// persist adds this relay's webhooks to owed.json unless a write since
// webhook n covers it.
func (l *ledger) persist(n uint64) error {
	l.fileMu.Lock()
	defer l.fileMu.Unlock()
	if l.written >= n {
		return nil
	}
	return l.lockedOnDisk(func() error {
		l.mu.Lock()
		covers, first, last := l.events, l.pendingFrom, l.lastEvent
		l.mu.Unlock()
		if err := l.read(last); err != nil {
			return err
		}
		rec := l.snapshotRecord()
		if rec.OwedSince.IsZero() {
			rec.OwedSince = first // a new record (write gives it an ID)
		}
		rec.Webhooks += covers - l.written
		if last.After(rec.LastWebhook) { // another relay's may be later
			rec.LastWebhook = last
		}
		if !rec.StartedAt.IsZero() && rec.NextSince.IsZero() {
			rec.NextSince = first // a start in progress does not cover it
		}
		if err := l.write(rec); err != nil {
			return err
		}
		l.mu.Lock()
		l.written = covers
		if l.events == covers {
			l.pendingFrom = time.Time{}
		}
		l.mu.Unlock()
		return nil
	})
}

func (l *ledger) snapshotRecord() owedRecord {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.owed {
		return owedRecord{}
	}
	return l.rec
}

func (l *ledger) signal() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// claim is what one start covers: the record's webhooks when it began, and
// this relay's own (those that could not be written are owed in memory).
type claim struct {
	id       string
	webhooks uint64
	events   uint64
}

// begin claims the owed run for a start; the caller holds the run lock.
// It returns false when nothing is owed any more: another relay's run,
// begun after the last webhook, covered it. A record that cannot be read
// or claimed does not stop the start (a run too many costs less than one
// too few): the error says why, and the start claims what it could.
func (l *ledger) begin(now time.Time) (claim, bool, error) {
	var c claim
	err := l.locked(func() error {
		err := l.read(now)
		rec := l.snapshotRecord()
		l.mu.Lock()
		c = claim{id: rec.ID, webhooks: rec.Webhooks, events: l.events}
		l.mu.Unlock()
		if err != nil || rec.OwedSince.IsZero() {
			return err
		}
		rec.StartedAt, rec.NextSince = now, time.Time{}
		if err := l.write(rec); err != nil {
			return err
		}
		c.id = l.snapshotRecord().ID // new for a record that had none
		return nil
	})
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.owed && l.written >= l.events {
		return claim{}, false, err
	}
	l.starting = true
	return c, true, err
}

// finish ends a start. On success it clears what the start claimed: the
// record goes when no webhook came since, else the next run is owed from
// the first that did, with no failure and no retry pending. On failure
// the run stays owed, failing since the first failed start (retry then
// schedules the next).
func (l *ledger) finish(c claim, startErr error, now time.Time) error {
	// This relay's own state first, whether or not the record can be
	// read: the start is over.
	l.fileMu.Lock()
	l.mu.Lock()
	l.starting = false
	if startErr == nil {
		l.lastStarted = now
		if l.events == c.events {
			// Webhooks not written before the start began are served:
			// none is owed in memory any more.
			l.written, l.pendingFrom = l.events, time.Time{}
		}
	}
	l.mu.Unlock()
	l.fileMu.Unlock()
	return l.locked(func() error {
		if err := l.read(now); err != nil {
			return err
		}
		rec := l.snapshotRecord()
		if !l.owed || rec.ID != c.id {
			return nil // not the record this start claimed
		}
		rec.StartedAt = time.Time{}
		switch {
		case startErr != nil:
			if rec.FailingSince.IsZero() {
				rec.FailingSince = now
			}
		case rec.Webhooks == c.webhooks:
			if err := removeSynced(l.dir, owedFile); err != nil {
				return err
			}
			l.setRecord(owedRecord{}, false)
			return nil
		default:
			rec.OwedSince, rec.FailingSince = rec.NextSince, time.Time{}
			rec.Failures, rec.RetryAt = 0, time.Time{}
			if rec.OwedSince.IsZero() {
				rec.OwedSince = now
			}
		}
		rec.NextSince = time.Time{}
		return l.write(rec)
	})
}

// retry records a failed start of record id for every relay on the
// directory, after finish or in its place (a start that waited out the run
// lock never began): failing since the first failed start, one more
// failure in a row, and no start before backoff(failures) from now, nor
// before a later retry already recorded. Nothing owed on disk, or another
// record than the start's (a new one since), nothing is written: the
// scheduler's own backoff holds.
func (l *ledger) retry(id string, now time.Time, backoff func(failures int) time.Duration) error {
	return l.locked(func() error {
		if err := l.read(now); err != nil || !l.owed {
			return err
		}
		rec := l.snapshotRecord()
		if rec.ID != id {
			return nil
		}
		if rec.FailingSince.IsZero() {
			rec.FailingSince = now
		}
		rec.Failures++
		if at := now.Add(backoff(rec.Failures)); at.After(rec.RetryAt) {
			rec.RetryAt = at
		}
		return l.write(rec)
	})
}

// interrupted ends a start cut short by shutdown: neither started nor
// failed, the run stays owed as it was.
func (l *ledger) interrupted() {
	l.mu.Lock()
	l.starting = false
	l.mu.Unlock()
}

// ledgerState is a copy of the ledger's state, for the scheduler and /healthz.
type ledgerState struct {
	owedSince, lastEvent, lastStarted, failing time.Time
	retryAt                                    time.Time // the record's: no relay starts before it
	starting                                   bool
	recordErr                                  string
}

func (st ledgerState) owed() bool { return !st.owedSince.IsZero() }

func (l *ledger) snapshot() ledgerState {
	l.mu.Lock()
	defer l.mu.Unlock()
	st := ledgerState{lastEvent: l.lastEvent, lastStarted: l.lastStarted, starting: l.starting, recordErr: l.recordErr}
	if l.owed {
		st.owedSince, st.failing, st.retryAt = l.rec.OwedSince, l.rec.FailingSince, l.rec.RetryAt
		if l.rec.LastWebhook.After(st.lastEvent) {
			st.lastEvent = l.rec.LastWebhook // another relay's
		}
	}
	if !l.pendingFrom.IsZero() && (st.owedSince.IsZero() || l.pendingFrom.Before(st.owedSince)) {
		st.owedSince = l.pendingFrom
	}
	return st
}

func newRecordID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
