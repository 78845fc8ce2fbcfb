package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/net/netutil"
)

// shutdownGrace is how long SIGTERM waits for requests in flight (each at
// most a write to -state-dir).
const shutdownGrace = 10 * time.Second

// serve runs the relay until ctx ends: the receiver on cfg.listen and the
// scheduler beside it. On ctx's end it stops taking requests, lets those in
// flight finish their write, then stops the scheduler.
func serve(ctx context.Context, cfg *config, log *slog.Logger) error {
	opened, err := openStateDir(cfg.stateDir)
	if err != nil {
		return err
	}
	if opened.created {
		log.Info("created -state-dir, readable by this user only", "state_dir", cfg.stateDir)
	}
	if opened.repaired != 0 {
		// A cluster's fsGroup, applied again at a mount.
		log.Info("made -state-dir and its files this user's alone, as the volume's group could write them", "state_dir", cfg.stateDir,
			"mode_was", fmt.Sprintf("%04o", opened.repaired))
	}
	l, err := openLedger(cfg.stateDir, time.Now())
	if err != nil {
		return err
	}
	if l.owedAtStart() {
		log.Info("a run owed before the restart is still owed", "state_dir", cfg.stateDir)
		// The shared backoff outlives a restart (a Retry-After binds every
		// relay): say when the next start comes, so an operator who has
		// fixed a token knows why it waits.
		if rec := l.snapshotRecord(); rec.RetryAt.After(time.Now()) {
			log.Info("starts have failed; the next waits for their backoff, shared through -state-dir", "failures", rec.Failures,
				"next_start_after", rec.RetryAt.UTC().Format(time.RFC3339))
		}
	}
	h := &receiver{secretSum: sha256.Sum256([]byte(cfg.secret)), organizationID: cfg.organizationID, events: cfg.events,
		ledger: l, largeBodies: make(largeBodySlots, largeBodies), metrics: newMetrics(l), metricsElsewhere: cfg.metricsListen != "", log: log}
	servers, err := listen(cfg, h, log)
	if err != nil {
		return err
	}
	s := &scheduler{ledger: l, backend: cfg.backend, stateDir: cfg.stateDir, quietPeriod: cfg.quietPeriod, maxDelay: cfg.maxDelay,
		retryMin: waits.retryMin, retryMax: 5 * time.Minute, starts: h.metrics.starts, log: log}

	schedCtx, stopScheduler := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() { s.run(schedCtx) })
	defer func() { stopScheduler(); wg.Wait() }()

	serveErr := make(chan error, len(servers))
	for _, sv := range servers {
		wg.Go(func() { serveErr <- sv.Serve(sv.ln) })
	}
	if len(servers) > 1 {
		log.Info("serving /metrics and /healthz", "addr", servers[1].ln.Addr().String())
	}
	log.Info("listening", "addr", servers[0].ln.Addr().String(), "events", eventList(cfg.events),
		"quiet_period", cfg.quietPeriod.String(), "max_delay", cfg.maxDelay.String(),
		"backend", cfg.backend.Describe(), "state_dir", cfg.stateDir)

	running := len(servers)
	select {
	case err = <-serveErr: // a listener failed
		running--
	case <-ctx.Done():
		log.Info("shutting down: finishing requests in flight")
	}
	sctx, cancel := context.WithTimeout(context.Background(), shutdownGrace)
	defer cancel()
	for _, sv := range servers {
		if sv.Shutdown(sctx) != nil {
			_ = sv.Close()
		}
	}
	for ; running > 0; running-- {
		if e := <-serveErr; err == nil && !errors.Is(e, http.ErrServerClosed) {
			err = e
		}
	}
	return err
}

// server is an HTTP server and its listener.
type server struct {
	*http.Server
	ln net.Listener
}

// listen opens -listen, with the receiver, and -metrics-listen when set,
// with /metrics and /healthz alone.
func listen(cfg *config, h *receiver, log *slog.Logger) ([]server, error) {
	ln, err := net.Listen("tcp", cfg.listen)
	if err != nil {
		return nil, err
	}
	servers := []server{{newHTTPServer(h, log), netutil.LimitListener(ln, maxConns)}}
	if cfg.metricsListen == "" {
		return servers, nil
	}
	mln, err := net.Listen("tcp", cfg.metricsListen)
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("-metrics-listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", h.metrics.handler)
	mux.Handle("/healthz", health(h.ledger))
	return append(servers, server{newHTTPServer(mux, log), netutil.LimitListener(mln, maxConns)}), nil
}

// newHTTPServer is an HTTP server with the relay's bounds (bounds.go) and
// timeouts (waits.go).
func newHTTPServer(h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: waits.readHeader,
		ReadTimeout:       waits.read,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       waits.idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}
