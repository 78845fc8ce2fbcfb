package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

func TestIdenticalReadsAreFetchedOnce(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 250, Payments: 30, Groups: 10, OrgMetrics: 30})
	c := newClient(t, Config{BaseURL: base, MaxConcurrency: 1})
	ctx := context.Background()
	q := MembershipQuery{ListOptions: ListOptions{PageSize: 100}}
	first, err := c.Memberships(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if n := sb.Requests("memberships"); n != expectedRequests(250, 100) {
		t.Fatalf("first read: %d requests", n)
	}
	second, err := c.Memberships(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if n := sb.Requests("memberships"); n != expectedRequests(250, 100) {
		t.Fatalf("identical second read sent requests: %d in total", n)
	}
	equalIDs(t, "cached", membershipIDs(second), membershipIDs(first))

	// A different query is a different read.
	st100, st300 := 100, 300
	want100 := expectedRequests(len(sb.MembershipsJSON(&st100)), 100)
	want300 := expectedRequests(len(sb.MembershipsJSON(&st300)), 100)
	steps := []struct {
		name string
		read func() error
		want int
	}{
		{"status 100", func() error {
			_, err := c.Memberships(ctx, MembershipQuery{Status: int64Ptr(100), ListOptions: ListOptions{PageSize: 100}})
			return err
		}, want100},
		{"status 300", func() error {
			_, err := c.Memberships(ctx, MembershipQuery{Status: int64Ptr(300), ListOptions: ListOptions{PageSize: 100}})
			return err
		}, want300},
		{"status 100 again", func() error {
			_, err := c.Memberships(ctx, MembershipQuery{Status: int64Ptr(100), ListOptions: ListOptions{PageSize: 100}})
			return err
		}, 0},
		{"page size 50", func() error {
			_, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 50}})
			return err
		}, expectedRequests(250, 50)},
		{"default page size", func() error {
			_, err := c.Memberships(ctx, MembershipQuery{})
			return err
		}, expectedRequests(250, 1000)},
		{"default page size = 1000", func() error {
			_, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 1000}})
			return err
		}, 0},
		{"keep raw", func() error {
			ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 100, KeepRaw: true}})
			if err == nil && ms[0].RawJSON == "" {
				return errors.New("KeepRaw read served from the read without raw JSON")
			}
			return err
		}, expectedRequests(250, 100)},
	}
	for _, s := range steps {
		before := sb.Requests("memberships")
		if err := s.read(); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if got := sb.Requests("memberships") - before; got != s.want {
			t.Fatalf("%s: %d requests, want %d", s.name, got, s.want)
		}
	}

	// Other endpoints are cached too.
	for range 2 {
		if _, err := c.Payments(ctx, ListOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.Groups(ctx, ListOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.OrgMetrics(ctx, ListOptions{PageSize: 10}); err != nil {
			t.Fatal(err)
		}
	}
	// Payments and groups: a short page 1, the empty page 2 and its other
	// question;
	// org metrics: three full pages, the last confirming page 1's
	// totalPages.
	if sb.Requests("payments") != 3 || sb.Requests("groups") != 3 || sb.Requests("org_metrics") != 3 {
		t.Fatalf("payments %d, groups %d, org_metrics %d requests", sb.Requests("payments"), sb.Requests("groups"), sb.Requests("org_metrics"))
	}

	// A new client (a new Terraform run) reads again.
	c2 := newClient(t, Config{BaseURL: base})
	before := sb.Requests("memberships")
	if _, err := c2.Memberships(ctx, q); err != nil {
		t.Fatal(err)
	}
	if sb.Requests("memberships") == before {
		t.Fatal("the cache is shared between clients")
	}
}

func TestConcurrentIdenticalReadsShareOneFetch(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 45, Faults: sandbox.Faults{Latency: 30 * time.Millisecond}})
	c := newClient(t, Config{BaseURL: base, MaxConcurrency: 1})
	want := rawIDs(t, sb.MembershipsJSON(nil))
	var wg sync.WaitGroup
	results := make([][]Membership, 8)
	errs := make([]error, 8)
	for i := range 8 {
		wg.Go(func() {
			results[i], errs[i] = c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
		})
	}
	wg.Wait()
	for i := range 8 {
		if errs[i] != nil {
			t.Fatalf("caller %d: %v", i, errs[i])
		}
		equalIDs(t, "shared read", membershipIDs(results[i]), want)
	}
	if n, want := sb.Requests("memberships"), 7; n != want {
		t.Fatalf("8 concurrent identical reads sent %d requests, want %d (one read)", n, want)
	}
}

func TestErrorsAreNotCached(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{ServerErrors: 1}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: NoRetries})
	if _, err := c.Memberships(context.Background(), MembershipQuery{}); err == nil {
		t.Fatal("first read should fail")
	}
	sb.SetFaults(sandbox.Faults{})
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if err != nil {
		t.Fatalf("the failure was cached: %v", err)
	}
	if len(ms) != 5 || sb.Requests("memberships") != 4 { // 1 failed, then pages 1, 2 and 2 again
		t.Fatalf("%d records, %d requests", len(ms), sb.Requests("memberships"))
	}
}

// One waiting caller giving up does not fail the others sharing the read.
func TestOneCallerCancellingDoesNotFailOthers(t *testing.T) {
	t.Parallel()
	// Pages slow enough that the read outlasts the second caller's joining.
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 20, Faults: sandbox.Faults{Latency: 500 * time.Millisecond}})
	c := newClient(t, Config{BaseURL: base})
	q := MembershipQuery{ListOptions: ListOptions{PageSize: 10}}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := c.Memberships(ctx, q)
		errc <- err
	}()
	waitForWaiters(t, c.cache, 1)
	var other []Membership
	var otherErr error
	done := make(chan struct{})
	go func() {
		other, otherErr = c.Memberships(context.Background(), q)
		close(done)
	}()
	waitForWaiters(t, c.cache, 2) // both share the read: now one leaves
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled caller: %v", err)
	}
	<-done
	if otherErr != nil {
		t.Fatalf("the other caller failed because one cancelled: %v", otherErr)
	}
	equalIDs(t, "other", membershipIDs(other), rawIDs(t, sb.MembershipsJSON(nil)))
	// One read, not two: pages 1 to 3, page 3 (empty) and its other question, the
	// closing check of page 1, and at most maxPastEnd past the end.
	if n := sb.Requests("memberships"); n > 3+1+1+maxPastEnd(DefaultMaxConcurrency) {
		t.Fatalf("%d requests", n)
	}
}

// A finished result of more records than the cache retains is not kept:
// the next identical read fetches again (a large result held for the whole
// run would be alive while the provider encodes and sends the state), while
// concurrent identical reads still share one fetch. Small results are kept.
func TestLargeResultsAreNotRetained(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 12, Payments: 3, OrgMetrics: 12,
		Faults: sandbox.Faults{Latency: 50 * time.Millisecond}})
	c := newClient(t, Config{BaseURL: base, MaxConcurrency: 1})
	c.cache.retainUpTo = 5
	ctx := context.Background()
	q := MembershipQuery{ListOptions: ListOptions{PageSize: 5}}
	for range 2 {
		if ms, err := c.Memberships(ctx, q); err != nil || len(ms) != 12 {
			t.Fatalf("%d, %v", len(ms), err)
		}
	}
	if n, want := sb.Requests("memberships"), 2*expectedRequests(12, 5); n != want {
		t.Fatalf("two reads of 12 records (over the 5 retained) sent %d requests, want %d", n, want)
	}
	sb.ResetCounters()
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if ms, err := c.Memberships(ctx, q); err != nil || len(ms) != 12 {
				t.Errorf("%d, %v", len(ms), err)
			}
		})
	}
	wg.Wait()
	if n, want := sb.Requests("memberships"), expectedRequests(12, 5); n != want {
		t.Fatalf("four concurrent identical reads sent %d requests, want %d (one read)", n, want)
	}
	// Small results, and org metrics by their results, as before.
	for range 2 {
		if _, err := c.Payments(ctx, ListOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := c.OrgMetrics(ctx, ListOptions{PageSize: 5}); err != nil {
			t.Fatal(err)
		}
	}
	// Payments: the short page 1, the empty page 2 and its other question.
	// Org metrics: three pages, and the short last one's other question,
	// each read.
	if p, o := sb.Requests("payments"), sb.Requests("org_metrics"); p != 3 || o != 8 {
		t.Fatalf("payments %d requests (want 3, kept), org metrics %d (want 8, 12 results not kept)", p, o)
	}
}

// waitForWaiters returns once a read in flight has n callers waiting: the
// cache's own count orders a test's callers, not a sleep.
func waitForWaiters(t testing.TB, c *cache, n int) {
	t.Helper()
	testutil.Eventually(t, fmt.Sprintf("a read in flight with %d waiting callers", n), func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, f := range c.reads {
			if f.waiters == n {
				return true
			}
		}
		return false
	})
}

// The shared read goes on while any caller waits for it, and is cancelled
// when the last one leaves: a plan interrupted during a read stops it. No
// sleep orders the callers: the test waits on the cache's own count.
func TestSharedReadIsCancelledWhenItsLastWaiterLeaves(t *testing.T) {
	t.Parallel()
	c := newCache(defaultRetainUpTo)
	started, readEnded := make(chan struct{}), make(chan error, 1)
	read := func(ctx context.Context) (int, error) {
		close(started)
		<-ctx.Done()
		readEnded <- ctx.Err()
		return 0, ctx.Err()
	}
	one := func(int) int { return 1 }
	ctx1, cancel1 := context.WithCancel(context.Background())
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	errs := make(chan error, 2)
	go func() { _, err := get(ctx1, c, "k", read, one); errs <- err }()
	<-started
	go func() { _, err := get(ctx2, c, "k", read, one); errs <- err }()
	waiters := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		if f := c.reads["k"]; f != nil {
			return f.waiters
		}
		return -1
	}
	waitForWaiters(t, c, 2)

	cancel1()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("the first caller to leave: %v, want context.Canceled", err)
	}
	if n := waiters(); n != 1 {
		t.Fatalf("after one of two callers left, the read has %d waiters (-1: it was cancelled), want 1", n)
	}
	cancel2()
	if err := <-errs; !errors.Is(err, context.Canceled) {
		t.Fatalf("the last caller to leave: %v, want context.Canceled", err)
	}
	if err := <-readEnded; !errors.Is(err, context.Canceled) {
		t.Fatalf("the shared read ended with %v, want it cancelled", err)
	}
}
