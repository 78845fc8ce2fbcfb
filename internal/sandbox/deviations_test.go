package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func TestPageSizeCap(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 2, Memberships: 25, OrgMetrics: 25, Faults: Faults{PageSizeCap: 4}})
	got := decodeArray(t, get(t, base, paths[EndpointMemberships], q("page", "2", "count", "10")))
	if !equalRecords(got, s.MembershipsJSON(nil)[4:8]) {
		t.Fatalf("page 2 at count 10 under a cap of 4: %d records, not records 5-8", len(got))
	}
	m := decodeMetrics(t, get(t, base, paths[EndpointOrgMetrics], q("page", "1", "limit", "10")))
	if len(m.Results) != 4 || *m.Limit != 4 || *m.TotalPages != 7 {
		t.Fatalf("org_metrics under a cap of 4: %d results, limit %d, totalPages %d", len(m.Results), *m.Limit, *m.TotalPages)
	}
}

func TestIgnoreCount(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 3, Memberships: 120, Payments: 120, Faults: Faults{IgnoreCount: []string{EndpointPayments}}})
	if got := decodeArray(t, get(t, base, paths[EndpointPayments], q("page", "2", "count", "1000"))); !equalRecords(got, s.PaymentsJSON()[50:100]) {
		t.Fatalf("payments ignoring count: page 2 has %d records, want records 51-100", len(got))
	}
	if got := decodeArray(t, get(t, base, paths[EndpointMemberships], q("count", "1000"))); len(got) != 120 {
		t.Fatalf("memberships (count honoured): %d records", len(got))
	}
}

func TestPastEndStatus(t *testing.T) {
	t.Parallel()
	_, base := StartForTest(t, Options{Seed: 4, Memberships: 5, Faults: Faults{PastEndStatus: http.StatusNotFound}})
	if r := get(t, base, paths[EndpointMemberships], q("page", "2", "count", "5")); r.status != http.StatusNotFound {
		t.Fatalf("page past the end: status %d", r.status)
	}
	if got := decodeArray(t, get(t, base, paths[EndpointMemberships], q("page", "1", "count", "5"))); len(got) != 5 {
		t.Fatalf("page 1: %d records", len(got))
	}
	// An empty list still answers page 1 with [].
	_, empty := StartForTest(t, Options{Faults: Faults{PastEndStatus: http.StatusNotFound}})
	if got := decodeArray(t, get(t, empty, paths[EndpointMemberships], nil)); len(got) != 0 {
		t.Fatalf("empty list page 1: %d records", len(got))
	}
}

// Page 2 is held until page 3 has been served from the list before the
// insert; page 2 then comes from the list after it. The hold is an hour, so
// it ends on page 3's being served, never on a timer a loaded machine may
// outrun.
func TestOutOfOrderInsert(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 5, Memberships: 30, Faults: Faults{OutOfOrderInsertPage: 2, InsertCount: 3, OutOfOrderWait: time.Hour}})
	before := s.MembershipsJSON(nil)
	var wg sync.WaitGroup
	var page2 response
	var page2Err error
	// Whichever request arrives first, page 3 is served from the list before
	// the insert and page 2 from the list after it.
	wg.Go(func() { // no t.Fatal off the test's goroutine: the error is checked below
		page2, page2Err = getErr(context.Background(), http.DefaultClient, base+paths[EndpointMemberships], q("page", "2", "count", "10"), DefaultToken)
	})
	page3 := decodeArray(t, get(t, base, paths[EndpointMemberships], q("page", "3", "count", "10")))
	wg.Wait()
	if page2Err != nil {
		t.Fatalf("page 2: %v", page2Err)
	}
	after := s.MembershipsJSON(nil)
	if len(after) != 33 {
		t.Fatalf("%d memberships after the insert, want 33", len(after))
	}
	if !equalRecords(page3, before[20:30]) {
		t.Fatal("page 3 was not served from the list before the insert")
	}
	if !equalRecords(decodeArray(t, page2), after[10:20]) {
		t.Fatal("page 2 was not served from the list after the insert")
	}
	// Only the first request is held: a later page 2 inserts nothing and is
	// served from the list as it is.
	again := decodeArray(t, get(t, base, paths[EndpointMemberships], q("page", "2", "count", "10")))
	if n := len(s.MembershipsJSON(nil)); n != 33 {
		t.Fatalf("%d memberships after a second page 2, want 33 (one insert)", n)
	}
	if !equalRecords(again, after[10:20]) {
		t.Fatal("a second page 2 was not served from the list after the insert")
	}
}

// Without a request for the next page, the hold ends after OutOfOrderWait.
func TestOutOfOrderInsertWaitIsBounded(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 5, Memberships: 30, Faults: Faults{OutOfOrderInsertPage: 1, InsertCount: 1, OutOfOrderWait: 100 * time.Millisecond}})
	begin := time.Now()
	got := decodeArray(t, get(t, base, paths[EndpointMemberships], q("page", "1", "count", "10")))
	if d := time.Since(begin); d < 100*time.Millisecond || d > hangLimit { // unbounded, it would hold for ever
		t.Fatalf("page 1 held %v, want about 100ms", d)
	}
	if !equalRecords(got, s.MembershipsJSON(nil)[:10]) || len(s.MembershipsJSON(nil)) != 31 {
		t.Fatal("page 1 not served from the list after the insert")
	}
}

func TestEqualOrgMetrics(t *testing.T) {
	t.Parallel()
	_, base := StartForTest(t, Options{Seed: 6, OrgMetrics: 7, Faults: Faults{EqualOrgMetrics: true}})
	m := decodeMetrics(t, get(t, base, paths[EndpointOrgMetrics], q("limit", "5", "page", "2")))
	if len(m.Results) != 2 || *m.TotalPages != 2 {
		t.Fatalf("%d results, totalPages %d", len(m.Results), *m.TotalPages)
	}
	for _, r := range m.Results {
		if !bytes.Equal(r, equalOrgMetric) {
			t.Fatalf("result %s", r)
		}
	}
}

// The first record of a chosen page gets an unpaired surrogate escape, the
// second an invalid UTF-8 byte; other pages and records are untouched.
func TestBrokenTextPages(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 8, Memberships: 10, Payments: 10, Groups: 10, Faults: Faults{BrokenTextPages: []int{2}}})
	for ep, field := range map[string]string{EndpointMemberships: "display_name", EndpointPayments: "channel", EndpointGroups: "name"} {
		r := get(t, base, paths[ep], q("page", "2", "count", "4"))
		if utf8.Valid(r.body) || !bytes.Contains(r.body, []byte(`"`+field+`":"\ud83d`)) {
			t.Fatalf("%s page 2 has no broken text in %s: %.300s", ep, field, r.body)
		}
		// encoding/json repairs both to U+FFFD, as the client must.
		var got []map[string]any
		if err := json.Unmarshal(r.body, &got); err != nil {
			t.Fatal(err)
		}
		want := dataOf(s, ep)[4:8]
		for i := range got {
			var orig map[string]any
			if err := json.Unmarshal(want[i], &orig); err != nil {
				t.Fatal(err)
			}
			wantText, _ := orig[field].(string)
			if i < 2 && orig[field] != nil {
				wantText = BrokenTextRepaired + wantText
			}
			if got[i][field] != nil && got[i][field] != wantText {
				t.Fatalf("%s record %d %s = %q, want %q", ep, i, field, got[i][field], wantText)
			}
		}
		if other := get(t, base, paths[ep], q("page", "1", "count", "4")); !utf8.Valid(other.body) || bytes.Contains(other.body, []byte(`\ud83d`)) {
			t.Fatalf("%s page 1 was spoiled too", ep)
		}
	}
}

func TestIgnoreStatusFilter(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 9, Memberships: 40, Faults: Faults{IgnoreStatusFilter: true}})
	got := decodeArray(t, get(t, base, paths[EndpointMemberships], q("status", "100", "count", "100")))
	if !equalRecords(got, s.MembershipsJSON(nil)) {
		t.Fatalf("status=100 ignored: %d records, want all 40", len(got))
	}
}
