package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestConnectionResetsAreRetried(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 25, Faults: sandbox.Faults{ConnectionResets: 2}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: 3, MaxConcurrency: 1})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), rawIDs(t, sb.MembershipsJSON(nil)))
	// Three pages and the confirmation of the short one, each reset twice
	// before it is served, and the short page 3 asked a second time (its
	// third attempt, served at once).
	if n := sb.Requests("memberships"); n != 13 {
		t.Fatalf("%d requests, want 13", n)
	}
}

func TestConnectionResetsExhaustRetries(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 3, Faults: sandbox.Faults{ConnectionResets: 10}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: 2})
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if ms != nil {
		t.Fatalf("partial result %d records with error", len(ms))
	}
	pe := requirePageError(t, err, "memberships", 1)
	if !strings.HasPrefix(pe.Reason, "the request failed after 3 attempts over ") {
		t.Fatalf("reason %q", pe.Reason)
	}
	// Every attempt is on a fresh connection (the last one was reset), so
	// net/http adds no retries of its own.
	if n := sb.Requests("memberships"); n != 3 {
		t.Fatalf("%d requests, want 3 (1 + MaxRetries)", n)
	}
}

func TestServerErrorBurstsAreRetried(t *testing.T) {
	t.Parallel()
	for _, status := range []int{500, 502, 503, 504} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			sb, base := startSandbox(t, sandbox.Options{Payments: 25, Faults: sandbox.Faults{ServerErrors: 2, ServerErrorStatus: status}})
			c := newClient(t, Config{BaseURL: base, MaxRetries: 2})
			ps, err := c.Payments(context.Background(), ListOptions{PageSize: 10})
			if err != nil {
				t.Fatal(err)
			}
			equalIDs(t, "payments", paymentIDs(ps), rawIDs(t, sb.PaymentsJSON()))
			// Pages 1..4 each fail twice (page 4 confirms the end of the
			// short page 3); page 1 is asked for once more at the end of
			// the concurrent read, to check that the list did not change,
			// and the short page 3 is asked a second time.
			pages := map[string]int{}
			for _, r := range sb.RequestLog() {
				pages[r.Query.Get("page")]++
			}
			for p, want := range map[string]int{"1": 4, "2": 3, "3": 4, "4": 3} {
				if pages[p] != want {
					t.Fatalf("page %s: %d attempts, want %d (%v)", p, pages[p], want, pages)
				}
			}

			// One failure more than the retries allow: an APIError that says
			// how many attempts were made.
			// (A fresh server: cancelled requests of the first read may still
			// be arriving at the first one.)
			sb, base = startSandbox(t, sandbox.Options{Payments: 25, Faults: sandbox.Faults{ServerErrors: 3, ServerErrorStatus: status}})
			c2 := newClient(t, Config{BaseURL: base, MaxRetries: 2})
			ps, err = c2.Payments(context.Background(), ListOptions{PageSize: 10})
			if ps != nil {
				t.Fatalf("partial result with error")
			}
			ae := requireAPIError(t, err, status)
			if ae.Attempts != 3 || ae.Endpoint != "payments" || ae.Page != 1 {
				t.Fatalf("APIError %+v, want 3 attempts at payments page 1", ae)
			}
			if !strings.Contains(err.Error(), "after 3 attempts") || !strings.Contains(err.Error(), "server failed") {
				t.Fatalf("message %q", err)
			}
			if n := sb.Requests("payments"); n != 3 {
				t.Fatalf("%d requests, want 3", n)
			}
		})
	}
}

func TestNotImplementedIsNotRetried(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Groups: 5, Faults: sandbox.Faults{ServerErrors: 5, ServerErrorStatus: http.StatusNotImplemented}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: 4})
	_, err := c.Groups(context.Background(), ListOptions{})
	ae := requireAPIError(t, err, http.StatusNotImplemented)
	if ae.Attempts != 1 || sb.Requests("groups") != 1 {
		t.Fatalf("501 retried: attempts %d, requests %d", ae.Attempts, sb.Requests("groups"))
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 401, 403, 404, 405, 409, 410, 422} {
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
			http.Error(w, `{"error":"nope"}`, status)
		})
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxRetries: 4})
		_, err := c.Memberships(context.Background(), MembershipQuery{})
		ae := requireAPIError(t, err, status)
		if ae.Attempts != 1 || api.count() != 1 {
			t.Errorf("HTTP %d retried: attempts %d, requests %d", status, ae.Attempts, api.count())
		}
	}
}

func TestNoRetriesMeansOneAttempt(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 3, Faults: sandbox.Faults{ServerErrors: 1}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: NoRetries})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	ae := requireAPIError(t, err, http.StatusServiceUnavailable)
	if ae.Attempts != 1 || sb.Requests("memberships") != 1 {
		t.Fatalf("attempts %d, requests %d, want 1", ae.Attempts, sb.Requests("memberships"))
	}
	if strings.Contains(err.Error(), "attempts") {
		t.Fatalf("one attempt reported as several: %v", err)
	}

	sb2, base2 := startSandbox(t, sandbox.Options{Memberships: 3, Faults: sandbox.Faults{ConnectionResets: 1}})
	c2 := newClient(t, Config{BaseURL: base2, MaxRetries: NoRetries})
	_, err = c2.Memberships(context.Background(), MembershipQuery{})
	requirePageError(t, err, "memberships", 1)
	if n := sb2.Requests("memberships"); n != 1 {
		t.Fatalf("reset retried with NoRetries: %d requests", n)
	}
}

func TestRateLimitRetryAfterSeconds(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "1", OnlyPages: []int{1}}})
	c := newClient(t, Config{BaseURL: base})
	start := time.Now()
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 950*time.Millisecond {
		t.Fatalf("retried after %v, before the server's Retry-After of 1s", d)
	}
	if len(ms) != 5 || sb.Requests("memberships") != 4 { // 429, page 1, empty page 2 twice
		t.Fatalf("%d records, %d requests", len(ms), sb.Requests("memberships"))
	}
}

func TestRateLimitRetryAfterZeroAndExhausted(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{RateLimited: 10, RetryAfter: "0"}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: 3})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	ae := requireAPIError(t, err, http.StatusTooManyRequests)
	if ae.Attempts != 4 || sb.Requests("memberships") != 4 {
		t.Fatalf("attempts %d, requests %d, want 4", ae.Attempts, sb.Requests("memberships"))
	}
	if !strings.Contains(err.Error(), "rate limited") {
		t.Fatalf("message %q", err)
	}
}

func TestRetryAfterHTTPDate(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var limitedAt time.Time
	ids := syntheticIDs(4)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		mu.Lock()
		first := limitedAt.IsZero()
		if first {
			limitedAt = time.Now()
		}
		mu.Unlock()
		if first {
			// An HTTP date has whole seconds: this is 1 to 2 s away.
			w.Header().Set("Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		serveList(ids)(w, r, a)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)
	log := api.log()
	if len(log) != 4 { // 429, page 1, empty page 2 twice
		t.Fatalf("%d requests, want 4", len(log))
	}
	if gap := log[1].at.Sub(log[0].at); gap < 900*time.Millisecond {
		t.Fatalf("retried %v after the 429, before the Retry-After date", gap)
	}
}

func TestRetryAfterOn503AndPastDate(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		switch a.seq {
		case 1:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		case 2:
			w.Header().Set("Retry-After", time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
		default:
			writeJSON(w, []byte("[]"))
		}
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	if _, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil {
		t.Fatal(err)
	}
	log := api.log()
	if len(log) != 4 { // the refusal, page 1, the empty page 2 twice
		t.Fatalf("%d requests, want 4", len(log))
	}
	if gap := log[1].at.Sub(log[0].at); gap < 950*time.Millisecond {
		t.Fatalf("503 Retry-After: 1 honoured only %v", gap)
	}
	if gap := log[2].at.Sub(log[1].at); gap > 500*time.Millisecond {
		t.Fatalf("a Retry-After date in the past made the client wait %v", gap)
	}
}

// A Retry-After longer than MaxRetryWait fails the read at once, naming the
// status, the wait asked for and the setting; one request is made.
func TestRetryAfterLongerThanMaxRetryWaitFails(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusTooManyRequests, http.StatusServiceUnavailable} {
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(status)
		})
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxRetryWait: 2 * time.Second})
		start := time.Now()
		_, err := c.Memberships(context.Background(), MembershipQuery{})
		if d := time.Since(start); d > time.Second {
			t.Fatalf("HTTP %d: the read took %v before failing", status, d)
		}
		var rw *RetryWaitError
		if !errors.As(err, &rw) || rw.Status != status || rw.Wait != time.Hour || rw.Max != 2*time.Second {
			t.Fatalf("HTTP %d: got %#v (%v), want a RetryWaitError for 1h over 2s", status, rw, err)
		}
		for _, want := range []string{"memberships page 1", fmt.Sprintf("HTTP %d", status), "1h0m0s", "Config.MaxRetryWait (2s)"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("HTTP %d: error %q does not say %q", status, err, want)
			}
		}
		if n := api.count(); n != 1 {
			t.Fatalf("HTTP %d: %d requests, want 1", status, n)
		}
	}
}

// A Retry-After within MaxRetryWait is waited out; the default is 60s.
func TestRetryAfterWithinMaxRetryWaitIsHonoured(t *testing.T) {
	t.Parallel()
	if got := (Config{}).withDefaults().MaxRetryWait; got != time.Minute {
		t.Fatalf("default MaxRetryWait %v, want 1m", got)
	}
	sb, base := startSandbox(t, sandbox.Options{Memberships: 2, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "1", OnlyPages: []int{1}}})
	c := newClient(t, Config{BaseURL: base, MaxRetryWait: time.Second})
	start := time.Now()
	if _, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < 950*time.Millisecond {
		t.Fatalf("the 1s Retry-After was waited only %v", d)
	}
	if n := sb.Requests("memberships"); n != 4 { // 429, page 1, empty page 2 twice
		t.Fatalf("%d requests, want 4", n)
	}
}

// Backoff waits never exceed MaxRetryWait: the bounds the client gives
// the transport are capped by it (the transport's waits stay within its
// bounds: TestExponentialJitterBounds).
func TestBackoffIsCappedByMaxRetryWait(t *testing.T) {
	t.Parallel()
	cfg := Config{MaxRetryWait: 300 * time.Millisecond, RetryWaitMin: time.Second, RetryWaitMax: time.Minute}.withDefaults()
	if cfg.RetryWaitMax != 300*time.Millisecond || cfg.RetryWaitMin > cfg.RetryWaitMax {
		t.Fatalf("backoff bounds %v..%v with MaxRetryWait 300ms", cfg.RetryWaitMin, cfg.RetryWaitMax)
	}
}

func TestAttemptTimeoutIsRetried(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 2, Faults: sandbox.Faults{Latency: 2 * time.Second}})
	c := newClient(t, Config{BaseURL: base, Timeout: 50 * time.Millisecond, MaxRetries: 1})
	start := time.Now()
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	requirePageError(t, err, "memberships", 1)
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Fatalf("per-attempt timeout not applied: %v", d)
	}
	if n := sb.Requests("memberships"); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}

// One worker's 429 with Retry-After holds every worker of the client until
// the pause ends: no request reaches the server in the meantime.
func TestRetryAfterPausesEveryWorker(t *testing.T) {
	t.Parallel()
	const size = 3
	ids := syntheticIDs(size*9 + 1) // nine full pages and a short tenth
	var mu sync.Mutex
	var limitedAt time.Time
	tried := map[int]bool{}
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		mu.Lock()
		first := !tried[a.page]
		tried[a.page] = true
		if first && a.page == 2 {
			limitedAt = time.Now()
		}
		mu.Unlock()
		switch {
		case first && a.page == 2:
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		case first && a.page > 2:
			// The other workers fail slowly, after the 429 has paused the
			// client; their retries must wait for the pause to end.
			time.Sleep(200 * time.Millisecond)
			w.WriteHeader(http.StatusBadGateway)
			return
		}
		serveList(ids)(w, r, a)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 4, MaxRetries: 3})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: size}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)

	mu.Lock()
	t429 := limitedAt
	mu.Unlock()
	from, to := t429.Add(100*time.Millisecond), t429.Add(900*time.Millisecond)
	for _, a := range api.log() {
		if a.at.After(from) && a.at.Before(to) {
			t.Errorf("page %d reached the server %v after the 429, during the Retry-After pause", a.page, a.at.Sub(t429))
		}
	}
	// The pages that failed while page 2 was limited were retried after it.
	pages := api.pagesOf()
	if pages[2] != 2 || pages[3] != 2 {
		t.Fatalf("attempts per page: %v", pages)
	}
}
