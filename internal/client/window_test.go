package client

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// statusCounter wraps a handler and counts the requests it answered, and
// those it answered 429.
type statusCounter struct {
	h              http.Handler
	total, limited atomic.Int32
}

func (c *statusCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.total.Add(1)
	rec := &statusRecorder{ResponseWriter: w}
	c.h.ServeHTTP(rec, r)
	if rec.status == http.StatusTooManyRequests {
		c.limited.Add(1)
	}
}

// inFlightTransport records the most requests a client had out at once, as
// the client sees them: from sending to closing the body. (The server sees
// a little later: its handler may still be returning when the client has
// the whole body, or was told to stop waiting.)
type inFlightTransport struct {
	base      http.RoundTripper
	now, most atomic.Int32
}

func (t *inFlightTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	n := t.now.Add(1)
	for {
		m := t.most.Load()
		if n <= m || t.most.CompareAndSwap(m, n) {
			break
		}
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		t.now.Add(-1)
		return nil, err
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: func() { t.now.Add(-1) }}
	return resp, nil
}

type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (r *statusRecorder) WriteHeader(s int) { r.status = s; r.ResponseWriter.WriteHeader(s) }

// Twenty reads at once on one client, against a server that allows a few
// requests a second: every read comes back whole, none runs out of retries
// (each is refused now and then while the others get through), and the
// client as a whole never has more than MaxConcurrency requests out.
// MaxRetries is 2, fewer than the default, so that a client that charged
// every refusal, or let each read send its own four at once, fails here.
func TestTwentyReadsShareOneRateLimit(t *testing.T) {
	t.Parallel()
	// Thirty requests a second, in bursts of thirty; a read is four to six
	// pages, the empty page that confirms the end, and page 1 again.
	const rate, burst = 30.0, 30
	sb := sandbox.New(sandbox.Options{Seed: 3, Memberships: 100, Faults: sandbox.Faults{RateLimit: rate, Latency: 20 * time.Millisecond}})
	counter := &statusCounter{h: sb}
	srv := httptest.NewServer(counter)
	t.Cleanup(srv.Close)
	c := newClient(t, Config{BaseURL: srv.URL, MaxConcurrency: 4, MaxRetries: 2})
	inFlight := &inFlightTransport{base: networkOf(c).base}
	networkOf(c).base = inFlight

	want := rawIDs(t, sb.MembershipsJSON(nil))
	start := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Page sizes differ, so no two reads share a fetch.
			ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 20 + i}})
			if err == nil && fmt.Sprint(membershipIDs(ms)) != fmt.Sprint(want) {
				err = fmt.Errorf("%d records, not the %d the server holds", len(ms), len(want))
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	for i, err := range errs {
		if err != nil {
			t.Errorf("read %d (page size %d): %v", i, 20+i, err)
		}
	}
	if m := inFlight.most.Load(); m > 4 {
		t.Errorf("%d requests in flight at once, more than max concurrency 4", m)
	}
	reqs := counter.total.Load()
	// The first requests are the bucket's burst; the rest come at the rate.
	ideal := time.Duration(float64(reqs-counter.limited.Load()-burst) / rate * float64(time.Second))
	t.Logf("%d requests, %d answered 429; wall %v, ideal %v ((requests served − burst) ÷ allowed rate): %.2f×",
		reqs, counter.limited.Load(), wall.Round(time.Millisecond), ideal.Round(time.Millisecond), float64(wall)/float64(ideal))
	if counter.limited.Load() == 0 {
		t.Fatal("no request met the rate limit: the test proves nothing of sharing it")
	}
}

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

// A request refused for the rate again and again is not charged against
// MaxRetries while other requests of the client get through: its turn
// comes. Here read A is refused until read B, one record a page, has had
// twenty-four pages served; each refusal takes 40 ms, each of B's pages
// 5 ms, so A is refused three times or more, more often than MaxRetries
// allows, and B always gets a page through between two of A's refusals.
func TestRateLimitRetriesNotChargedWhileOthersProgress(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(40)
	var servedB atomic.Int32
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.size == 1 { // read B: one record a page
			time.Sleep(5 * time.Millisecond)
			servedB.Add(1)
			serveList(ids)(w, r, a)
			return
		}
		if servedB.Load() < 24 {
			time.Sleep(40 * time.Millisecond) // B gets pages through meanwhile
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		serveList(ids)(w, r, a)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 2, MaxRetries: 1})
	var wg sync.WaitGroup
	var errA, errB error
	var gotA []Membership
	wg.Add(2)
	go func() {
		defer wg.Done()
		gotA, errA = c.Memberships(context.Background(), MembershipQuery{})
	}()
	go func() {
		defer wg.Done()
		time.Sleep(5 * time.Millisecond) // A's page 1 goes out first
		_, errB = c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 1}})
	}()
	wg.Wait()
	if errA != nil || errB != nil {
		t.Fatalf("read A: %v; read B: %v", errA, errB)
	}
	equalIDs(t, "read A", membershipIDs(gotA), ids)
	refused := 0
	for _, a := range api.log() {
		if a.size != 1 && a.page == 1 {
			refused++
		}
	}
	if refused <= 2 {
		t.Fatalf("read A's page 1 was asked for %d times: the test did not refuse it more often than MaxRetries allows", refused)
	}
}

// A 429 without Retry-After pauses every request of the client too, for
// the backoff wait: the limit is the server's for all of them. A 502 does
// not: a failed request says nothing of the others.
func TestRateLimitWithoutRetryAfterPausesTheClient(t *testing.T) {
	t.Parallel()
	c := newClient(t, Config{BaseURL: "https://api.example.com", Token: testToken, RetryWaitMin: time.Second, RetryWaitMax: time.Second})
	req, err := http.NewRequest(http.MethodGet, "https://api.example.com/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	bad := &http.Response{StatusCode: http.StatusBadGateway, Header: http.Header{}, Request: req}
	c.backoff(c.cfg.RetryWaitMin, c.cfg.RetryWaitMax, 0, bad)
	if !c.pause.until.IsZero() {
		t.Fatalf("a 502 paused the client until %v", c.pause.until)
	}
	limited := &http.Response{StatusCode: http.StatusTooManyRequests, Header: http.Header{}, Request: req}
	before := time.Now()
	wait := c.backoff(c.cfg.RetryWaitMin, c.cfg.RetryWaitMax, 0, limited)
	if wait < 500*time.Millisecond || c.pause.until.Before(before.Add(wait)) {
		t.Fatalf("429 without Retry-After: wait %v, client paused until %v (%v from now)", wait, c.pause.until, time.Until(c.pause.until))
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
	w := newSendWindow(4)
	gate := &pauseGate{}
	gate.extend(time.Now().Add(400 * time.Millisecond))
	network := &slowCounter{d: 200 * time.Millisecond} // long enough to overlap on a loaded machine
	tr := &sendTransport{gate: gate, window: w, base: network, logger: discardLogger{}}
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

// A redirect is no progress of the client: a request that is redirected,
// then refused for the rate, every time, has its retries charged and
// fails after max_retries, instead of counting its own redirects as
// others' progress and retrying until its deadline.
func TestRedirectsAreNotProgress(t *testing.T) {
	t.Parallel()
	var refusals atomic.Int32
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if r.URL.Query().Get("r") == "" {
			q := r.URL.Query()
			q.Set("r", "1")
			http.Redirect(w, r, r.URL.Path+"?"+q.Encode(), http.StatusFound)
			return
		}
		refusals.Add(1)
		w.WriteHeader(http.StatusTooManyRequests)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxRetries: 2, MaxConcurrency: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.Memberships(ctx, MembershipQuery{})
	requireAPIError(t, err, http.StatusTooManyRequests)
	if n := refusals.Load(); n != 3 {
		t.Fatalf("%d refusals, want 3 (one attempt and max_retries 2)", n)
	}
}

// A Retry-After of 0, or a date already past, is waited as the shortest
// backoff, not retried at once.
func TestRetryAfterInThePastWaitsTheShortestBackoff(t *testing.T) {
	t.Parallel()
	var refused atomic.Bool
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page == 1 && !refused.Swap(true) {
			w.Header().Set("Retry-After", "Mon, 02 Jan 2006 15:04:05 GMT")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		serveList(syntheticIDs(3))(w, r, a)
	})
	const shortest = 300 * time.Millisecond
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, RetryWaitMin: shortest, RetryWaitMax: time.Second})
	start := time.Now()
	if _, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < shortest {
		t.Fatalf("the read took %v: the past Retry-After was retried at once, not after %v", took, shortest)
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
	w := newSendWindow(4)
	gate := &pauseGate{}
	gate.extend(time.Now().Add(200 * time.Millisecond))
	tr := &sendTransport{gate: gate, window: w, base: refusingNetwork{}, logger: discardLogger{}}
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
