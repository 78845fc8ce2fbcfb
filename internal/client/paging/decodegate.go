package paging

import (
	"context"
	"runtime"
	"sync"
)

// DecodeGate bounds the pages decoded at once. Decoding is CPU. While the
// network sets a read's pace, all the cores but one decode, so that a core
// is left to read answers and send the next requests: on two cores, a read
// of 20 pages of 1,000 at 50 ms takes 1.24× the ideal this way, and 1.4×
// with both cores decoding. While decoding sets the pace (a read has as
// many pages waiting to be decoded or handed over as it may hold, and the
// network has room: readPages reports it, decodeBound), every core decodes.
type DecodeGate struct {
	mu      sync.Mutex
	changed chan struct{} // closed and replaced when a place may have opened
	active  int
	bound   int // reads that decoding holds up now
	reserve int // decoders while the network sets the pace
	all     int // decoders while decoding does
}

// NewDecodeGate is the gate of one client: every read of it decodes
// through it.
func NewDecodeGate() *DecodeGate {
	all := max(runtime.GOMAXPROCS(0), 1)
	return &DecodeGate{changed: make(chan struct{}), reserve: max(all-1, 1), all: all}
}

// Acquire waits for a place to decode a page whose bytes are in.
func (g *DecodeGate) Acquire(ctx context.Context) error {
	g.mu.Lock()
	for {
		if g.active < g.reserve || (g.active < g.all && g.bound > 0) {
			g.active++
			g.mu.Unlock()
			return nil
		}
		ch := g.changed
		g.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
		g.mu.Lock()
	}
}

// Release ends a decode.
func (g *DecodeGate) Release() {
	g.mu.Lock()
	g.active--
	g.wake()
	g.mu.Unlock()
}

// decodeBound says that decoding holds a read up (true) or no longer does.
func (g *DecodeGate) decodeBound(bound bool) {
	g.mu.Lock()
	if bound {
		g.bound++
	} else {
		g.bound--
	}
	g.wake()
	g.mu.Unlock()
}

// wake lets the waiters look again; g.mu is held.
func (g *DecodeGate) wake() {
	close(g.changed)
	g.changed = make(chan struct{})
}
