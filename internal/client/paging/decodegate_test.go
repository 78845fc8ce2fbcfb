package paging

import (
	"context"
	"errors"
	"testing"
	"time"
)

// While the network sets the pace, the cores but one decode; while
// decoding does, every core.
func TestDecodeGateLeavesACoreUnlessDecodingSetsThePace(t *testing.T) {
	t.Parallel()
	g := &DecodeGate{changed: make(chan struct{}), reserve: 1, all: 2}
	ctx := context.Background()
	if err := g.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := g.Acquire(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second decoder started while the network sets the pace: %v", err)
	}
	got := make(chan error, 1)
	go func() { got <- g.Acquire(ctx) }()
	g.decodeBound(true)
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a waiting decoder was not let in when decoding set the pace")
	}
	g.decodeBound(false)
	g.Release()
	g.Release()
	if g.active != 0 || g.bound != 0 {
		t.Fatalf("active %d, bound %d after all released", g.active, g.bound)
	}
}
