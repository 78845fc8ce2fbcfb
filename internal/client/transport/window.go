package transport

import (
	"context"
	"sync"
	"sync/atomic"
)

// sendWindow is the client's one limit on requests in flight, shared by
// every read: twenty data sources of one provider share it, so together
// they never have more than Config.MaxConcurrency requests out.
//
// Within that bound the window adapts to the server's rate limit the way
// TCP's congestion window adapts to a network: a 429 (or a 503 with
// Retry-After) halves it, once per round of requests (answers to requests
// sent before the cut do not cut it again), and answers that were not
// refused grow it back by one per window's worth of them (additive
// increase, multiplicative decrease). Requests beyond the window wait in
// order of arrival, so no read is starved by the others.
type sendWindow struct {
	mu       sync.Mutex
	max      int
	size     int // the window: how many may be in flight, 1..max
	answers  int // answers not refused since the window last grew
	inFlight int
	waiters  []chan struct{}
	// urgentAhead is how many waiters at the head of waiters are urgent
	// (acquire's urgent): they go before the rest, oldest first.
	urgentAhead int
	sent        uint64 // requests sent so far: a request's ticket
	cutAt       uint64 // the ticket of the last request sent before the last cut

	successes atomic.Uint64 // successful (2xx) answers, provider-wide
}

func newSendWindow(maxInFlight int) *sendWindow {
	maxInFlight = max(maxInFlight, 1)
	return &sendWindow{max: maxInFlight, size: maxInFlight}
}

func (w *sendWindow) limit() int { return w.size }

// successCount is how many successful (2xx) answers the client had: what
// the retry policy measures other requests' progress by.
func (w *sendWindow) successCount() uint64 { return w.successes.Load() }

// acquire waits for a place in the window.
func (w *sendWindow) acquire(ctx context.Context) error {
	w.mu.Lock()
	if len(w.waiters) == 0 && w.inFlight < w.limit() {
		w.inFlight++
		w.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	w.waiters = append(w.waiters, ch)
	w.mu.Unlock()
	return w.await(ctx, ch)
}

// yieldIfOver gives the place back, and waits for it again at the head of
// the queue, when the window was cut below the requests holding places:
// requests that held theirs through a Retry-After pause would otherwise all
// go out when it ends, as many as before the cut.
func (w *sendWindow) yieldIfOver(ctx context.Context) error {
	w.mu.Lock()
	if w.inFlight <= w.limit() {
		w.mu.Unlock()
		return nil
	}
	w.inFlight--
	ch := make(chan struct{})
	w.waiters = append([]chan struct{}{ch}, w.waiters...)
	w.urgentAhead++ // it held a place already: it goes first
	w.mu.Unlock()
	return w.await(ctx, ch)
}

// await waits until admit hands ch a place, or ctx ends.
func (w *sendWindow) await(ctx context.Context, ch chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		w.mu.Lock()
		for i, c := range w.waiters {
			if c == ch {
				w.waiters = append(w.waiters[:i], w.waiters[i+1:]...)
				if i < w.urgentAhead {
					w.urgentAhead--
				}
				w.mu.Unlock()
				return ctx.Err()
			}
		}
		w.mu.Unlock()
		w.release() // granted as ctx ended: hand the place on
		return ctx.Err()
	}
}

// send numbers a request as it goes out: its ticket. A refusal cuts the
// window only for a request sent after the last cut, so the ticket is
// taken at the send, not when the place was granted: a request that held
// its place through a pause goes out after the cut that came with it.
func (w *sendWindow) send() uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.sent++
	return w.sent
}

// release gives a place back and lets waiters in, oldest first.
func (w *sendWindow) release() {
	w.mu.Lock()
	w.inFlight--
	w.admit()
	w.mu.Unlock()
}

// admit lets waiters in while the window has room; w.mu is held.
func (w *sendWindow) admit() {
	for len(w.waiters) > 0 && w.inFlight < w.limit() {
		ch := w.waiters[0]
		w.waiters = w.waiters[1:]
		w.urgentAhead = max(w.urgentAhead-1, 0)
		w.inFlight++
		close(ch)
	}
}

// limited halves the window for a request the server refused for its rate,
// unless the window was cut after that request went out.
func (w *sendWindow) limited(ticket uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if ticket <= w.cutAt {
		return
	}
	w.size = max(w.size/2, 1)
	w.answers = 0
	w.cutAt = w.sent
}

// answered grows the window after an answer that was not a refusal for the
// rate. Only a success (2xx) counts as the client's progress, which lets
// other requests' refusals go uncharged (retry.go): a redirect, or an
// error the server answers at once, is no sign the limit lets requests
// through.
func (w *sendWindow) answered(success bool) {
	if success {
		w.successes.Add(1)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.size >= w.max {
		return
	}
	if w.answers++; w.answers >= w.size {
		w.size++
		w.answers = 0
		w.admit()
	}
}
