package client

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestConnectionResetsAreRetried(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 25, Faults: sandbox.Faults{ConnectionResets: 2}})
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
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 3, Faults: sandbox.Faults{ConnectionResets: 10}})
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
			sb, base := sandbox.StartForTest(t, sandbox.Options{Payments: 25, Faults: sandbox.Faults{ServerErrors: 2, ServerErrorStatus: status}})
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

			// One failure more than the retries allow: an failure.APIError that says
			// how many attempts were made.
			// (A fresh server: cancelled requests of the first read may still
			// be arriving at the first one.)
			sb, base = sandbox.StartForTest(t, sandbox.Options{Payments: 25, Faults: sandbox.Faults{ServerErrors: 3, ServerErrorStatus: status}})
			c2 := newClient(t, Config{BaseURL: base, MaxRetries: 2})
			ps, err = c2.Payments(context.Background(), ListOptions{PageSize: 10})
			if ps != nil {
				t.Fatalf("partial result with error")
			}
			ae := requireAPIError(t, err, status)
			if ae.Attempts != 3 || ae.Endpoint != "payments" || ae.Page != 1 {
				t.Fatalf("failure.APIError %+v, want 3 attempts at payments page 1", ae)
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
	sb, base := sandbox.StartForTest(t, sandbox.Options{Groups: 5, Faults: sandbox.Faults{ServerErrors: 5, ServerErrorStatus: http.StatusNotImplemented}})
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
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 3, Faults: sandbox.Faults{ServerErrors: 1}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: NoRetries})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	ae := requireAPIError(t, err, http.StatusServiceUnavailable)
	if ae.Attempts != 1 || sb.Requests("memberships") != 1 {
		t.Fatalf("attempts %d, requests %d, want 1", ae.Attempts, sb.Requests("memberships"))
	}
	if strings.Contains(err.Error(), "attempts") {
		t.Fatalf("one attempt reported as several: %v", err)
	}

	sb2, base2 := sandbox.StartForTest(t, sandbox.Options{Memberships: 3, Faults: sandbox.Faults{ConnectionResets: 1}})
	c2 := newClient(t, Config{BaseURL: base2, MaxRetries: NoRetries})
	_, err = c2.Memberships(context.Background(), MembershipQuery{})
	requirePageError(t, err, "memberships", 1)
	if n := sb2.Requests("memberships"); n != 1 {
		t.Fatalf("reset retried with NoRetries: %d requests", n)
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

// On synctest's clock, with the sandbox in process: the retry has surely
// reached the server when the read fails (on loopback, a loaded server might
// not have read it within the 50 ms).
func TestAttemptTimeoutIsRetried(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sb := sandbox.New(sandbox.Options{Memberships: 2, Faults: sandbox.Faults{Latency: 2 * time.Second}})
		c := newClient(t, Config{BaseURL: inProcessURL, network: inProcess{sb}, Timeout: 50 * time.Millisecond, MaxRetries: 1})
		start := time.Now()
		_, err := c.Memberships(context.Background(), MembershipQuery{})
		requirePageError(t, err, "memberships", 1)
		if !strings.Contains(err.Error(), "no complete answer within Config.Timeout (50ms)") {
			t.Fatalf("per-attempt timeout not applied after %v: %v", time.Since(start), err)
		}
		if n := sb.Requests("memberships"); n != 2 {
			t.Fatalf("%d requests, want 2", n)
		}
	})
}
