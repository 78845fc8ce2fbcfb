package client

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func metricKeys(ms []OrgMetric) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		if m.MetricPeriodKey != nil {
			out[i] = strconv.FormatInt(*m.MetricPeriodKey, 10)
		}
	}
	return out
}

func rawMetricKeys(t *testing.T, raws []json.RawMessage) []string {
	t.Helper()
	out := make([]string, len(raws))
	for i, r := range raws {
		var v struct {
			K int64 `json:"metric_period_key"`
		}
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatal(err)
		}
		out[i] = strconv.FormatInt(v.K, 10)
	}
	return out
}

func TestOrgMetricsPaging(t *testing.T) {
	t.Parallel()
	cases := []struct{ n, size, pages int }{
		{0, 0, 0},
		{1, 0, 1},
		{100, 0, 1},
		{101, 0, 2},
		{250, 0, 3},
		{300, 0, 3}, // a multiple of the page size needs no extra request
		{45, 10, 5},
		{7, 1, 7},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%d/%d", tc.n, tc.size), func(t *testing.T) {
			t.Parallel()
			sb, base := sandbox.StartForTest(t, sandbox.Options{OrgMetrics: tc.n})
			wantKeys := rawMetricKeys(t, sb.OrgMetricsJSON())
			// Every page, and the other question of the answer that ends
			// the read when no other page confirms it: a short last page,
			// or a totalPages of 0 or 1 (page 1 the only one to say so);
			// two for an empty list.
			wantRequests, wantOthers := max(tc.pages, 1), 0
			if size := cmp.Or(tc.size, 100); tc.pages <= 1 || tc.n%size != 0 {
				wantOthers = 1 + btoi(tc.n == 0)
			}
			wantRequests += wantOthers
			for _, conc := range []int{1, 4} {
				sb.ResetCounters()
				c := newClient(t, Config{BaseURL: base, MaxConcurrency: conc})
				om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: tc.size, KeepRaw: true})
				if err != nil {
					t.Fatal(err)
				}
				equalIDs(t, "org metrics", metricKeys(om.Results), wantKeys)
				if om.TotalPages != tc.pages {
					t.Fatalf("TotalPages %d, want %d", om.TotalPages, tc.pages)
				}
				if n := sb.Requests("org_metrics"); n != wantRequests {
					t.Fatalf("concurrency %d: %d requests, want exactly %d", conc, n, wantRequests)
				}
				wantLimit := strconv.Itoa(tc.size)
				if tc.size == 0 {
					wantLimit = "100"
				}
				others := 0
				for _, r := range sb.RequestLog() {
					if r.Query.Has("count") || !r.Query.Has("limit") {
						t.Fatalf("query %v, want limit=%s and no count", r.Query, wantLimit)
					}
					if r.Query.Get("limit") != wantLimit {
						others++
					}
				}
				if others != wantOthers {
					t.Fatalf("%d requests with another limit than %s, want %d (the end's other questions)", others, wantLimit, wantOthers)
				}
				raws := sb.OrgMetricsJSON()
				for i, m := range om.Results {
					if m.RawJSON != string(raws[i]) || m.OrganizationID == nil || m.ActiveMemberships == nil {
						t.Fatalf("record %d: %+v", i, m)
					}
				}
			}
		})
	}
}

// metadataBody builds an org metrics page.
func metadataBody(page, limit, totalPages int, keys ...int) []byte {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf(`{"organization_id":"o1","metric_period_key":%d,"active_memberships":%d}`, k, k%97)
	}
	return fmt.Appendf(nil, `{"results":[%s],"page":%d,"limit":%d,"totalPages":%d}`, strings.Join(parts, ","), page, limit, totalPages)
}

// An empty answer is believed once two other questions (page 1 at other
// limits) agree: a lagging replica answers empty for a moment, and a cache
// keyed by URL answers so as often as it is asked.
func TestOrgMetricsEmptyIsThreeRequests(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		writeJSON(w, []byte(`{"results":[],"page":1,"limit":100,"totalPages":0}`))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	om, err := c.OrgMetrics(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(om.Results) != 0 || om.TotalPages != 0 || api.count() != 3 {
		t.Fatalf("%d results, totalPages %d, %d requests", len(om.Results), om.TotalPages, api.count())
	}
}

// totalPages decides how many pages are read, even when the pages are full
// and a count-style reader would have gone on.
func TestOrgMetricsStopsAtTotalPages(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		writeJSON(w, metadataBody(a.page, 2, 3, a.page*10+1, a.page*10+2))
	})
	for _, conc := range []int{1, 2, 8} {
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: conc})
		before := api.count()
		om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		equalIDs(t, "keys", metricKeys(om.Results), []string{"11", "12", "21", "22", "31", "32"})
		if n := api.count() - before; n != 3 {
			t.Fatalf("concurrency %d: %d requests, want 3", conc, n)
		}
	}
}

// Records added during the read raise totalPages: the read follows.
func TestOrgMetricsFollowsGrowingTotalPages(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		total := 2
		if a.page >= 2 {
			total = 4
		}
		writeJSON(w, metadataBody(a.page, 1, total, a.page))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "keys", metricKeys(om.Results), []string{"1", "2", "3", "4"})
	if om.TotalPages != 4 {
		t.Fatalf("TotalPages %d", om.TotalPages)
	}
}

// An empty results page before totalPages (records deleted during the read)
// is followed by empty pages to totalPages: the read ends there. A later
// page with results after an empty one is a server at odds with itself.
func TestOrgMetricsEmptyPageBeforeTotalPages(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page >= 3 {
			writeJSON(w, metadataBody(a.page, 1, 5))
			return
		}
		writeJSON(w, metadataBody(a.page, 1, 5, a.page))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 1})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "keys", metricKeys(om.Results), []string{"1", "2"})
	// To totalPages, and the first empty page asked twice: the empty
	// pages after it must be empty, and are.
	if api.count() != 6 {
		t.Fatalf("%d requests, want 6 (to totalPages, page 3 twice)", api.count())
	}
	gap := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page == 2 {
			writeJSON(w, metadataBody(a.page, 1, 3))
			return
		}
		writeJSON(w, metadataBody(a.page, 1, 3, a.page))
	})
	for _, conc := range []int{1, 4} {
		c := newClient(t, Config{BaseURL: gap.URL, Token: testToken, MaxConcurrency: conc})
		om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 1})
		if om != nil || requirePageError(t, err, "org_metrics", 3) == nil || !strings.Contains(err.Error(), "page 2 came back empty") {
			t.Fatalf("concurrency %d: %+v, %v", conc, om, err)
		}
	}
}

// A server that serves fewer results than asked for while counting
// totalPages on the limit asked for: the read goes past totalPages to an
// empty page and misses nothing.
func TestOrgMetricsServerServesLessThanLimit(t *testing.T) {
	t.Parallel()
	const records, served, asked = 23, 4, 10
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		var keys []int
		for k := (a.page - 1) * served; k < min(a.page*served, records); k++ {
			keys = append(keys, k)
		}
		writeJSON(w, metadataBody(a.page, asked, (records+asked-1)/asked, keys...))
	})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, Logger: log})
	om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: asked})
	if err != nil {
		t.Fatal(err)
	}
	if len(om.Results) != records || len(log.find("fewer results per page than asked")) != 1 {
		t.Fatalf("%d results, want %d; warnings %v", len(om.Results), records, log.find("fewer results"))
	}
	// 6 pages of results, then the empty 7th; page 1 (short before
	// totalPages: a server serving less, or a page cut for a moment) and
	// page 6 (the short last one) are asked twice.
	if n := api.count(); n != 9 {
		t.Fatalf("%d requests, want 9", n)
	}
}

func TestOrgMetricsPageCap(t *testing.T) {
	t.Parallel()
	// Page 1 already reports more pages than the cap.
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		writeJSON(w, metadataBody(a.page, 1, 1000, a.page))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxPages: 5})
	om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 1})
	if om != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "org_metrics", 1)
	if !strings.Contains(err.Error(), "cap of 5 pages") || api.count() != 1 {
		t.Fatalf("%v after %d requests", err, api.count())
	}

	// totalPages grows past the cap during the read: an error, not a
	// silently shortened list.
	api2 := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		total := 3
		if a.page >= 2 {
			total = 1000
		}
		writeJSON(w, metadataBody(a.page, 1, total, a.page))
	})
	c2 := newClient(t, Config{BaseURL: api2.URL, Token: testToken, MaxPages: 5, MaxConcurrency: 1})
	om, err = c2.OrgMetrics(context.Background(), ListOptions{PageSize: 1})
	if err == nil {
		t.Fatalf("read returned %d of 1000 pages' results without an error", len(om.Results))
	}
	requirePageError(t, err, "org_metrics", 2)
	if !strings.Contains(err.Error(), "cap of 5 pages") {
		t.Fatalf("error %v", err)
	}
}

func TestOrgMetricsPageMismatch(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		p := a.page
		if p == 3 {
			p = 2
		}
		writeJSON(w, metadataBody(p, 1, 4, a.page))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	_, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 1})
	checkNotAdvancing(t, err, "org_metrics", 3, "answered page 2 when page 3 was asked for")
	// No retry changes which page a server answers: page 3 is asked once.
	if n := api.pagesOf()[3]; n != 1 {
		t.Fatalf("page 3 asked %d times, want once", n)
	}
}

// Metric records have no id: equal records, on one page or on several, are
// legitimate and all kept. Pages with the right page number and totalPages
// are trusted even when their results are identical.
func TestOrgMetricsEqualRecordsAreAllKept(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		null := `{"organization_id":null,"metric_period_key":null,"active_memberships":null}`
		writeJSON(w, []byte(fmt.Sprintf(`{"results":[%s,%s,%s],"page":%d,"limit":3,"totalPages":10}`, null, null, null, a.page)))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 3, KeepRaw: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(om.Results) != 30 {
		t.Fatalf("%d results, want 30 equal ones", len(om.Results))
	}
	for i, m := range om.Results {
		if m.OrganizationID != nil || m.MetricPeriodKey != nil || m.ActiveMemberships != nil || !strings.Contains(m.RawJSON, "null") {
			t.Fatalf("result %d: %+v", i, m)
		}
	}
	if n := api.count(); n != 10 {
		t.Fatalf("%d requests, want 10", n)
	}
}
