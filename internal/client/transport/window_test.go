package transport

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A refusal for the rate halves the window once per round: answers to
// requests sent before the cut do not cut it again. Answers that were not
// refused grow it back, by one per window's worth, never past the maximum.
func TestSendWindowHalvesOnLimitAndGrowsBack(t *testing.T) {
	t.Parallel()
	w := newSendWindow(8)
	ctx := context.Background()
	var tickets []uint64
	for range 8 {
		if err := w.acquire(ctx); err != nil {
			t.Fatal(err)
		}
		tickets = append(tickets, w.send())
	}
	for _, tk := range tickets {
		w.limited(tk) // eight refusals of one round: one cut
		w.release()
	}
	if w.limit() != 4 {
		t.Fatalf("window %d after one round of refusals, want 4", w.limit())
	}
	// Only four go out now; the fifth waits.
	for range 4 {
		if err := w.acquire(ctx); err != nil {
			t.Fatal(err)
		}
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if err := w.acquire(short); err == nil {
		t.Fatal("a fifth request went out with a window of 4")
	}
	// A refusal of a request sent after the cut cuts again.
	w.limited(w.send())
	if w.limit() != 2 {
		t.Fatalf("window %d after a second round, want 2", w.limit())
	}
	for range 4 {
		w.release()
	}
	// Growing back: 2 → 3 takes two answers, 3 → 4 three, and so on.
	for range 2 {
		w.answered(true)
	}
	if w.limit() != 3 {
		t.Fatalf("window %d after 2 answers from 2, want 3", w.limit())
	}
	for range 100 {
		w.answered(true)
	}
	if w.limit() != 8 {
		t.Fatalf("window %d, want back at the maximum 8", w.limit())
	}
	if w.inFlight != 0 || len(w.waiters) != 0 {
		t.Fatalf("in flight %d, waiting %d after every release", w.inFlight, len(w.waiters))
	}
}

// A 429 without Retry-After pauses every request of the client too, for
// the backoff wait: the limit is the server's for all of them. A 502 does
// not: a failed request says nothing of the others.
func TestRateLimitWithoutRetryAfterPausesTheClient(t *testing.T) {
	t.Parallel()
	status := http.StatusBadGateway
	tr := newTestTransport(Config{RetryWaitMin: time.Second, RetryWaitMax: time.Second, Network: answering{&status}})
	a := tr.newAttempts(Request{Endpoint: "groups", Page: 1})
	send := func() *http.Response {
		req, err := http.NewRequest(http.MethodGet, "https://api.example.com/x", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := tr.stack(a).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	bad := send()

	tr.backoff(a, tr.cfg.RetryWaitMin, tr.cfg.RetryWaitMax, 0, bad)
	if !tr.pause.until.IsZero() {
		t.Fatalf("a 502 paused the client until %v", tr.pause.until)
	}
	status = http.StatusTooManyRequests
	before := time.Now()
	limited := send()
	wait := tr.backoff(a, tr.cfg.RetryWaitMin, tr.cfg.RetryWaitMax, 0, limited)
	if wait < 500*time.Millisecond || tr.pause.until.Before(before.Add(wait)) {
		t.Fatalf("429 without Retry-After: wait %v, client paused until %v (%v from now)", wait, tr.pause.until, time.Until(tr.pause.until))
	}
}

// slowCounter is a network that answers 200 after d, and records the most
// requests it had at once.
type slowCounter struct {
	d         time.Duration
	now, most atomic.Int32
}

func (s *slowCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	n := s.now.Add(1)
	defer s.now.Add(-1)
	for {
		m := s.most.Load()
		if n <= m || s.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(s.d)
	return &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
}

// Requests that held their places through a Retry-After pause do not all
// go out when it ends: the refusal that began the pause cut the window,
// and only the window's worth goes, the rest in turn.
func TestPauseEndsWithTheWindowsWorth(t *testing.T) {
	t.Parallel()
	network := &slowCounter{d: 200 * time.Millisecond} // long enough to overlap on a loaded machine
	t4 := newTestTransport(Config{MaxConcurrency: 4})
	w := t4.window
	t4.pause.extend(time.Now().Add(400 * time.Millisecond))
	tr := &sendStage{t: t4, a: &attempts{}, base: network}
	wg := sendConcurrently(t, tr, 4)
	time.Sleep(50 * time.Millisecond) // all four hold places, at the gate
	w.mu.Lock()
	next := w.sent + 1
	w.mu.Unlock()
	w.limited(next) // the refusal that began the pause: 4 → 2
	wg.Wait()
	if m := network.most.Load(); m != 2 {
		t.Fatalf("%d requests went out at once when the pause ended, want the window's 2", m)
	}
	if w.inFlight != 0 || len(w.waiters) != 0 {
		t.Fatalf("in flight %d, waiting %d after every request", w.inFlight, len(w.waiters))
	}
}

// refusingNetwork answers every request 429.
type refusingNetwork struct{}

func (refusingNetwork) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
}

// Requests that held their places through a pause go out after the cut that
// came with it: refused then, they cut the window again. (Numbered when
// their places were granted, before the cut, they would not.)
func TestRequestsSentAfterACutCutAgain(t *testing.T) {
	t.Parallel()
	t4 := newTestTransport(Config{MaxConcurrency: 4})
	w := t4.window
	t4.pause.extend(time.Now().Add(200 * time.Millisecond))
	tr := &sendStage{t: t4, a: &attempts{}, base: refusingNetwork{}}
	wg := sendConcurrently(t, tr, 2)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		w.mu.Lock()
		held := w.inFlight
		w.mu.Unlock()
		if held == 2 {
			break // both hold places, at the gate
		}
		if time.Now().After(deadline) {
			t.Fatal("the requests did not take their places")
		}
	}
	w.limited(w.send()) // the refusal that began the pause: 4 → 2
	wg.Wait()
	if got := w.limit(); got != 1 {
		t.Fatalf("window %d after refusals sent after the cut, want 1", got)
	}
}

// sendConcurrently sends n requests through tr at once, each closing its
// body; wait on the group for them all.
func sendConcurrently(t *testing.T, tr http.RoundTripper, n int) *sync.WaitGroup {
	t.Helper()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, "https://api.example.com/x", nil)
			resp, err := tr.RoundTrip(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		}()
	}
	return &wg
}
