package client

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

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
			sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 95, Payments: 95, Groups: 95,
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

// A server that serves 250 records a page when 1000 are asked for: the
// short first page is not the end, the read goes on to an empty page, and
// says so once at WARN.
func TestServerPageSizeBelowAsked(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 4} {
		sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: 11, Memberships: 2345, Faults: sandbox.Faults{PageSizeCap: 250}})
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
		// 10 pages of records and the empty 11th, and the other question
		// an empty page 2 would have needed, sent beside it (unless it was
		// cancelled before it reached the server); concurrent reads may
		// send a few past the end.
		want, got := expectedRequests(2345, 250), sb.Requests("memberships")
		if got < want || (conc == 1 && got > want+1) || got > want+1+maxPastEnd(conc) {
			t.Fatalf("concurrency %d: %d requests, want %d", conc, got, want)
		}
	}
}

// An endpoint that ignores count and serves its default of 50.
func TestServerIgnoresCount(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: 12, Payments: 1234, Groups: 130,
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
	sb2, base2 := sandbox.StartForTest(t, sandbox.Options{Seed: 12, OrgMetrics: 130, Faults: sandbox.Faults{IgnoreCount: []string{sandbox.EndpointOrgMetrics}}})
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
				sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: 13, Memberships: n, Faults: sandbox.Faults{PastEndStatus: status}})
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
			writeJSON(w, testutil.ArrayOf([]string{"a"}))
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
		sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: 14, Memberships: 2345,
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

// A server that ignores the status filter: the memberships of other
// statuses are left out, with a warning, so a read of active members never
// hands a module expired ones.
func TestStatusFilterIgnoredByServer(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: 16, Memberships: 700, Faults: sandbox.Faults{IgnoreStatusFilter: true}})
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
		writeJSON(w, testutil.ArrayOf(ids[min(lo, len(ids)):min(lo+min(a.size, 250), len(ids))]))
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

// Records deleted from page 1 while later pages are read shift every page
// after. With pages in flight, the read starts again, one page at a time,
// and returns the list as it is now: a page answered after the removal
// repeats records (a record on two pages), or page 1 asked again at the end
// holds other records (the closing check). Read one page at a time, the
// removal is not detected: the records that moved from page 4 onto page 3,
// which existed throughout, are never seen (DESIGN.md, "Data that changes
// during a read"; docs/index.md, "What a Read Promises").
func TestRecordsRemovedFromPageOneDuringARead(t *testing.T) {
	t.Parallel()
	for _, nc := range []int{4, 1} {
		sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 95, Faults: sandbox.Faults{RemoveAfterPage: 3, RemoveCount: 2}})
		before := rawIDs(t, sb.MembershipsJSON(nil))
		log := &recordingLogger{}
		c := newClient(t, Config{BaseURL: base, MaxConcurrency: nc, Logger: log})
		ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
		if err != nil {
			t.Fatal(err)
		}
		after := rawIDs(t, sb.MembershipsJSON(nil))
		if len(after) != 93 {
			t.Fatalf("the sandbox did not remove: %d memberships", len(after))
		}
		got := membershipIDs(ms)
		if nc > 1 {
			equalIDs(t, "a concurrent read after a removal from page 1", got, after)
			if len(log.find("reading again from page 1")) == 0 {
				t.Errorf("the read was not started again: %v", log.all())
			}
			continue
		}
		// Pages 1-3 before the removal, the rest after: records 30 and 31
		// moved onto page 3, already read.
		want := append(slices.Clone(before[:30]), before[32:]...)
		equalIDs(t, "a one-page-at-a-time read with a removal from page 1", got, want)
	}
}
