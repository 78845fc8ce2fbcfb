package main

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// backend starts one sync run. Start returns once the run is started (the
// command backend: once the command has finished); an error is a failed
// start, retried later. A retryAfter error says how long the backend asked
// to be left alone.
type backend interface {
	Start(ctx context.Context) error
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
// backoff until one succeeds.
type scheduler struct {
	ledger      *ledger
	backend     backend
	quietPeriod time.Duration
	maxDelay    time.Duration
	retryMin    time.Duration // the first wait after a failed start, doubled up to retryMax
	retryMax    time.Duration
	starts      *prometheus.CounterVec // by outcome (metrics.go); nil counts nothing
	log         *slog.Logger
}

// run starts owed runs until ctx ends. A start in progress when ctx ends is
// interrupted, and the run stays owed on disk for the next relay.
func (s *scheduler) run(ctx context.Context) {
	var failures int
	var retryAt time.Time
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		due, owed := s.due(s.ledger.snapshot(), retryAt)
		if owed && !time.Now().Before(due) {
			err := s.startOnce(ctx)
			if ctx.Err() != nil {
				return
			}
			if err == nil {
				failures, retryAt = 0, time.Time{}
				continue
			}
			failures++
			retryAt = time.Now().Add(s.backoff(failures, err))
			continue
		}
		wait := time.Hour
		if owed {
			wait = time.Until(due)
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-s.ledger.wake:
		case <-timer.C:
		}
	}
}

// due is when the owed run starts: a retry's time, else the end of the
// quiet period or of the max delay, whichever is first.
func (s *scheduler) due(st ledgerState, retryAt time.Time) (time.Time, bool) {
	if st.owedSince.IsZero() {
		return time.Time{}, false
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

// startOnce makes one start and records its outcome.
func (s *scheduler) startOnce(ctx context.Context) error {
	c := s.ledger.begin()
	began := time.Now()
	s.log.Info("starting the sync run", "backend", s.backend.Describe(), "owed_for", began.Sub(c.owedSince).Round(time.Millisecond).String())
	err := s.backend.Start(ctx)
	if ctx.Err() != nil && err != nil {
		err = errors.Join(err, ctx.Err())
	}
	if ferr := s.ledger.finish(c, err, time.Now()); ferr != nil {
		// The run started, but its record stays: the next relay starts one more.
		s.log.Error("the run started, but its record in -state-dir could not be removed", "problem", ferr.Error())
	}
	took := time.Since(began).Round(time.Millisecond).String()
	switch {
	case err == nil:
		s.countStart("started")
		s.log.Info("the sync run started", "backend", s.backend.Describe(), "took", took)
	case ctx.Err() != nil: // cut short by shutdown: neither started nor failed
		s.log.Warn("the start was interrupted by shutdown; the run stays owed in -state-dir", "took", took)
	default:
		s.countStart("failed")
		s.logFailure(err, took)
	}
	return err
}

// countStart counts a start's outcome for /metrics.
func (s *scheduler) countStart(outcome string) {
	if s.starts != nil {
		s.starts.WithLabelValues(outcome).Inc()
	}
}

// logFailure logs a failed start: a warning, or an error every time once
// starts have failed for failingTooLong.
func (s *scheduler) logFailure(err error, took string) {
	failing := time.Since(s.ledger.snapshot().failing).Round(time.Second)
	level := slog.LevelWarn
	if failing >= failingTooLong {
		level = slog.LevelError
	}
	s.log.Log(context.Background(), level, "the sync run could not be started; it stays owed and is tried again",
		"backend", s.backend.Describe(), "problem", err.Error(), "took", took, "failing_for", failing.String())
}

// backoff is the wait after the n-th failed start in a row: doubling from
// retryMin to retryMax, or longer when the backend was asked to wait.
func (s *scheduler) backoff(n int, err error) time.Duration {
	wait := s.retryMin
	for i := 1; i < n && wait < s.retryMax; i++ {
		wait *= 2
	}
	wait = min(wait, s.retryMax)
	var ra retryAfter
	if errors.As(err, &ra) && ra.RetryAfter() > wait {
		wait = ra.RetryAfter()
	}
	return wait
}
