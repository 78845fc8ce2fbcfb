package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
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
	resp.Body = &closeCounter{ReadCloser: resp.Body, closed: func() { t.now.Add(-1) }}
	return resp, nil
}

// closeCounter calls closed once, when the body is closed.
type closeCounter struct {
	io.ReadCloser
	once   sync.Once
	closed func()
}

func (b *closeCounter) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.closed)
	return err
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
// MaxRetries is 1, fewer than the default, so that a client that charged
// every refusal, or let each read send its own four at once, fails here.
// On synctest's clock, with the sandbox in process: four requests every
// 20 ms is 200 a second, so the reads meet the limit of 30 however slow the
// machine (on a real clock a slow machine could stay under it and prove
// nothing).
func TestTwentyReadsShareOneRateLimit(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testTwentyReadsShareOneRateLimit)
}

func testTwentyReadsShareOneRateLimit(t *testing.T) {
	// Thirty requests a second, in bursts of thirty; a read is four to six
	// pages, the empty page that confirms the end, and page 1 again.
	const rate, burst = 30.0, 30
	sb := sandbox.New(sandbox.Options{Seed: 3, Memberships: 100, Faults: sandbox.Faults{RateLimit: rate, Latency: 20 * time.Millisecond}})
	counter := &statusCounter{h: sb}
	inFlight := &inFlightTransport{base: inProcess{counter}}
	c := newClient(t, Config{BaseURL: inProcessURL, MaxConcurrency: 4, MaxRetries: 1, network: inFlight})

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
	t.Logf("%d requests, %d answered 429; took %v on the bubble's clock, ideal %v ((requests served − burst) ÷ allowed rate): %.2f×",
		reqs, counter.limited.Load(), wall.Round(time.Millisecond), ideal.Round(time.Millisecond), float64(wall)/float64(ideal))
	if counter.limited.Load() == 0 {
		t.Fatal("no request met the rate limit: the test proves nothing of sharing it")
	}
}

// A request refused for the rate again and again is not charged against
// MaxRetries while other requests of the client get through: its turn
// comes. Here read A is refused until read B, one record a page, has had
// twenty-four pages served; each refusal takes 40 ms, each of B's pages
// 5 ms, so A is refused three times or more, more often than MaxRetries
// allows, and B always gets a page through between two of A's refusals:
// on synctest's clock, with the API in process, so a stalled machine cannot
// hold B back while A's refusals go on.
func TestRateLimitRetriesNotChargedWhileOthersProgress(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testRateLimitRetriesNotChargedWhileOthersProgress)
}

func testRateLimitRetriesNotChargedWhileOthersProgress(t *testing.T) {
	ids := syntheticIDs(40)
	var servedB atomic.Int32
	aAsked := make(chan struct{})
	var once sync.Once
	api := newFakeAPIInProcess(func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.size == 1 { // read B: one record a page
			time.Sleep(5 * time.Millisecond)
			servedB.Add(1)
			serveList(ids)(w, r, a)
			return
		}
		once.Do(func() { close(aAsked) })
		if servedB.Load() < 24 {
			time.Sleep(40 * time.Millisecond) // B gets pages through meanwhile
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		serveList(ids)(w, r, a)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 2, MaxRetries: 1, network: inProcess{api}})
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
		<-aAsked // A's page 1 goes out first
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
