package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/net/netutil"
)

// idleTimeout is how long a keep-alive connection may wait for its next
// request: the service opens one per webhook, so a long wait only serves a
// sender holding connections open.
const idleTimeout = 10 * time.Second

// readHeaderTimeout is how long a connection has to send its headers: the
// service's arrive at once.
const readHeaderTimeout = 5 * time.Second

// shutdownGrace is how long SIGTERM waits for requests in flight (each at
// most a write to -state-dir).
const shutdownGrace = 10 * time.Second

// serve runs the relay until ctx ends: the receiver on cfg.listen and the
// scheduler beside it. On ctx's end it stops taking requests, lets those in
// flight finish their write, then stops the scheduler.
func serve(ctx context.Context, cfg *config, log *slog.Logger) error {
	created, err := openStateDir(cfg.stateDir)
	if err != nil {
		return err
	}
	if created {
		log.Info("created -state-dir, readable by this user only", "state_dir", cfg.stateDir)
	}
	l, err := openLedger(cfg.stateDir, time.Now())
	if err != nil {
		return err
	}
	if l.owedAtStart() {
		log.Info("a run owed before the restart is still owed", "state_dir", cfg.stateDir)
	}
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return err
	}
	ln = netutil.LimitListener(ln, maxConns)
	h := &receiver{secretSum: sha256.Sum256([]byte(cfg.secret)), organizationID: cfg.organizationID, events: cfg.events,
		ledger: l, largeBodies: make(largeBodySlots, largeBodies), metrics: newMetrics(l), log: log}
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	s := &scheduler{ledger: l, backend: cfg.backend, quietPeriod: cfg.quietPeriod, maxDelay: cfg.maxDelay,
		retryMin: time.Second, retryMax: 5 * time.Minute, starts: h.metrics.starts, log: log}

	schedCtx, stopScheduler := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() { s.run(schedCtx) })
	defer func() { stopScheduler(); wg.Wait() }()

	serveErr := make(chan error, 1)
	wg.Go(func() { serveErr <- hs.Serve(ln) })
	log.Info("listening", "addr", ln.Addr().String(), "backend", cfg.backend.Describe(),
		"quiet_period", cfg.quietPeriod.String(), "max_delay", cfg.maxDelay.String())

	select {
	case err := <-serveErr:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down: finishing requests in flight")
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		_ = hs.Close()
	}
	if err := <-serveErr; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
