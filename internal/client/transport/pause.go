package transport

import (
	"context"
	"sync"
	"time"
)

// pauseGate holds every request of a client until the time a Retry-After
// asked for: one 429 pauses all.
type pauseGate struct {
	mu    sync.Mutex
	until time.Time
}

// extend moves the pause end to t if that is later.
func (g *pauseGate) extend(t time.Time) {
	g.mu.Lock()
	if t.After(g.until) {
		g.until = t
	}
	g.mu.Unlock()
}

// wait blocks until the pause ends or ctx is done; it returns how long it waited.
func (g *pauseGate) wait(ctx context.Context) (time.Duration, error) {
	g.mu.Lock()
	d := time.Until(g.until)
	g.mu.Unlock()
	if d <= 0 {
		return 0, nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-t.C:
		return d, nil
	}
}
