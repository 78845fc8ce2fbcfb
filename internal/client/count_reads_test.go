package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"encoding/json"
	"unicode/utf8"

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
			sb, base := startSandbox(t, sandbox.Options{Seed: int64(n), Memberships: n, Payments: n, Groups: n})
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
				// Every page the read needed was asked for with the page size.
				seen := map[string]map[int]bool{}
				for _, r := range sb.RequestLog() {
					// After a short page 1 of n records, the rest is asked
					// for in pages of n.
					want := "1000"
					if n > 0 && n < 1000 && r.Query.Get("page") != "1" {
						want = strconv.Itoa(n)
					}
					if r.Query.Get("count") != want {
						t.Fatalf("%s page %s sent count=%q, want %s", r.Endpoint, r.Query.Get("page"), r.Query.Get("count"), want)
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
				// Every page was asked for: one fewer pages than requests
				// one at a time, as the page that ends the read is asked
				// twice.
				for ep, pages := range seen {
					for p := 1; p < want; p++ {
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
			sb, base := startSandbox(t, sandbox.Options{Memberships: 47})
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
	sb, base := startSandbox(t, sandbox.Options{Memberships: 3000})
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
	for _, r := range log {
		if r.Query.Get("status") != "100" || r.Query.Get("count") != "250" {
			t.Fatalf("page %s sent status=%q count=%q", r.Query.Get("page"), r.Query.Get("status"), r.Query.Get("count"))
		}
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
	var pages []int
	for _, a := range api.log() {
		pages = append(pages, a.page)
		if a.size != 3 {
			t.Fatalf("count %d", a.size)
		}
	}
	// The short page 3 is asked twice before it is believed to end the list.
	if !slices.Equal(pages, []int{1, 2, 3, 3, 4}) {
		t.Fatalf("pages requested %v, want [1 2 3 3 4]", pages)
	}
}

// A page larger than asked for counts as full: the read goes on.
func TestOversizedPageCountsAsFull(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(9)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		switch a.page {
		case 1:
			writeJSON(w, arrayOf(ids[:5])) // asked for 3
		case 2:
			writeJSON(w, arrayOf(ids[5:8]))
		case 3:
			writeJSON(w, arrayOf(ids[8:]))
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

func TestConcurrentPagesKeepAPIOrder(t *testing.T) {
	t.Parallel()
	sb := sandbox.New(sandbox.Options{Memberships: 520, Faults: sandbox.Faults{Latency: 50 * time.Millisecond}})
	// Count requests in flight at the server.
	var inFlight, peak atomic.Int32
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		n := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		sb.ServeHTTP(w, r)
	})
	c := newClient(t, Config{BaseURL: api.URL, MaxConcurrency: 4})
	start := time.Now()
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 40}})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	equalIDs(t, "memberships", membershipIDs(ms), rawIDs(t, sb.MembershipsJSON(nil)))
	if p := peak.Load(); p > 4 || p < 2 {
		t.Fatalf("peak %d requests in flight, want 2..4", p)
	}
	// 14 pages at 50 ms: one at a time would take 700 ms.
	if elapsed > 650*time.Millisecond {
		t.Logf("read took %v; pages may not have been concurrent", elapsed)
	}
}

// Pages 1 to 4 are full, so by page 5 the window has grown to four pages:
// 5 to 8 are in flight (5 and 6 are answered once 8 is asked for). Page 5
// is short, page 6 confirms the end, and pages 7 and 8, broken as they
// are, are discarded; page 9 is never asked for, as page 5 claims the end
// at page 6.
func TestInFlightPagesAfterTheEndAreDiscarded(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(13)
	var mu sync.Mutex
	asked := map[int]bool{}
	release := make(chan struct{})
	var once sync.Once
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		mu.Lock()
		asked[a.page] = true
		mu.Unlock()
		switch a.page {
		case 1, 2, 3, 4:
			writeJSON(w, arrayOf(pageOf(ids, a.page, 3)))
		case 5:
			// Answer page 5 only once page 8 has been asked for, so the
			// pages after it are certainly in flight.
			for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
				mu.Lock()
				in := asked[8]
				mu.Unlock()
				if in {
					break
				}
			}
			writeJSON(w, arrayOf(ids[12:]))
			once.Do(func() { close(release) })
		case 6:
			<-release
			writeJSON(w, []byte("[]"))
		default:
			<-release
			w.Header().Set("Content-Type", "text/html")
			_, _ = w.Write([]byte("<html>broken</html>"))
		}
	})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 4, Logger: log})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 3}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)
	mu.Lock()
	snapshot := fmt.Sprint(asked)
	inFlight, beyond := asked[8], asked[9]
	mu.Unlock()
	if !inFlight {
		t.Fatalf("page 8 was not requested while page 5 was; asked %v", snapshot)
	}
	if beyond {
		t.Fatalf("page 9 was requested: after a short page only its confirmation may be; asked %v", snapshot)
	}
	done := log.find("read complete")
	if len(done) != 1 {
		t.Fatalf("%d read complete events", len(done))
	}
	if d, _ := done[0].fields["requests_discarded"].(int); d != 2 {
		t.Fatalf("requests_discarded = %v, want 2", done[0].fields["requests_discarded"])
	}
}

// Records inserted at the front while paging shift the list: records seen
// on one page show up again on the next. Read one page at a time, each is
// kept once, at its first position, and nothing is lost. A concurrent read
// that sees this reads again from page 1, one page at a time, and so
// returns the list as it is after the insert.
func TestInsertedRecordsShiftPages(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name             string
		after, count, nc int
	}{
		{"after page 1, concurrent", 1, 7, 4},
		{"after page 3, concurrent", 3, 2, 4},
		{"after page 2, sequential", 2, 3, 1},
		{"after page 3, one record", 3, 1, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			sb, base := startSandbox(t, sandbox.Options{Memberships: 95, Payments: 95, Groups: 95,
				Faults: sandbox.Faults{InsertAfterPage: tc.after, InsertCount: tc.count}})
			before := [][]string{rawIDs(t, sb.MembershipsJSON(nil)), rawIDs(t, sb.PaymentsJSON()), rawIDs(t, sb.GroupsJSON())}
			log := &recordingLogger{}
			c := newClient(t, Config{BaseURL: base, MaxConcurrency: tc.nc, Logger: log})
			ctx := context.Background()
			opts := ListOptions{PageSize: 10}
			ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: opts})
			if err != nil {
				t.Fatal(err)
			}
			ps, err := c.Payments(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			gs, err := c.Groups(ctx, opts)
			if err != nil {
				t.Fatal(err)
			}
			after := [][]string{rawIDs(t, sb.MembershipsJSON(nil)), rawIDs(t, sb.PaymentsJSON()), rawIDs(t, sb.GroupsJSON())}
			if len(after[0]) != 95+tc.count {
				t.Fatalf("the sandbox did not insert: %d memberships", len(after[0]))
			}
			want := before
			if tc.nc > 1 {
				want = after
			}
			equalIDs(t, "memberships", membershipIDs(ms), want[0])
			equalIDs(t, "payments", paymentIDs(ps), want[1])
			equalIDs(t, "groups", groupIDs(gs), want[2])
			rereads := log.find("reading again from page 1")
			for _, e := range log.find("read complete") {
				if tc.nc == 1 && e.fields["duplicates_dropped"] != tc.count {
					t.Fatalf("%s: duplicates_dropped = %v, want %d", e.fields["endpoint"], e.fields["duplicates_dropped"], tc.count)
				}
				if e.fields["reread"] != (tc.nc > 1) {
					t.Fatalf("%s: reread = %v", e.fields["endpoint"], e.fields["reread"])
				}
			}
			if want := map[bool]int{true: 3, false: 0}[tc.nc > 1]; len(rereads) != want {
				t.Fatalf("%d re-read warnings, want %d", len(rereads), want)
			}
		})
	}
}

func TestIgnoredPageParameterIsNotAdvancing(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 4} {
		sb, base := startSandbox(t, sandbox.Options{Memberships: 30, Payments: 30, Groups: 30, OrgMetrics: 30, Faults: sandbox.Faults{IgnorePage: true}})
		c := newClient(t, Config{BaseURL: base, MaxConcurrency: conc})
		ctx := context.Background()
		ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
		if ms != nil {
			t.Fatal("partial result")
		}
		checkNotAdvancing(t, err, "memberships", 2, "identical to page 1")
		_, err = c.Payments(ctx, ListOptions{PageSize: 10})
		checkNotAdvancing(t, err, "payments", 2, "identical to page 1")
		_, err = c.Groups(ctx, ListOptions{PageSize: 10})
		checkNotAdvancing(t, err, "groups", 2, "identical to page 1")
		om, err := c.OrgMetrics(ctx, ListOptions{PageSize: 10})
		if om != nil {
			t.Fatal("partial result")
		}
		checkNotAdvancing(t, err, "org_metrics", 2, "answered page 1 when page 2 was asked for")
		if n := sb.Requests("memberships"); n > 1+maxPastEnd(conc)+1 {
			t.Fatalf("%d requests before giving up", n)
		}
	}
	// A server that ignores the page parameter but holds less than one page
	// is fine: page 2 repeats the short page 1, and page 1 asked again is
	// unchanged, so the list was not shifted: page 1 is the whole list.
	sb, base := startSandbox(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{IgnorePage: true}})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: base, Logger: log})
	if ms, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil || len(ms) != 5 {
		t.Fatalf("%d, %v", len(ms), err)
	}
	if n := sb.Requests("memberships"); n != 3 || len(log.find("ignores the page parameter")) != 1 {
		t.Fatalf("%d requests, %d warnings", n, len(log.find("ignores the page parameter")))
	}
}

func checkNotAdvancing(t *testing.T, err error, endpoint string, page int, detail string) {
	t.Helper()
	if !errors.Is(err, ErrNotAdvancing) {
		t.Fatalf("%s: error %v does not wrap ErrNotAdvancing", endpoint, err)
	}
	requirePageError(t, err, endpoint, page)
	if !strings.Contains(err.Error(), detail) {
		t.Fatalf("%s: error %q does not say %q", endpoint, err, detail)
	}
}

// A full page whose records were all read before, in different bytes (so
// not an identical page), is a server that is not advancing.
func TestFullPageOfSeenRecordsIsNotAdvancing(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		ids := []string{"a", "b", "c"}
		if a.page%2 == 0 {
			ids = []string{"c", "a", "b"}
		}
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = fmt.Sprintf(`{"_id":%q,"seen_on":%d}`, id, a.page)
		}
		writeJSON(w, []byte("["+strings.Join(parts, ",")+"]"))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	_, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 3}})
	checkNotAdvancing(t, err, "memberships", 2, "already read")
	if n := api.count(); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}

// A short page of records read before is the end of a shifted list, not an error.
func TestShortPageOfSeenRecordsEndsTheRead(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		switch a.page {
		case 1:
			writeJSON(w, arrayOf([]string{"a", "b", "c"}))
		case 2:
			writeJSON(w, []byte(`[{"_id":"c","moved":true}]`))
		default:
			writeJSON(w, []byte(`[]`))
		}
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 3}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), []string{"a", "b", "c"})
}

func TestMaxPagesCap(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 4} {
		// Every page is full of new records: the read never ends by itself.
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
			writeJSON(w, arrayOf([]string{fmt.Sprintf("p%d-1", a.page), fmt.Sprintf("p%d-2", a.page)}))
		})
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxPages: 5, MaxConcurrency: conc})
		ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 2}})
		if ms != nil {
			t.Fatal("partial result")
		}
		if !errors.Is(err, ErrNotAdvancing) || !strings.Contains(err.Error(), "cap of 5 pages") {
			t.Fatalf("error %v", err)
		}
		requirePageError(t, err, "memberships", 5)
		if n := api.count(); n != 5 {
			t.Fatalf("concurrency %d: %d requests, want exactly MaxPages (5)", conc, n)
		}
		for p, k := range api.pagesOf() {
			if p < 1 || p > 5 || k != 1 {
				t.Fatalf("pages requested %v", api.pagesOf())
			}
		}
	}
	// MaxPages 1 with a full first page.
	api := newFakeAPI(t, serveList(syntheticIDs(10)))
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxPages: 1})
	_, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 5}})
	requirePageError(t, err, "memberships", 1)
	if api.count() != 1 {
		t.Fatalf("%d requests", api.count())
	}
}

// A read that ends exactly at MaxPages is not an error.
func TestMaxPagesReachedByAShortPage(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, serveList(syntheticIDs(9)))
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxPages: 3})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 4}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), syntheticIDs(9))
}

func TestPagerErrorOnLaterPageReturnsNothing(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 100, Faults: sandbox.Faults{ServerErrors: 10, ServerErrorStatus: 500, OnlyPages: []int{4}}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: 1, MaxConcurrency: 4})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
	if ms != nil {
		t.Fatalf("partial list of %d records", len(ms))
	}
	ae := requireAPIError(t, err, 500)
	if ae.Page != 4 || ae.Attempts != 2 {
		t.Fatalf("APIError %+v", ae)
	}
	_ = sb
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

// A server that serves 250 records a page when 1000 are asked for: the
// short first page is not the end, the read goes on to an empty page, and
// says so once at WARN.
func TestServerPageSizeBelowAsked(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 4} {
		sb, base := startSandbox(t, sandbox.Options{Seed: 11, Memberships: 2345, Faults: sandbox.Faults{PageSizeCap: 250}})
		log := &recordingLogger{}
		c := newClient(t, Config{BaseURL: base, MaxConcurrency: conc, Logger: log})
		ms, err := c.Memberships(context.Background(), MembershipQuery{})
		if err != nil {
			t.Fatal(err)
		}
		equalIDs(t, fmt.Sprintf("concurrency %d", conc), membershipIDs(ms), rawIDs(t, sb.MembershipsJSON(nil)))
		warns := log.find("fewer records per page than asked")
		if len(warns) != 1 || warns[0].level != "warn" || warns[0].fields["asked"] != 1000 || warns[0].fields["served"] != 250 {
			t.Fatalf("concurrency %d: warnings %+v", conc, warns)
		}
		// 10 pages of records and the empty 11th; concurrent reads may
		// send a few past it.
		want, got := expectedRequests(2345, 250), sb.Requests("memberships")
		if got < want || (conc == 1 && got != want) || got > want+maxPastEnd(conc) {
			t.Fatalf("concurrency %d: %d requests, want %d", conc, got, want)
		}
	}
}

// An endpoint that ignores count and serves its default of 50.
func TestServerIgnoresCount(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Seed: 12, Payments: 1234, Groups: 130,
		Faults: sandbox.Faults{IgnoreCount: []string{sandbox.EndpointPayments, sandbox.EndpointGroups}}})
	c := newClient(t, Config{BaseURL: base})
	ps, err := c.Payments(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "payments", paymentIDs(ps), rawIDs(t, sb.PaymentsJSON()))
	gs, err := c.Groups(context.Background(), ListOptions{PageSize: 500})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "groups", groupIDs(gs), rawIDs(t, sb.GroupsJSON()))
	// Org metrics ignoring limit (serving 25 of 100): pages short of the
	// limit before the last make the read confirm the end past totalPages.
	// Page 1 (short before totalPages) and page 6 (the short last page) are
	// asked twice: 7 pages, 9 requests.
	sb2, base2 := startSandbox(t, sandbox.Options{Seed: 12, OrgMetrics: 130, Faults: sandbox.Faults{IgnoreCount: []string{sandbox.EndpointOrgMetrics}}})
	om, err := newClient(t, Config{BaseURL: base2}).OrgMetrics(context.Background(), ListOptions{})
	if err != nil || len(om.Results) != 130 || om.TotalPages != 6 || sb2.Requests("org_metrics") != 9 {
		t.Fatalf("org metrics ignoring limit: %d results, totalPages %d, %d requests, %v", len(om.Results), om.TotalPages, sb2.Requests("org_metrics"), err)
	}
}

// A server that answers a page past the end with 400, 404 or 416 instead of
// an empty page: after a short page, the short page is the last; after a
// full page, the refusal cannot be told from a server that stops serving in
// the middle, so the read fails and says why.
func TestPageAfterTheEndRefused(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusBadRequest, http.StatusNotFound, http.StatusRequestedRangeNotSatisfiable} {
		for _, n := range []int{95, 100} {
			for _, conc := range []int{1, 4} {
				sb, base := startSandbox(t, sandbox.Options{Seed: 13, Memberships: n, Faults: sandbox.Faults{PastEndStatus: status}})
				log := &recordingLogger{}
				c := newClient(t, Config{BaseURL: base, MaxConcurrency: conc, Logger: log})
				ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
				if n%10 == 0 {
					pe := requirePageError(t, err, "memberships", 11)
					if ms != nil || requireAPIError(t, err, status).Page != 11 || !strings.Contains(pe.Error(), "after the full page 10 was refused") {
						t.Fatalf("HTTP %d after a full last page: %d records, %v", status, len(ms), err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("HTTP %d, %d records, concurrency %d: %v", status, n, conc, err)
				}
				equalIDs(t, "memberships", membershipIDs(ms), rawIDs(t, sb.MembershipsJSON(nil)))
			}
		}
	}
	// Any other error on that page still fails the read.
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page == 1 {
			writeJSON(w, arrayOf([]string{"a"}))
			return
		}
		w.WriteHeader(http.StatusForbidden)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	if ms, err := c.Memberships(context.Background(), MembershipQuery{}); ms != nil || requireAPIError(t, err, http.StatusForbidden).Page != 2 {
		t.Fatalf("403 on the confirmation page: %v, %v", ms, err)
	}
	// On page 1, 404 is an error: the endpoint is wrong.
	api404 := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { w.WriteHeader(http.StatusNotFound) })
	c404 := newClient(t, Config{BaseURL: api404.URL, Token: testToken})
	if _, err := c404.Memberships(context.Background(), MembershipQuery{}); requireAPIError(t, err, http.StatusNotFound).Page != 1 {
		t.Fatal(err)
	}
}

// Records inserted at the front while page 2 is held until page 3 has been
// served: the concurrent read sees page 1's last records again on page 2,
// reads again one page at a time, and returns the list after the insert,
// nothing lost. One page at a time, the same server costs no re-read.
func TestOutOfOrderInsertIsReadAgain(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 4} {
		sb, base := startSandbox(t, sandbox.Options{Seed: 14, Memberships: 2345,
			Faults: sandbox.Faults{OutOfOrderInsertPage: 2, InsertCount: 7, OutOfOrderWait: 300 * time.Millisecond}})
		before := rawIDs(t, sb.MembershipsJSON(nil))
		log := &recordingLogger{}
		c := newClient(t, Config{BaseURL: base, MaxConcurrency: conc, Logger: log})
		ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 100}})
		if err != nil {
			t.Fatal(err)
		}
		after := rawIDs(t, sb.MembershipsJSON(nil))
		if len(after) != 2352 {
			t.Fatalf("the sandbox did not insert: %d", len(after))
		}
		got := membershipIDs(ms)
		if conc > 1 {
			equalIDs(t, "concurrent read", got, after)
			if n := len(log.find("reading again from page 1")); n != 1 {
				t.Fatalf("%d re-read warnings, want 1", n)
			}
			continue
		}
		equalIDs(t, "sequential read", got, before)
		if n := len(log.find("reading again")); n != 0 {
			t.Fatalf("a sequential read was read again")
		}
	}
}

// Org-metric records that are all equal are all kept.
func TestEqualOrgMetricsFromSandbox(t *testing.T) {
	t.Parallel()
	_, base := startSandbox(t, sandbox.Options{OrgMetrics: 30, Faults: sandbox.Faults{EqualOrgMetrics: true}})
	for _, conc := range []int{1, 4} {
		c := newClient(t, Config{BaseURL: base, MaxConcurrency: conc})
		om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 7})
		if err != nil {
			t.Fatal(err)
		}
		if len(om.Results) != 30 || om.TotalPages != 5 {
			t.Fatalf("concurrency %d: %d results, totalPages %d; want 30 and 5", conc, len(om.Results), om.TotalPages)
		}
	}
}

// Unpaired surrogates and invalid UTF-8 become U+FFFD in the field and in
// raw_json; the read logs how many values it repaired on which page.
func TestBrokenTextIsRepaired(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Seed: 15, Memberships: 30, Faults: sandbox.Faults{BrokenTextPages: []int{1, 3}}})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: base, Logger: log, MaxConcurrency: 1}) // each page read once
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10, KeepRaw: true}})
	if err != nil {
		t.Fatal(err)
	}
	raws := sb.MembershipsJSON(nil)
	equalIDs(t, "memberships", membershipIDs(ms), rawIDs(t, raws))
	repaired := 0
	for i, m := range ms {
		var orig struct {
			DisplayName *string `json:"display_name"`
		}
		if err := json.Unmarshal(raws[i], &orig); err != nil {
			t.Fatal(err)
		}
		want := orig.DisplayName
		if spoiled := (i/10 == 0 || i/10 == 2) && i%10 < 2; spoiled && want != nil {
			w := sandbox.BrokenTextRepaired + *want
			want = &w
			repaired++
		}
		if deref(m.DisplayName) != deref(want) || (m.DisplayName == nil) != (want == nil) {
			t.Fatalf("record %d display_name %q, want %q", i, deref(m.DisplayName), deref(want))
		}
		if !utf8.ValidString(m.RawJSON) || !json.Valid([]byte(m.RawJSON)) {
			t.Fatalf("record %d raw_json is not valid UTF-8 JSON: %q", i, m.RawJSON)
		}
	}
	if repaired == 0 {
		t.Fatal("the sandbox spoiled no display name")
	}
	total := 0
	for _, e := range log.find("not valid Unicode") {
		if e.level != "warn" || e.fields["endpoint"] != "memberships" || (e.fields["page"] != 1 && e.fields["page"] != 3) {
			t.Fatalf("warning %+v", e)
		}
		n, ok := e.fields["values_repaired"].(int)
		if !ok {
			t.Fatalf("values_repaired %v is not a count", e.fields["values_repaired"])
		}
		total += n
	}
	if total != repaired {
		t.Fatalf("warnings count %d repaired values, want %d", total, repaired)
	}
}

// A long Retry-After from the sandbox fails at once, naming the setting.
func TestLongRetryAfterFromSandbox(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "3600"}})
	c := newClient(t, Config{BaseURL: base})
	start := time.Now()
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	var rw *RetryWaitError
	if !errors.As(err, &rw) || rw.Wait != time.Hour || rw.Max != DefaultMaxRetryWait || !strings.Contains(err.Error(), "Config.MaxRetryWait") {
		t.Fatalf("error %v", err)
	}
	if d := time.Since(start); d > 2*time.Second || sb.Requests("memberships") != 1 {
		t.Fatalf("failed after %v and %d requests", d, sb.Requests("memberships"))
	}
}

// A server that ignores the status filter: the memberships of other
// statuses are left out, with a warning, so a read of active members never
// hands a module expired ones.
func TestStatusFilterIgnoredByServer(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Seed: 16, Memberships: 700, Faults: sandbox.Faults{IgnoreStatusFilter: true}})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: base, Logger: log})
	active := 100
	ms, err := c.Memberships(context.Background(), MembershipQuery{Status: int64Ptr(100), ListOptions: ListOptions{PageSize: 100}})
	if err != nil {
		t.Fatal(err)
	}
	want := rawIDs(t, sb.MembershipsJSON(&active))
	equalIDs(t, "active memberships", membershipIDs(ms), want)
	warns := log.find("another status than the status filter")
	if len(warns) != 1 || warns[0].fields["left_out"] != 700-len(want) {
		t.Fatalf("warnings %+v, want one leaving out %d", warns, 700-len(want))
	}
	// The lean read and a read of chosen fields check the status too, even
	// when status is not among the fields.
	sums, err := c.MembershipSummaries(context.Background(), MembershipQuery{Status: int64Ptr(100), ListOptions: ListOptions{PageSize: 100}})
	if err != nil {
		t.Fatal(err)
	}
	sumIDs := make([]string, len(sums))
	for i, m := range sums {
		sumIDs[i] = deref(m.ID)
	}
	equalIDs(t, "active summaries", sumIDs, want)
	chosen, err := c.Memberships(context.Background(), MembershipQuery{Status: int64Ptr(100), ListOptions: ListOptions{PageSize: 100, Fields: []string{"email"}}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "active, chosen fields", membershipIDs(chosen), want)
	// Without a filter nothing is left out.
	all, err := c.Memberships(context.Background(), MembershipQuery{})
	if err != nil || len(all) != 700 {
		t.Fatalf("%d memberships, %v", len(all), err)
	}
}

// A server that caps count at 250 but places pages by the count it is
// asked for, and answers 404 past the end: after the short page 1 the rest
// is asked for in pages of 250, so the pages meet and nothing is skipped.
func TestServerPlacesPagesByAskedCount(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(2345)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		lo := (a.page - 1) * a.size
		if a.page > 1 && lo >= len(ids) {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		writeJSON(w, arrayOf(ids[min(lo, len(ids)):min(lo+min(a.size, 250), len(ids))]))
	})
	for _, conc := range []int{1, 4} {
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: conc})
		ms, err := c.Memberships(context.Background(), MembershipQuery{})
		if err != nil {
			t.Fatalf("concurrency %d: %v", conc, err)
		}
		equalIDs(t, "memberships", membershipIDs(ms), ids)
	}
}

// A server that answers every page past the end with its last page, in
// bytes that differ each time: two pages in a row of records already read
// end the read with an error, not after 100,000 requests.
func TestRepeatedLastPageIsNotAdvancing(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(23)
	var n atomic.Int32
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		page := min(a.page, 3)
		parts := make([]string, 0, 10)
		for _, id := range pageOf(ids, page, 10) {
			parts = append(parts, fmt.Sprintf(`{"_id":%q,"served":%d}`, id, n.Add(1)))
		}
		writeJSON(w, []byte("["+strings.Join(parts, ",")+"]"))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1, MaxPages: 50})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
	if ms != nil {
		t.Fatal("partial result")
	}
	checkNotAdvancing(t, err, "memberships", 5, "already read")
	// Pages 3, 4 and 5 are short, so each is asked twice before it is
	// believed: 8 requests, not 100,000.
	if got := api.count(); got != 8 {
		t.Fatalf("%d requests before giving up, want 8", got)
	}
}

// A server that ignores page and count and always serves the first 50
// records: its short page 1 is not taken for a whole list, since 50 is what
// a server that ignores count serves.
func TestServerIgnoringPageAndCount(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(1234)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, arrayOf(ids[:50])) })
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if ms != nil {
		t.Fatalf("%d records returned", len(ms))
	}
	checkNotAdvancing(t, err, "memberships", 2, "default count")
}
