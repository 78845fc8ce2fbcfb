package client

import (
	"context"
	"sync"
)

// cache shares reads within one client's life — one Terraform run. Several
// data sources with the same query (endpoint, filters, page size) cause one
// fetch; concurrent callers wait for it instead of starting their own.
// Results of up to retainUpTo records are also kept for the rest of the run.
// Larger ones are not: kept, 100,000 memberships hold about 100 MB for the
// whole plan, and they would still be alive while the provider encodes the
// state and gRPC copies it, the three at once being the provider's peak
// memory. Terraform reads data sources concurrently, so identical large
// reads in one plan still share the fetch that is in flight. Failures are
// not kept, so a later read tries again.
type cache struct {
	mu         sync.Mutex
	done       map[string]any
	flights    map[string]*flight
	retainUpTo int
}

// defaultRetainUpTo is the most records a finished read may hold and
// still be kept for later identical reads.
const defaultRetainUpTo = 10_000

// retains reports whether a finished result of n records is small enough
// to keep.
func (c *cache) retains(n int) bool { return n <= c.retainUpTo }

// keep holds a finished result for the rest of the run, whatever its
// size: for a result that something else holds for the run anyway (a
// lookup's index holds its list), keeping it costs nothing.
func (c *cache) keep(key string, v any) {
	c.mu.Lock()
	c.done[key] = v
	c.mu.Unlock()
}

// flight is a read in progress and the callers waiting for it.
type flight struct {
	finished chan struct{}
	val      any
	err      error
	waiters  int
	cancel   context.CancelFunc
}

func newCache(retainUpTo int) *cache {
	return &cache{done: map[string]any{}, flights: map[string]*flight{}, retainUpTo: retainUpTo}
}

// get returns the cached value for key, or runs read once for all callers.
// Results are shared: callers must not modify them. records counts a
// result's records, to decide whether it is kept once finished.
func get[V any](ctx context.Context, c *cache, key string, read func(context.Context) (V, error), records func(V) int) (V, error) {
	c.mu.Lock()
	if v, ok := c.done[key]; ok {
		c.mu.Unlock()
		return v.(V), nil //nolint:forcetypeassert // the key names the endpoint, and each endpoint reads one type V
	}
	f, ok := c.flights[key]
	if !ok {
		// The read belongs to every waiting caller, so one caller's
		// cancellation must not fail the others; it is cancelled only when
		// every caller has stopped waiting, so nothing runs on for no one.
		readCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &flight{finished: make(chan struct{}), cancel: cancel}
		c.flights[key] = f
		go func() {
			v, err := read(readCtx)
			cancel()
			c.mu.Lock()
			if err == nil && c.retains(records(v)) {
				c.done[key] = v
			}
			if c.flights[key] == f {
				delete(c.flights, key)
			}
			f.val, f.err = v, err
			c.mu.Unlock()
			close(f.finished)
		}()
	}
	f.waiters++
	c.mu.Unlock()

	var zero V
	select {
	case <-f.finished:
		if f.err != nil {
			return zero, f.err
		}
		return f.val.(V), nil //nolint:forcetypeassert // set from read's V on success; the key fixes V as above
	case <-ctx.Done():
		c.mu.Lock()
		f.waiters--
		if f.waiters == 0 && c.flights[key] == f {
			// Nobody waits any more: stop the read, and let the next
			// caller start a fresh one rather than join a cancelled one.
			delete(c.flights, key)
			f.cancel()
		}
		c.mu.Unlock()
		return zero, ctx.Err()
	}
}
