package client

import (
	"context"
	"sync"

	"golang.org/x/sync/singleflight"
)

// cache shares reads within one client's life — one Terraform run. Several
// data sources with the same query (endpoint, filters, page size) cause one
// fetch; concurrent callers wait for it instead of starting their own.
// Failures are not kept, so a later read tries again.
type cache struct {
	flight singleflight.Group
	mu     sync.Mutex
	done   map[string]any
}

func newCache() *cache { return &cache{done: map[string]any{}} }

// get returns the cached value for key, or runs read once for all callers.
// Results are shared: callers must not modify them.
func get[V any](ctx context.Context, c *cache, key string, read func(context.Context) (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.done[key]
	c.mu.Unlock()
	if ok {
		return v.(V), nil
	}
	ch := c.flight.DoChan(key, func() (any, error) {
		// The read belongs to every waiting caller, so one caller's
		// cancellation must not fail the others; each still stops waiting
		// on its own context below.
		v, err := read(context.WithoutCancel(ctx))
		if err == nil {
			c.mu.Lock()
			c.done[key] = v
			c.mu.Unlock()
		}
		return v, err
	})
	select {
	case <-ctx.Done():
		var zero V
		return zero, ctx.Err()
	case res := <-ch:
		if res.Err != nil {
			var zero V
			return zero, res.Err
		}
		return res.Val.(V), nil
	}
}
