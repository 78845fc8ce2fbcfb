package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// backend starts one sync run. Start returns once the run is started (the
// command backend: once the command has finished), within Longest; an
// error is a failed start, retried later. A retryAfter error says how long
// the backend asked to be left alone. runLock is -state-dir/run.lock, held
// by the scheduler for the start (nil where there is no flock): a command
// inherits it.
type backend interface {
	Start(ctx context.Context, runLock *os.File) error
	// Longest bounds one start: how long another relay on the directory
	// waits for the run lock before its start fails.
	Longest() time.Duration
	// Describe names the backend in logs, without any secret.
	Describe() string
}

// retryAfter is an error that carries the wait a server asked for.
type retryAfter interface{ RetryAfter() time.Duration }

// failingTooLong is how long starts may fail before each failure is logged
// as an error rather than a warning.
const failingTooLong = time.Hour

// scheduler starts the owed run: after quietPeriod without an event or
// maxDelay after the first, one start at a time, failed starts again after
// backoff until one succeeds. The backoff is kept in owed.json too, so the
// relays sharing a directory make one schedule of retries, not one each.
// While idle it reads owed.json again every waits.poll.
type scheduler struct {
	ledger      *ledger
	backend     backend
	stateDir    string
	quietPeriod time.Duration
	maxDelay    time.Duration
	retryMin    time.Duration // the first wait after a failed start, doubled up to retryMax
	retryMax    time.Duration
	starts      *prometheus.CounterVec // by outcome (metrics.go); nil counts nothing
	log         *slog.Logger

	// Of run's goroutine alone: this relay's failed starts in a row, and
	// the time before which it makes no start again (its own backoff;
	// the record's may be later).
	failures int
	retryAt  time.Time
}

// run starts owed runs until ctx ends. A start in progress when ctx ends is
// interrupted, and the run stays owed on disk for the next relay.
func (s *scheduler) run(ctx context.Context) {
	var readProblem string // logged once, not every poll
	timer := time.NewTimer(waits.poll)
	defer timer.Stop()
	for {
		due, owed := s.due(s.ledger.snapshot(), s.retryAt)
		if owed && !time.Now().Before(due) {
			err := s.startOnce(ctx)
			if ctx.Err() != nil {
				return
			}
			if err == nil {
				s.failures, s.retryAt = 0, time.Time{}
			}
			continue
		}
		wait := waits.poll
		if owed {
			wait = min(wait, time.Until(due))
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-s.ledger.wake:
		case <-timer.C:
			err := s.ledger.refresh()
			switch {
			case err != nil && err.Error() != readProblem:
				readProblem = err.Error()
				s.log.Error("-state-dir/"+owedFile+" could not be read", "problem", readProblem)
			case err == nil:
				readProblem = ""
			}
		}
	}
}

// due is when the owed run starts: a retry's time (this relay's own, or
// the record's when later: another relay's start may have failed since),
// else the end of the quiet period or of the max delay, whichever is first.
func (s *scheduler) due(st ledgerState, retryAt time.Time) (time.Time, bool) {
	if st.owedSince.IsZero() {
		return time.Time{}, false
	}
	if st.retryAt.After(retryAt) {
		retryAt = st.retryAt
	}
	if !retryAt.IsZero() {
		return retryAt, true
	}
	quiet := st.lastEvent.Add(s.quietPeriod)
	latest := st.owedSince.Add(s.maxDelay)
	if latest.Before(quiet) {
		return latest, true
	}
	return quiet, true
}

// startOnce makes one start, holding the run lock, and records its
// outcome. Another relay's run may have ended while it waited for the
// lock: what that run covered is no longer owed, and what is owed may no
// longer be due.
func (s *scheduler) startOnce(ctx context.Context) error {
	// The record this start is for: after a wait for the run lock, another
	// relay's run may have cleared it, and a webhook made a new one.
	recordID := s.ledger.snapshotRecord().ID
	lock, err := takeRunLock(ctx, s.stateDir, s.backend.Longest(), s.log)
	if err != nil {
		err = fmt.Errorf("-state-dir/%s: %w", runLockFile, err)
		if ctx.Err() == nil {
			s.failed(recordID, err, "0s")
		}
		return err
	}
	if lock != nil {
		defer lock.Close()
		// Released by the relay once the run is over: a process the
		// command left outside its group (a daemon, ssh-agent) keeps the
		// inherited descriptor, and must not hold the next run back.
		defer releaseRunLock(lock)
	}
	// What another relay did while this one waited for the lock.
	if err := s.ledger.refresh(); err != nil {
		s.log.Warn("-state-dir/"+owedFile+" could not be read; the start is made on what was read before", "problem", err.Error())
	}
	if due, owed := s.due(s.ledger.snapshot(), s.retryAt); !owed || time.Now().Before(due) {
		return nil
	}
	c, owed, err := s.ledger.begin(time.Now())
	switch {
	case !owed && err == nil:
		s.log.Info("the owed run was started by another relay on -state-dir")
		return nil
	case !owed:
		return nil // the read's problem is logged by the next poll
	case err != nil:
		s.log.Warn("the start could not be claimed in -state-dir/"+owedFile+"; it is made all the same", "problem", err.Error())
	}
	began := time.Now()
	s.log.Info("starting the sync run", "backend", s.backend.Describe(), "owed_for", began.Sub(s.ledger.snapshot().owedSince).Round(time.Millisecond).String())
	err = s.backend.Start(ctx, lock)
	took := time.Since(began).Round(time.Millisecond).String()
	if ctx.Err() != nil && err != nil { // cut short by shutdown: neither started nor failed
		s.ledger.interrupted()
		s.log.Warn("the start was interrupted by shutdown; the run stays owed in -state-dir", "took", took)
		return errors.Join(err, ctx.Err())
	}
	ferr := s.ledger.finish(c, err, time.Now())
	if err != nil {
		s.failed(c.id, err, took)
		return err
	}
	s.countStart("started")
	s.log.Info("the sync run started", "backend", s.backend.Describe(), "took", took)
	if ferr != nil {
		// The run started, but its record stays owed: the next start,
		// after the backoff of a failure (not at once, over and over),
		// is one run too many, never one too few.
		s.log.Error("the start's outcome could not be written to -state-dir/"+owedFile+"; the run stays owed", "problem", ferr.Error())
		s.backOff(ferr)
		return ferr
	}
	return nil
}

// failed records a failed start for the record id in owed.json, still
// holding the run lock (when it was taken), so that no relay on the
// directory starts before its backoff; then counts and logs it, with
// when the next start comes.
func (s *scheduler) failed(id string, err error, took string) {
	s.backOff(err)
	if rerr := s.ledger.retry(id, time.Now(), func(n int) time.Duration { return s.backoff(n, err) }); rerr != nil {
		s.log.Warn("the failed start could not be written to -state-dir/"+owedFile+"; this relay waits its own backoff", "problem", rerr.Error())
	}
	s.countStart("failed")
	next, _ := s.due(s.ledger.snapshot(), s.retryAt)
	s.logFailure(err, took, next)
}

// backOff counts a failure in a row of this relay's and sets its own
// backoff from it.
func (s *scheduler) backOff(err error) {
	s.failures++
	s.retryAt = time.Now().Add(s.backoff(s.failures, err))
}

// countStart counts a start's outcome for /metrics.
func (s *scheduler) countStart(outcome string) {
	if s.starts != nil {
		s.starts.WithLabelValues(outcome).Inc()
	}
}

// logFailure logs a failed start: a warning, or an error every time once
// starts have failed for failingTooLong.
func (s *scheduler) logFailure(err error, took string, next time.Time) {
	var failing time.Duration
	if since := s.ledger.snapshot().failing; !since.IsZero() {
		failing = time.Since(since).Round(time.Second)
	}
	level := slog.LevelWarn
	if failing >= failingTooLong {
		level = slog.LevelError
	}
	s.log.Log(context.Background(), level, "the sync run could not be started; it stays owed and is tried again",
		"backend", s.backend.Describe(), "problem", err.Error(), "took", took, "failing_for", failing.String(),
		"next_start", next.UTC().Format(time.RFC3339))
}

// backoff is the wait after the n-th failed start in a row: doubling from
// retryMin to retryMax, or longer when the backend asked for a wait, up
// to longestAskedWait.
func (s *scheduler) backoff(n int, err error) time.Duration {
	wait := s.retryMin
	for i := 1; i < n && wait < s.retryMax; i++ {
		wait *= 2
	}
	wait = min(wait, s.retryMax)
	var ra retryAfter
	if errors.As(err, &ra) {
		wait = max(wait, min(ra.RetryAfter(), longestAskedWait))
	}
	return wait
}
