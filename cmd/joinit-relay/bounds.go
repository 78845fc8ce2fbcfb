package main

import (
	"context"
	"io"
)

// What one sender can make the relay hold, whatever it sends:
//
//   - maxConns open connections (above them, new ones wait in the
//     kernel's backlog), each idle at most waits.idle between requests
//     and given waits.readHeader for its headers. The cap bounds memory
//     (a connection costs a few KiB), not who gets in: set low, a sender
//     holding that many idle connections would keep the service's
//     webhooks out, so it sits far above any real load;
//   - a body is decoded as it streams in (event.go): its cost is the
//     decoder's buffer, about its largest single value, never a map of it;
//   - bodies past smallBody, which no webhook of the service reaches (a
//     membership is a few kilobytes), are read at most largeBodies at once:
//     a sender of many large bodies waits for its own slots, never the
//     service's webhooks, which stay under smallBody.
//
// The worst case is about maxConns × smallBody plus largeBodies × 2 ×
// maxBody of buffers, 264 MiB, reached only by a sender holding thousands
// of connections each part-way through a body. 100 bodies of 100,000 keys
// at once peak at 16-19 MB (BenchmarkKeyHeavyBodies; 1.35 GB when each
// body became a map).
const (
	maxConns    = 4096
	smallBody   = 64 << 10
	largeBodies = 4
)

// largeBodySlots are the places of bodies past smallBody being read.
type largeBodySlots chan struct{}

// gatedBody reads a body, taking a large body's place before it reads
// past smallBody; release gives the place back.
type gatedBody struct {
	ctx   context.Context
	r     io.Reader
	slots largeBodySlots
	read  int
	held  bool
}

func (g *gatedBody) Read(p []byte) (int, error) {
	// The byte past smallBody is read without a place, so a body of
	// exactly smallBody (whose reader asks once more after its end) is
	// small: only a body that has that byte waits for one.
	if !g.held && g.read > smallBody {
		select {
		case g.slots <- struct{}{}:
			g.held = true
		case <-g.ctx.Done():
			return 0, g.ctx.Err()
		}
	}
	if !g.held {
		p = p[:min(len(p), smallBody+1-g.read)]
	}
	n, err := g.r.Read(p)
	g.read += n
	return n, err
}

func (g *gatedBody) release() {
	if g.held {
		<-g.slots
		g.held = false
	}
}
