package sandbox

import (
	"encoding/json"
	"net/url"
	"slices"
	"testing"
)

func TestCountDefaultsAndCaps(t *testing.T) {
	t.Parallel()
	s, base := paramServer(t)
	tests := []struct {
		name  string
		count string // "" means omitted
		want  int
	}{
		{"omitted", "", 50},
		{"explicit", "10", 10},
		{"one", "1", 1},
		{"max", "1000", 1000},
		{"above max capped", "1001", 1000},
		{"far above max capped", "5000", 1000},
		{"overflowing int capped", "99999999999999999999999", 1000},
		{"zero takes default", "0", 50},
		{"negative takes default", "-5", 50},
		{"invalid takes default", "abc", 50},
		{"decimal takes default", "2.5", 50},
	}
	for _, ep := range []string{EndpointMemberships, EndpointPayments, EndpointGroups} {
		for _, tc := range tests {
			t.Run(ep+"/"+tc.name, func(t *testing.T) {
				t.Parallel()
				v := url.Values{}
				if tc.count != "" {
					v.Set("count", tc.count)
				}
				got := decodeArray(t, get(t, base, paths[ep], v))
				all := dataOf(s, ep)
				want := all[:min(tc.want, len(all))]
				if !equalRecords(got, want) {
					t.Fatalf("got %d records, want the first %d of the data set", len(got), len(want))
				}
			})
		}
	}
}

func TestPageNormalisation(t *testing.T) {
	t.Parallel()
	s, base := paramServer(t)
	all := s.MembershipsJSON(nil)
	tests := []struct {
		name string
		page string // "" means omitted
		want []json.RawMessage
	}{
		{"omitted", "", all[:7]},
		{"one", "1", all[:7]},
		{"zero", "0", all[:7]},
		{"negative", "-1", all[:7]},
		{"invalid", "first", all[:7]},
		{"empty", "", all[:7]},
		{"two", "2", all[7:14]},
		{"last partial", itoa(len(all)/7 + 1), all[len(all)/7*7:]},
		{"past the end", itoa(len(all)/7 + 2), []json.RawMessage{}},
		{"far past the end", "2147483647", []json.RawMessage{}},
		{"overflowing int", "99999999999999999999999", []json.RawMessage{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			v := q("count", "7")
			if tc.page != "" {
				v.Set("page", tc.page)
			}
			r := get(t, base, DefaultPaths()[EndpointMemberships], v)
			got := decodeArray(t, r)
			if !equalRecords(got, tc.want) {
				t.Fatalf("got %d records, want %d", len(got), len(tc.want))
			}
			if len(tc.want) == 0 && string(r.body) != "[]" {
				t.Fatalf("empty page body %q, want []", r.body)
			}
		})
	}
}

// A client that reads pages until a short one must get every record once.
func TestReadingAllPagesGivesTheDataSet(t *testing.T) {
	t.Parallel()
	s, base := paramServer(t)
	for _, ep := range []string{EndpointMemberships, EndpointPayments, EndpointGroups} {
		t.Run(ep, func(t *testing.T) {
			t.Parallel()
			var got []json.RawMessage
			for page := 1; ; page++ {
				recs := decodeArray(t, get(t, base, paths[ep], q("count", "400", "page", itoa(page))))
				got = append(got, recs...)
				if len(recs) < 400 {
					break
				}
			}
			if want := dataOf(s, ep); !equalRecords(got, want) {
				t.Fatalf("read %d records, want %d in server order", len(got), len(want))
			}
		})
	}
}

func TestStatusFilterBeforePaging(t *testing.T) {
	t.Parallel()
	s, base := paramServer(t)
	for _, status := range []int{100, 50, 75, 300, 350, 999} {
		t.Run(itoa(status), func(t *testing.T) {
			t.Parallel()
			want := s.MembershipsJSON(&status)
			if len(want) == 0 {
				t.Fatalf("no memberships with status %d in the data set", status)
			}
			var got []json.RawMessage
			for page := 1; ; page++ {
				recs := decodeArray(t, get(t, base, DefaultPaths()[EndpointMemberships], q("status", itoa(status), "count", "13", "page", itoa(page))))
				got = append(got, recs...)
				// Filtering after paging would give short pages early.
				if len(recs) < 13 {
					break
				}
			}
			if !equalRecords(got, want) {
				t.Fatalf("filtered read gave %d records, want %d", len(got), len(want))
			}
			for _, r := range got {
				var m struct{ Status int }
				if err := json.Unmarshal(r, &m); err != nil || m.Status != status {
					t.Fatalf("record with status %d (err %v) in the status=%d result", m.Status, err, status)
				}
			}
		})
	}
	t.Run("no match is an empty array", func(t *testing.T) {
		t.Parallel()
		r := get(t, base, DefaultPaths()[EndpointMemberships], q("status", "12345"))
		if decodeArray(t, r); string(r.body) != "[]" {
			t.Fatalf("body %q, want []", r.body)
		}
	})
	t.Run("non-integer is 400", func(t *testing.T) {
		t.Parallel()
		for _, bad := range []string{"active", "1.5", "100x"} {
			r := get(t, base, DefaultPaths()[EndpointMemberships], q("status", bad))
			if r.status != 400 || !json.Valid(r.body) {
				t.Fatalf("status=%s: got %d %s, want 400 with a JSON body", bad, r.status, r.body)
			}
		}
	})
	t.Run("ignored by other endpoints", func(t *testing.T) {
		t.Parallel()
		got := decodeArray(t, get(t, base, DefaultPaths()[EndpointPayments], q("status", "active", "count", "3")))
		if !equalRecords(got, s.PaymentsJSON()[:3]) {
			t.Fatal("payments changed by a status parameter")
		}
	})
}

func TestOrgMetricsLimitAndMetadata(t *testing.T) {
	t.Parallel()
	s, base := paramServer(t)
	all := s.OrgMetricsJSON() // 230 records
	tests := []struct {
		name             string
		query            url.Values
		page, limit, tot int
		lo, hi           int // expected slice of all
	}{
		{name: "defaults", query: q(), page: 1, limit: 25, tot: 10, lo: 0, hi: 25},
		{name: "limit 10 page 3", query: q("limit", "10", "page", "3"), page: 3, limit: 10, tot: 23, lo: 20, hi: 30},
		{name: "limit capped at 100", query: q("limit", "500"), page: 1, limit: 100, tot: 3, lo: 0, hi: 100},
		{name: "last partial page", query: q("limit", "100", "page", "3"), page: 3, limit: 100, tot: 3, lo: 200, hi: 230},
		{name: "invalid limit", query: q("limit", "x"), page: 1, limit: 25, tot: 10, lo: 0, hi: 25},
		{name: "zero limit", query: q("limit", "0"), page: 1, limit: 25, tot: 10, lo: 0, hi: 25},
		{name: "count is not limit", query: q("count", "5"), page: 1, limit: 25, tot: 10, lo: 0, hi: 25},
		{name: "invalid page", query: q("page", "-3"), page: 1, limit: 25, tot: 10, lo: 0, hi: 25},
		{name: "beyond totalPages", query: q("page", "11"), page: 11, limit: 25, tot: 10, lo: 0, hi: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			m := decodeMetrics(t, get(t, base, DefaultPaths()[EndpointOrgMetrics], tc.query))
			if *m.Page != tc.page || *m.Limit != tc.limit || *m.TotalPages != tc.tot {
				t.Fatalf("page/limit/totalPages = %d/%d/%d, want %d/%d/%d", *m.Page, *m.Limit, *m.TotalPages, tc.page, tc.limit, tc.tot)
			}
			if !equalRecords(m.Results, all[tc.lo:tc.hi]) {
				t.Fatalf("got %d results, want records %d..%d", len(m.Results), tc.lo, tc.hi)
			}
		})
	}
	t.Run("count endpoints ignore limit", func(t *testing.T) {
		t.Parallel()
		if got := decodeArray(t, get(t, base, DefaultPaths()[EndpointGroups], q("limit", "3"))); len(got) != 30 {
			t.Fatalf("groups with limit=3 gave %d records, want all 30 (count default 50)", len(got))
		}
	})
}

func TestOrgMetricsEmpty(t *testing.T) {
	t.Parallel()
	_, base := StartForTest(t, Options{Seed: 1, Memberships: 3})
	for _, page := range []string{"1", "2"} {
		r := get(t, base, DefaultPaths()[EndpointOrgMetrics], q("page", page))
		want := `{"results":[],"page":` + page + `,"limit":25,"totalPages":0}`
		if string(r.body) != want {
			t.Fatalf("page %s: body %s, want %s", page, r.body, want)
		}
	}
	// The count endpoints with no records answer [].
	if r := get(t, base, DefaultPaths()[EndpointGroups], nil); string(r.body) != "[]" {
		t.Fatalf("empty groups body %q", r.body)
	}
}

func TestParseHelpers(t *testing.T) {
	t.Parallel()
	if got := pageSlice(make([][]byte, 10), 4, 3); len(got) != 1 {
		t.Fatalf("last page of 10 by 3 has %d records", len(got))
	}
	if got := pageSlice(nil, 1, 50); len(got) != 0 {
		t.Fatalf("page of nothing has %d records", len(got))
	}
	recs := [][]byte{[]byte(`{"a":1}`), []byte(`{"b":2}`)}
	b := appendArray(nil, recs)
	if string(b) != `[{"a":1},{"b":2}]` || len(b) != arrayLen(recs) {
		t.Fatalf("appendArray = %s (len %d, arrayLen %d)", b, len(b), arrayLen(recs))
	}
	if !slices.Equal([]int{totalPages(0, 25), totalPages(25, 25), totalPages(26, 25)}, []int{0, 1, 2}) {
		t.Fatal("totalPages")
	}
}
