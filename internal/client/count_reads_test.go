package client

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// TestCountPagingRequestCounts reads N records at the default page size
// (1000) from each count-style endpoint, one page at a time and four at a
// time, and checks the records and the number of requests.
func TestCountPagingRequestCounts(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 1, 999, 1000, 1001, 2500, 3000} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			t.Parallel()
			sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: int64(n), Memberships: n, Payments: n, Groups: n})
			want := expectedRequests(n, apispec.CountPaging.MaxSize)
			for _, conc := range []int{1, 4} {
				c := newClient(t, Config{BaseURL: base, MaxConcurrency: conc})
				ctx := context.Background()
				sb.ResetCounters()

				ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{KeepRaw: true}})
				if err != nil {
					t.Fatal(err)
				}
				raws := sb.MembershipsJSON(nil)
				equalIDs(t, "memberships", membershipIDs(ms), rawIDs(t, raws))
				for i := range ms {
					if ms[i].RawJSON != string(raws[i]) {
						t.Fatalf("membership %d RawJSON differs from the sandbox's bytes", i)
					}
				}
				ps, err := c.Payments(ctx, ListOptions{})
				if err != nil {
					t.Fatal(err)
				}
				equalIDs(t, "payments", paymentIDs(ps), rawIDs(t, sb.PaymentsJSON()))
				gs, err := c.Groups(ctx, ListOptions{})
				if err != nil {
					t.Fatal(err)
				}
				equalIDs(t, "groups", groupIDs(gs), rawIDs(t, sb.GroupsJSON()))

				for _, ep := range []string{"memberships", "payments", "groups"} {
					got := sb.Requests(ep)
					t.Logf("%s N=%d concurrency %d: %d requests (minimum %d)", ep, n, conc, got, want)
					if conc == 1 && got != want {
						t.Errorf("%s N=%d concurrency 1: %d requests, want %d", ep, n, got, want)
					}
					// Past the confirmed end: at most maxPastEnd requests; and
					// page 1 once more after a read that went concurrent.
					extra := maxPastEnd(conc)
					if n >= apispec.CountPaging.MaxSize {
						extra++
					}
					if conc > 1 && (got < want || got > want+extra) {
						t.Errorf("%s N=%d concurrency %d: %d requests, want %d..%d", ep, n, conc, got, want, want+extra)
					}
				}
				// Every page the read needed was asked for with the page
				// size; the end, also with another (its other question;
				// two for an empty list).
				seen := map[string]map[int]bool{}
				others := map[string]int{}
				for _, r := range sb.RequestLog() {
					// After a short page 1 of n records, the rest is asked
					// for in pages of n.
					want := "1000"
					if n > 0 && n < 1000 && r.Query.Get("page") != "1" {
						want = strconv.Itoa(n)
					}
					if r.Query.Get("count") != want {
						others[r.Endpoint]++
						continue
					}
					if r.Query.Has("limit") {
						t.Fatalf("count endpoint got limit")
					}
					p, _ := strconv.Atoi(r.Query.Get("page"))
					if seen[r.Endpoint] == nil {
						seen[r.Endpoint] = map[int]bool{}
					}
					seen[r.Endpoint][p] = true
				}
				for _, ep := range []string{"memberships", "payments", "groups"} {
					if want := 1 + btoi(n == 0); others[ep] != want {
						t.Errorf("%s N=%d concurrency %d: %d requests with another count, want %d (the end's other questions)", ep, n, conc, others[ep], want)
					}
				}
				// Every page was asked for: those with records, and the
				// empty one after them.
				lastPage := (n+999)/1000 + 1
				for ep, pages := range seen {
					for p := 1; p <= lastPage; p++ {
						if !pages[p] {
							t.Fatalf("%s: page %d never requested", ep, p)
						}
					}
				}
			}
		})
	}
}

func TestCountPagingSmallPageSizes(t *testing.T) {
	t.Parallel()
	for _, size := range []int{1, 2, 5, 10, 46, 47, 48} {
		for _, conc := range []int{1, 3} {
			// A fresh server each time: requests a concurrent read cancelled
			// can still arrive after it returned.
			sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 47})
			c := newClient(t, Config{BaseURL: base, MaxConcurrency: conc})
			ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: size}})
			if err != nil {
				t.Fatalf("size %d: %v", size, err)
			}
			equalIDs(t, fmt.Sprintf("size %d conc %d", size, conc), membershipIDs(ms), rawIDs(t, sb.MembershipsJSON(nil)))
			want := expectedRequests(47, size)
			verify := 0 // page 1 once more after a read that went concurrent
			if conc > 1 && size <= 47 {
				verify = 1
			}
			if got := sb.Requests("memberships"); got < want || got > want+maxPastEnd(conc)+verify || (conc == 1 && got != want) {
				t.Fatalf("size %d conc %d: %d requests, want %d", size, conc, got, want)
			}
		}
	}
}

func TestStatusFilterOnEveryPage(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 3000})
	c := newClient(t, Config{BaseURL: base, MaxConcurrency: 4})
	active := 100
	want := sb.MembershipsJSON(&active)
	if len(want) < 1100 {
		t.Fatalf("sandbox has only %d active memberships", len(want))
	}
	ms, err := c.Memberships(context.Background(), MembershipQuery{Status: int64Ptr(100), ListOptions: ListOptions{PageSize: 250}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "active memberships", membershipIDs(ms), rawIDs(t, want))
	for _, m := range ms {
		if m.Status == nil || *m.Status != 100 {
			t.Fatalf("membership %s has status %v", deref(m.ID), m.Status)
		}
	}
	log := sb.RequestLog()
	if len(log) < expectedRequests(len(want), 250) {
		t.Fatalf("only %d requests", len(log))
	}
	others := 0
	for _, r := range log {
		if r.Query.Get("status") != "100" {
			t.Fatalf("page %s sent status=%q", r.Query.Get("page"), r.Query.Get("status"))
		}
		if r.Query.Get("count") != "250" {
			others++ // the end's other question
		}
	}
	if others != 1 {
		t.Fatalf("%d requests with another count than 250, want the end's one other question", others)
	}

	// Other statuses, including one the documentation does not know.
	for _, st := range []int{999, 50, 12345} {
		ms, err := c.Memberships(context.Background(), MembershipQuery{Status: int64Ptr(int64(st))})
		if err != nil {
			t.Fatal(err)
		}
		equalIDs(t, fmt.Sprintf("status %d", st), membershipIDs(ms), rawIDs(t, sb.MembershipsJSON(&st)))
	}
}

func TestPagesAreNumberedFromOne(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(7)
	api := newFakeAPI(t, serveList(ids))
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	if _, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 3}}); err != nil {
		t.Fatal(err)
	}
	var asked []string
	for _, a := range api.log() {
		asked = append(asked, fmt.Sprintf("%d/%d", a.page, a.size))
	}
	// The short page 3 ends the list at record 7; before it is believed,
	// the page holding that end is asked with another count (page 2 of 5:
	// records 6 and 7, and nothing after), then the page after it.
	if want := []string{"1/3", "2/3", "3/3", "2/5", "4/3"}; !slices.Equal(asked, want) {
		t.Fatalf("pages requested (page/count) %v, want %v", asked, want)
	}
}

// A page larger than asked for counts as full: the read goes on.
func TestOversizedPageCountsAsFull(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(9)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		switch a.page {
		case 1:
			writeJSON(w, testutil.ArrayOf(ids[:5])) // asked for 3
		case 2:
			writeJSON(w, testutil.ArrayOf(ids[5:8]))
		case 3:
			writeJSON(w, testutil.ArrayOf(ids[8:]))
		default:
			writeJSON(w, []byte("[]"))
		}
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 3}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)
}

// Pages are handed to the rules in page order while several are in
// flight, and the client fills max_concurrent_requests and never goes past
// it. Decided by events, on synctest's clock with the API in process: the
// server holds every request and, each time the client can send no more
// (synctest.Wait: all it has out is held), answers the highest page held.
// So the answers come back out of page order (5, 4, 3, 2, then 9, …), and
// the most requests held at once is the most the client had out. A pool
// that hands pages over as they come back, or a client with fewer or more
// than four out at once, fails here.
func TestConcurrentPagesKeepAPIOrder(t *testing.T) {
	t.Parallel()
	synctest.Test(t, testConcurrentPagesKeepAPIOrder)
}

func testConcurrentPagesKeepAPIOrder(t *testing.T) {
	const limit = 4
	ids := syntheticIDs(520) // 13 full pages of 40, then an empty one
	type request struct {
		page   int
		answer chan struct{}
	}
	var mu sync.Mutex
	var held []*request
	most := 0 // the most requests held at once
	api := newFakeAPIInProcess(func(w http.ResponseWriter, r *http.Request, a arrival) {
		req := &request{page: a.page, answer: make(chan struct{})}
		mu.Lock()
		held = append(held, req)
		most = max(most, len(held))
		mu.Unlock()
		select {
		case <-req.answer:
			serveList(ids)(w, r, a)
		case <-r.Context().Done(): // a page past the end, cancelled
			mu.Lock()
			held = slices.DeleteFunc(held, func(h *request) bool { return h == req })
			mu.Unlock()
		}
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: limit, network: inProcess{api}})
	var ms []Membership
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		ms, err = c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 40}})
	}()
	answerHighest := func() int {
		mu.Lock()
		defer mu.Unlock()
		if len(held) == 0 {
			t.Fatal("the read waits with no request out")
		}
		i := 0
		for j, h := range held {
			if h.page > held[i].page {
				i = j
			}
		}
		close(held[i].answer)
		page := held[i].page
		held = slices.Delete(held, i, i+1)
		return page
	}
	var answered []int
	for read := false; !read; {
		synctest.Wait() // the client has sent all it can before another answer
		select {
		case <-done:
			read = true
		default:
			answered = append(answered, answerHighest())
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)
	t.Logf("pages answered in the order %v", answered)
	if most != limit {
		t.Fatalf("at most %d requests out at once, want max_concurrent_requests, %d", most, limit)
	}
}

// Reads of 1, 2, 3 and 100 pages (the last one short, or full and followed
// by an empty page), one page at a time and four at a time: the exact count
// one at a time, and the bound on requests past the confirmed end.
func TestRequestCountsBySlowStart(t *testing.T) {
	t.Parallel()
	const size = 10
	for _, pages := range []int{1, 2, 3, 100} {
		for _, lastFull := range []bool{false, true} {
			n := pages * size
			if !lastFull {
				n -= size / 2
			}
			for _, conc := range []int{1, 4} {
				ids := syntheticIDs(n)
				api := newFakeAPI(t, serveList(ids))
				c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: conc})
				ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: size}})
				if err != nil {
					t.Fatal(err)
				}
				equalIDs(t, "memberships", membershipIDs(ms), ids)
				want, got := expectedRequests(n, size), api.count()
				t.Logf("%3d pages (%d records, last page full: %v), concurrency %d: %d requests (%d needed)", pages, n, lastFull, conc, got, want)
				// Past the confirmed end: at most maxPastEnd requests; and page
				// 1 once more after a read that went concurrent (a full page
				// came back).
				extra := 0
				if conc > 1 {
					extra = maxPastEnd(conc)
				}
				if conc > 1 && n >= size {
					extra++
				}
				if got < want || got > want+extra {
					t.Errorf("%d records, concurrency %d: %d requests, want %d..%d", n, conc, got, want, want+extra)
				}
			}
		}
	}
}
