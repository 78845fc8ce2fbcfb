package client

import (
	"context"
	"sync"
)

// cache shares reads within one run: identical queries in flight share one
// fetch, and results of up to retainUpTo records are kept (a larger one
// kept would add to the provider's peak memory). Failures are not kept.
type cache struct {
	mu         sync.Mutex
	done       map[string]any
	reads      map[string]*sharedRead
	retainUpTo int
}

const defaultRetainUpTo = 10_000

// retain holds a result for the run whatever its size: for one held anyway
// (a lookup's index holds its list).
func (c *cache) retain(key string, v any) {
	c.mu.Lock()
	c.done[key] = v
	c.mu.Unlock()
}

// sharedRead is a read in progress and the callers waiting for it.
type sharedRead struct {
	finished chan struct{}
	val      any
	err      error
	waiters  int
	cancel   context.CancelFunc
}

func newCache(retainUpTo int) *cache {
	return &cache{done: map[string]any{}, reads: map[string]*sharedRead{}, retainUpTo: retainUpTo}
}

// get returns the cached value for key, or runs read once for all callers
// (who must not modify it); records counts a result's records.
func get[V any](ctx context.Context, c *cache, key string, read func(context.Context) (V, error), records func(V) int) (V, error) {
	c.mu.Lock()
	if v, ok := c.done[key]; ok {
		c.mu.Unlock()
		return v.(V), nil //nolint:forcetypeassert // the key names the endpoint, and each endpoint reads one type V
	}
	f, ok := c.reads[key]
	if !ok {
		// The read is cancelled only when no caller waits for it.
		readCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		f = &sharedRead{finished: make(chan struct{}), cancel: cancel}
		c.reads[key] = f
		go func() {
			v, err := read(readCtx)
			cancel()
			c.mu.Lock()
			if err == nil && records(v) <= c.retainUpTo {
				c.done[key] = v
			}
			if c.reads[key] == f {
				delete(c.reads, key)
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
		if f.waiters == 0 && c.reads[key] == f {
			delete(c.reads, key)
			f.cancel()
		}
		c.mu.Unlock()
		return zero, ctx.Err()
	}
}
