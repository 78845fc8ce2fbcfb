package main

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// The bare client asks what the rules ask, in their order: page 1 alone,
// the pages, then the other question beside the closing check.
func TestBareReadAsksWhatTheRulesAsk(t *testing.T) {
	t.Parallel()
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 7, Memberships: 30, Faults: sandbox.Faults{Latency: 5 * time.Millisecond}})
	if err := bareRead(context.Background(), url, 4, 10, 2); err != nil {
		t.Fatal(err)
	}
	// A request is logged when its handler returns, which may come after
	// the client has its answer: wait for the log's event here, so that
	// settledLog's own second (a bench's limit) is no race for the test.
	testutil.Eventually(t, "the sandbox logs the read's requests", func() bool { return len(sb.RequestLog()) >= bareRequests(4) })
	log, err := settledLog(sb, bareRequests(4))
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(log, func(a, b sandbox.RequestRecord) int { return a.Arrived.Compare(b.Arrived) })
	var asked []string
	for _, r := range log {
		asked = append(asked, r.Query.Get("page")+"@"+r.Query.Get("count"))
	}
	want := map[string]int{"1@10": 2, "2@10": 1, "3@10": 1, "4@10": 1, "4@9": 1}
	for _, a := range asked {
		want[a]--
	}
	for q, n := range want {
		if n != 0 {
			t.Errorf("%s asked %d times too few (negative: too many); asked %v", q, n, asked)
		}
	}
	if asked[0] != "1@10" {
		t.Fatalf("first asked %s, want page 1: %v", asked[0], asked)
	}
	// An answer leaves no sooner than its latency after its request came
	// in (the log's Finished is taken after the handler returns, which
	// may be after the client has the answer).
	answered := func(r sandbox.RequestRecord) time.Time { return r.Arrived.Add(r.Latency) }
	for _, r := range log[1:4] {
		if r.Arrived.Before(answered(log[0])) {
			t.Errorf("page %s left before page 1 was answered", r.Query.Get("page"))
		}
	}
	for _, end := range log[4:] {
		for _, r := range log[1:4] {
			if end.Arrived.Before(answered(r)) {
				t.Errorf("%s@%s left before page %s was answered", end.Query.Get("page"), end.Query.Get("count"), r.Query.Get("page"))
			}
		}
	}
	if floor, err := rulesFloor(log, 4, 10, 2); err != nil || floor != 20*time.Millisecond {
		t.Errorf("the rules' floor of its log: %v, %v; want 20ms (page 1, two rounds of pages 2-4, the end)", floor, err)
	}
}
