package transport

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A 429 without Retry-After pauses every request of the client too, for
// the backoff wait: the limit is the server's for all of them. A 502 does
// not: a failed request says nothing of the others.
func TestRateLimitWithoutRetryAfterPausesTheClient(t *testing.T) {
	t.Parallel()
	status := http.StatusBadGateway
	tr := newTestTransport(Config{RetryWaitMin: time.Second, RetryWaitMax: time.Second, Network: answering{&status}})
	ctx := context.WithValue(context.Background(), attemptsKey{}, &attempts{endpoint: "groups", page: 1})
	send := func() *http.Response {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/x", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := sender{tr}.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	bad := send()

	tr.backoff(tr.cfg.RetryWaitMin, tr.cfg.RetryWaitMax, 0, bad)
	if !tr.pause.until.IsZero() {
		t.Fatalf("a 502 paused the client until %v", tr.pause.until)
	}
	status = http.StatusTooManyRequests
	before := time.Now()
	limited := send()
	wait := tr.backoff(tr.cfg.RetryWaitMin, tr.cfg.RetryWaitMax, 0, limited)
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

// Never more requests are in flight than MaxConcurrency, whatever number
// of reads send at once; the rest wait their turn and all go out.
func TestInFlightNeverPassesTheLimit(t *testing.T) {
	t.Parallel()
	network := &slowCounter{d: 50 * time.Millisecond}
	tr := newTestTransport(Config{MaxConcurrency: 3, Network: network})
	sendConcurrently(t, sender{tr}, 10).Wait()
	if m := network.most.Load(); m != 3 {
		t.Fatalf("%d requests were in flight at once, want the limit, 3", m)
	}
	if got := tr.successes.Load(); got != 10 {
		t.Fatalf("%d successes counted, want 10", got)
	}
}

// sendConcurrently sends n requests at once through send, each closing
// its body; wait on the group for them all.
func sendConcurrently(t *testing.T, send http.RoundTripper, n int) *sync.WaitGroup {
	t.Helper()
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req, _ := http.NewRequest(http.MethodGet, "https://api.example.com/x", nil)
			resp, err := send.RoundTrip(req)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
		}()
	}
	return &wg
}
