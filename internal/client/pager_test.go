package client

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// waitAbandoned waits until every request the sandbox received has ended.
// The faults here hold a request for 30 s, so a request that ends within
// the wait was abandoned by the client.
func waitAbandoned(t *testing.T, sb *sandbox.Server, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if n := sb.Requests(""); n > 0 && len(sb.RequestLog()) == n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%d of %d requests still held by the server %v after the read was cancelled: the client did not abandon them",
		sb.Requests("")-len(sb.RequestLog()), sb.Requests(""), within)
}

func TestCancelReturnsPromptly(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		faults sandbox.Faults
	}{
		{"latency", sandbox.Faults{Latency: 2 * time.Minute}},
		{"slow body", sandbox.Faults{SlowBody: 2 * time.Minute}},
		{"slow body on page 3", sandbox.Faults{SlowBody: 2 * time.Minute, OnlyPages: []int{3}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 60, Faults: tc.faults})
			// The attempt's timeout far above the bound: only the cancel can end the read in time.
			c := newClient(t, Config{BaseURL: base, MaxConcurrency: 2, Timeout: 10 * time.Minute})
			ctx, cancel := context.WithCancel(context.Background())
			time.AfterFunc(150*time.Millisecond, cancel)
			start := time.Now()
			ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
			if elapsed := time.Since(start); elapsed > time.Minute {
				t.Fatalf("returned after %v", elapsed)
			}
			if ms != nil || !errors.Is(err, context.Canceled) {
				t.Fatalf("got %d records, err %v; want context.Canceled", len(ms), err)
			}
			waitAbandoned(t, sb, time.Minute)
		})
	}
}

func TestCancelDuringRetryAfterPause(t *testing.T) {
	t.Parallel()
	_, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "120"}})
	c := newClient(t, Config{BaseURL: base, MaxRetryWait: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Memberships(ctx, MembershipQuery{})
	if elapsed := time.Since(start); elapsed > time.Minute {
		t.Fatalf("returned after %v", elapsed)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

func TestCancelDuringBackoff(t *testing.T) {
	t.Parallel()
	_, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{ServerErrors: 100}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: 10, RetryWaitMin: 2 * time.Minute, RetryWaitMax: 2 * time.Minute, MaxRetryWait: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := c.Memberships(ctx, MembershipQuery{})
	if elapsed := time.Since(start); elapsed > time.Minute {
		t.Fatalf("returned after %v", elapsed)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

func TestDeadlineExceeded(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, OrgMetrics: 5, Faults: sandbox.Faults{Latency: 2 * time.Minute}})
	c := newClient(t, Config{BaseURL: base, Timeout: 10 * time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	om, err := c.OrgMetrics(ctx, ListOptions{})
	if om != nil || !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > time.Minute {
		t.Fatalf("err %v after %v", err, time.Since(start))
	}
	waitAbandoned(t, sb, time.Minute)
}

// A cancelled read is not cached: the next caller reads again.
func TestCancelledReadIsNotCached(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{Latency: time.Hour}})
	c := newClient(t, Config{BaseURL: base})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	if _, err := c.Memberships(ctx, MembershipQuery{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
	sb.SetFaults(sandbox.Faults{})
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	defer cancel2()
	ms, err := c.Memberships(ctx2, MembershipQuery{})
	if err != nil || len(ms) != 5 {
		t.Fatalf("read after a cancelled one: %d, %v", len(ms), err)
	}
}
