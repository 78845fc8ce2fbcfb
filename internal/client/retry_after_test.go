package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The waits of this file's tests are read on synctest's clock, with the API
// in process (inProcess): exact, in no time, however loaded the machine.
func TestRateLimitRetryAfterSeconds(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		sb := sandbox.New(sandbox.Options{Memberships: 5, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "1", OnlyPages: []int{1}}})
		c := newClient(t, Config{BaseURL: inProcessURL, network: inProcess{sb}})
		start := time.Now()
		ms, err := c.Memberships(context.Background(), MembershipQuery{})
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d < time.Second {
			t.Fatalf("retried after %v, before the server's Retry-After of 1s", d)
		}
		if len(ms) != 5 || sb.Requests("memberships") != 4 { // 429, page 1, empty page 2 twice
			t.Fatalf("%d records, %d requests", len(ms), sb.Requests("memberships"))
		}
	})
}

func TestRateLimitRetryAfterZeroAndExhausted(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{RateLimited: 10, RetryAfter: "0"}})
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
	synctest.Test(t, testRetryAfterHTTPDate)
}

func testRetryAfterHTTPDate(t *testing.T) {
	var mu sync.Mutex
	var limitedAt time.Time
	ids := syntheticIDs(4)
	api := newFakeAPIInProcess(func(w http.ResponseWriter, r *http.Request, a arrival) {
		mu.Lock()
		first := limitedAt.IsZero()
		if first {
			limitedAt = time.Now()
		}
		mu.Unlock()
		if first {
			// An HTTP date has whole seconds: this is 1 to 2 s away
			// (2 s on the bubble's clock, which starts on a whole second).
			w.Header().Set("Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		serveList(ids)(w, r, a)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, network: inProcess{api}})
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
	synctest.Test(t, testRetryAfterOn503AndPastDate)
}

func testRetryAfterOn503AndPastDate(t *testing.T) {
	api := newFakeAPIInProcess(func(w http.ResponseWriter, r *http.Request, a arrival) {
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
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, network: inProcess{api}})
	if _, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil {
		t.Fatal(err)
	}
	log := api.log()
	if len(log) != 5 { // the two refusals, the empty page 1, page 1 at two other counts
		t.Fatalf("%d requests, want 5", len(log))
	}
	if gap := log[1].at.Sub(log[0].at); gap < time.Second {
		t.Fatalf("503 Retry-After: 1 honoured only %v", gap)
	}
	// The retry's own backoff is newClient's 1 to 10 ms; on the bubble's
	// clock nothing else passes, however loaded the machine.
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
		// A client that waited would wait MaxRetryWait (2 minutes): the
		// bound is below it, and far above a loaded machine's delay.
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxRetryWait: 2 * time.Minute})
		start := time.Now()
		_, err := c.Memberships(context.Background(), MembershipQuery{})
		if d := time.Since(start); d > time.Minute {
			t.Fatalf("HTTP %d: the read took %v before failing", status, d)
		}
		var rw *transport.RetryWaitError
		if !errors.As(err, &rw) || rw.Status != status || rw.Wait != time.Hour || rw.Max != 2*time.Minute {
			t.Fatalf("HTTP %d: got %#v (%v), want a transport.RetryWaitError for 1h over 2m", status, rw, err)
		}
		for _, want := range []string{"memberships page 1", fmt.Sprintf("HTTP %d", status), "1h0m0s", "Config.MaxRetryWait (2m0s)"} {
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
	synctest.Test(t, func(t *testing.T) {
		sb := sandbox.New(sandbox.Options{Memberships: 2, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "1", OnlyPages: []int{1}}})
		c := newClient(t, Config{BaseURL: inProcessURL, network: inProcess{sb}, MaxRetryWait: time.Second})
		start := time.Now()
		if _, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d < time.Second {
			t.Fatalf("the 1s Retry-After was waited only %v", d)
		}
		if n := sb.Requests("memberships"); n != 4 { // 429, page 1, empty page 2 twice
			t.Fatalf("%d requests, want 4", n)
		}
	})
}

// One worker's 429 with Retry-After holds every worker of the client until
// the pause ends: no request reaches the server in the meantime. On the
// bubble's clock, so a stalled machine cannot move an arrival into the pause.
func TestRetryAfterPausesEveryWorker(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testRetryAfterPausesEveryWorker)
}

func testRetryAfterPausesEveryWorker(t *testing.T) {
	const size = 3
	ids := syntheticIDs(size*9 + 1) // nine full pages and a short tenth
	var mu sync.Mutex
	var limitedAt time.Time
	tried := map[int]bool{}
	api := newFakeAPIInProcess(func(w http.ResponseWriter, r *http.Request, a arrival) {
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
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 4, MaxRetries: 3, network: inProcess{api}})
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
