package sandbox

import (
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestTokenBucket(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1000, 0)
	b := newTokenBucket(4, 2, t0)
	for i := range 2 {
		if _, ok := b.take(t0); !ok {
			t.Fatalf("request %d of the burst refused", i+1)
		}
	}
	wait, ok := b.take(t0)
	if ok || wait != "1" {
		t.Fatalf("third request at once: ok %v, Retry-After %q; want refused with 1", ok, wait)
	}
	// A refused request takes no token: a quarter second later one is there.
	if _, ok := b.take(t0.Add(250 * time.Millisecond)); !ok {
		t.Fatal("refused after the bucket gained a token")
	}
	// Slow rates ask for the whole seconds until a token.
	slow := newTokenBucket(0.2, 1, t0)
	slow.take(t0)
	if wait, ok := slow.take(t0.Add(time.Second)); ok || wait != "4" {
		t.Fatalf("0.2/s one second after the last token: ok %v, Retry-After %q; want 4", ok, wait)
	}
	// No rate: no limit, and the default burst is the rate.
	var none tokenBucket
	if _, ok := none.take(t0); !ok {
		t.Fatal("no rate limit refused a request")
	}
	if b := newTokenBucket(20, 0, t0); b.burst != 20 {
		t.Fatalf("default burst %v, want 20", b.burst)
	}
}

func TestRateLimitIsSharedByEveryEndpoint(t *testing.T) {
	t.Parallel()
	// One token a minute after a burst of 3: the fourth request, whichever
	// endpoint it is for, is refused.
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 5, Payments: 5, Groups: 5, OrgMetrics: 5,
		Faults: Faults{RateLimit: 1.0 / 60, RateBurst: 3}})
	var got []string
	t0 := time.Now()
	for _, ep := range []string{EndpointMemberships, EndpointPayments, EndpointGroups, EndpointOrgMetrics} {
		status, r := outcome(t, base, paths[ep], 1)
		got = append(got, status)
		if status != "429" {
			continue
		}
		// The whole seconds until the next token: 60 less what the bucket
		// gained since the first request, which is at most what passed here
		// (a loaded machine may take a second over four requests).
		wait, err := strconv.Atoi(r.header.Get("Retry-After"))
		if passed := time.Since(t0); err != nil || wait > 60 || float64(wait) < 60-passed.Seconds() {
			t.Fatalf("Retry-After %q %v after the first request, want 60 less the whole seconds since", r.header.Get("Retry-After"), passed)
		}
	}
	if want := []string{"200", "200", "200", "429"}; !slices.Equal(got, want) {
		t.Fatalf("statuses %v, want %v", got, want)
	}
	// SetFaults refills the bucket.
	s.SetFaults(Faults{RateLimit: 1.0 / 60, RateBurst: 3})
	if status, _ := outcome(t, base, paths[EndpointGroups], 1); status != "200" {
		t.Fatalf("after SetFaults: %s", status)
	}
}
