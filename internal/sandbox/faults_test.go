package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// outcome sends one request on a fresh connection and names the result:
// "reset" for a transport error, else the status code.
func outcome(t *testing.T, base, path string, page int) (string, response) {
	t.Helper()
	r, err := getErr(context.Background(), freshClient(), base+path, q("page", itoa(page), "count", "2", "limit", "2"), DefaultToken)
	if err != nil {
		return "reset", r
	}
	return itoa(r.status), r
}

func TestCountBasedFaults(t *testing.T) {
	t.Parallel()
	const date = "Wed, 21 Oct 2015 07:28:00 GMT"
	tests := []struct {
		name       string
		f          Faults
		page       int
		want       []string
		retryAfter string
	}{
		{"rate limited", Faults{RateLimited: 2, RetryAfter: "7"}, 1, []string{"429", "429", "200", "200"}, "7"},
		{"rate limited default Retry-After", Faults{RateLimited: 1}, 3, []string{"429", "200"}, "0"},
		{"rate limited HTTP-date Retry-After", Faults{RateLimited: 1, RetryAfter: date}, 2, []string{"429", "200"}, date},
		{"server errors default 503", Faults{ServerErrors: 2}, 2, []string{"503", "503", "200"}, ""},
		{"server errors chosen status", Faults{ServerErrors: 1, ServerErrorStatus: 500}, 1, []string{"500", "200"}, ""},
		{"connection resets", Faults{ConnectionResets: 2}, 1, []string{"reset", "reset", "200"}, ""},
		{"combined faults in order", Faults{ConnectionResets: 1, ServerErrors: 1, RateLimited: 1}, 1, []string{"reset", "503", "429", "200"}, "0"},
		{"only pages: other page untouched", Faults{ServerErrors: 1, OnlyPages: []int{2}}, 1, []string{"200", "200"}, ""},
		{"only pages: listed page", Faults{ServerErrors: 1, OnlyPages: []int{2, 3}}, 3, []string{"503", "200"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, base := StartForTest(t, Options{Seed: 1, Memberships: 10, Payments: 10, Groups: 10, OrgMetrics: 10, Faults: tc.f})
			for ep, path := range paths {
				// Counted per page: the next page fails again.
				for _, page := range []int{tc.page, tc.page + 1} {
					if len(tc.f.OnlyPages) > 0 && page != tc.page {
						continue
					}
					for i, want := range tc.want {
						got, r := outcome(t, base, path, page)
						if got != want {
							t.Fatalf("%s page %d attempt %d: %s, want %s (%s)", ep, page, i+1, got, want, r.body)
						}
						if got == "429" && r.header.Get("Retry-After") != tc.retryAfter {
							t.Fatalf("Retry-After %q, want %q", r.header.Get("Retry-After"), tc.retryAfter)
						}
						if got != "200" && got != "reset" && !json.Valid(r.body) {
							t.Fatalf("%s body is not JSON: %s", got, r.body)
						}
					}
				}
			}
		})
	}
}

func TestFaultCountersArePerEndpointAndPage(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 10, Payments: 10, Faults: Faults{ServerErrors: 1}})
	steps := []struct {
		path string
		page int
		want string
	}{
		{DefaultPaths()[EndpointMemberships], 1, "503"},
		{DefaultPaths()[EndpointPayments], 1, "503"},
		{DefaultPaths()[EndpointMemberships], 2, "503"},
		{DefaultPaths()[EndpointMemberships], 1, "200"},
		{DefaultPaths()[EndpointPayments], 1, "200"},
	}
	for _, st := range steps {
		if got, _ := outcome(t, base, st.path, st.page); got != st.want {
			t.Fatalf("%s page %d: %s, want %s", st.path, st.page, got, st.want)
		}
	}
	// SetFaults starts counting again; an empty Faults turns them off.
	s.SetFaults(Faults{ServerErrors: 1})
	if got, _ := outcome(t, base, DefaultPaths()[EndpointMemberships], 1); got != "503" {
		t.Fatalf("after SetFaults: %s, want 503", got)
	}
	s.SetFaults(Faults{})
	if got, _ := outcome(t, base, DefaultPaths()[EndpointMemberships], 2); got != "200" {
		t.Fatalf("after clearing faults: %s, want 200", got)
	}
}

// Concurrent clients hitting the same pages see exactly one failure per page.
func TestFaultsUnderConcurrency(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 100, Faults: Faults{ServerErrors: 1}})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for page := 1; page <= 10; page++ {
				for {
					r, err := getErr(context.Background(), http.DefaultClient, base+DefaultPaths()[EndpointMemberships], q("page", itoa(page), "count", "10"), DefaultToken)
					if err != nil {
						t.Error(err)
						return
					}
					if r.status == 200 {
						break
					}
				}
			}
		})
	}
	wg.Wait()
	// Requests counts a request as it arrives; the log holds it once its
	// handler has returned, which may be after the client has its answer.
	testutil.Eventually(t, "every request is logged", func() bool { return len(s.RequestLog()) == s.Requests("") })
	n503 := 0
	for _, rec := range s.RequestLog() {
		if rec.Status == 503 {
			n503++
		}
	}
	if n503 != 10 || s.Requests(EndpointMemberships) != 90 {
		t.Fatalf("%d failures in %d requests, want 10 in 90", n503, s.Requests(EndpointMemberships))
	}
}

func TestNonJSONPage(t *testing.T) {
	t.Parallel()
	_, base := StartForTest(t, Options{Seed: 1, Memberships: 10, OrgMetrics: 10, Faults: Faults{NonJSONPage: 2}})
	for _, path := range []string{DefaultPaths()[EndpointMemberships], DefaultPaths()[EndpointOrgMetrics]} {
		_, r := outcome(t, base, path, 2)
		if r.status != 200 || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") || json.Valid(r.body) {
			t.Fatalf("%s page 2: %d %q %.40s", path, r.status, r.header.Get("Content-Type"), r.body)
		}
		if _, r := outcome(t, base, path, 1); !json.Valid(r.body) {
			t.Fatalf("%s page 1 is not JSON", path)
		}
	}
}

func TestTruncatedPage(t *testing.T) {
	t.Parallel()
	_, good := StartForTest(t, Options{Seed: 1, Memberships: 10, OrgMetrics: 10})
	_, bad := StartForTest(t, Options{Seed: 1, Memberships: 10, OrgMetrics: 10, Faults: Faults{TruncatedPage: 1}})
	for _, path := range []string{DefaultPaths()[EndpointMemberships], DefaultPaths()[EndpointOrgMetrics]} {
		_, full := outcome(t, good, path, 1)
		_, cut := outcome(t, bad, path, 1)
		if cut.status != 200 || cut.header.Get("Content-Type") != "application/json" || json.Valid(cut.body) {
			t.Fatalf("%s: truncated page %d %q valid=%v", path, cut.status, cut.header.Get("Content-Type"), json.Valid(cut.body))
		}
		if len(cut.body) != len(full.body)/2 || !bytes.HasPrefix(full.body, cut.body) {
			t.Fatalf("%s: cut to %d of %d bytes", path, len(cut.body), len(full.body))
		}
		if _, r := outcome(t, bad, path, 2); !json.Valid(r.body) {
			t.Fatalf("%s page 2 is not JSON", path)
		}
	}
	// Even an empty page is broken.
	if _, r := outcome(t, bad, DefaultPaths()[EndpointGroups], 1); string(r.body) != "[" {
		t.Fatalf("truncated empty page %q", r.body)
	}
}

func TestIgnorePage(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 10, OrgMetrics: 10, Faults: Faults{IgnorePage: true}})
	_, r := outcome(t, base, DefaultPaths()[EndpointMemberships], 3)
	if got := decodeArray(t, r); !equalRecords(got, s.MembershipsJSON(nil)[:2]) {
		t.Fatalf("page 3 with IgnorePage gave %d other records", len(got))
	}
	_, r = outcome(t, base, DefaultPaths()[EndpointOrgMetrics], 4)
	m := decodeMetrics(t, r)
	if *m.Page != 1 || *m.TotalPages != 5 || !equalRecords(m.Results, s.OrgMetricsJSON()[:2]) {
		t.Fatalf("org_metrics page 4 with IgnorePage: %s", r.body)
	}
}

func TestInsertAfterPage(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 20, Payments: 20, Groups: 20, OrgMetrics: 8,
		Faults: Faults{InsertAfterPage: 2, InsertCount: 3}})
	idOf := func(r json.RawMessage) string {
		var v struct {
			ID string `json:"_id"`
		}
		json.Unmarshal(r, &v)
		return v.ID
	}
	for _, ep := range []string{EndpointMemberships, EndpointPayments, EndpointGroups} {
		path := paths[ep]
		before := dataOf(s, ep)
		page := func(n int) []json.RawMessage {
			return decodeArray(t, get(t, base, path, q("count", "5", "page", itoa(n))))
		}
		p1 := page(1)
		if len(dataOf(s, ep)) != 20 {
			t.Fatalf("%s: inserted after page 1", ep)
		}
		p2 := page(2)
		if !equalRecords(p1, before[:5]) || !equalRecords(p2, before[5:10]) {
			t.Fatalf("%s: pages 1-2 were not the original records", ep)
		}
		after := dataOf(s, ep)
		if len(after) != 23 || !equalRecords(after[3:], before) {
			t.Fatalf("%s: %d records after the insert, want 3 new ones in front of the original 20", ep, len(after))
		}
		seen := map[string]bool{}
		for _, r := range after {
			if seen[idOf(r)] || !hexID.MatchString(idOf(r)) {
				t.Fatalf("%s: inserted id %q is not fresh", ep, idOf(r))
			}
			seen[idOf(r)] = true
		}
		// The list shifted by 3: page 3 starts with the last 3 records of page 2.
		p3 := page(3)
		if !equalRecords(p3[:3], p2[2:]) {
			t.Fatalf("%s: page 3 does not repeat the end of page 2", ep)
		}
		// Once per server: serving page 2 again inserts nothing.
		page(2)
		if n := len(dataOf(s, ep)); n != 23 {
			t.Fatalf("%s: %d records after a second page 2", ep, n)
		}
	}
	if n := len(s.OrgMetricsJSON()); n != 8 {
		t.Fatalf("org metrics got inserts: %d", n)
	}
	// The status index follows the inserts.
	total := 0
	for _, st := range []int{50, 75, 100, 300, 350, 999} {
		total += len(s.MembershipsJSON(&st))
	}
	if total != 23 {
		t.Fatalf("status filter sees %d memberships, want 23", total)
	}
	// SetFaults re-arms the insert.
	s.SetFaults(Faults{InsertAfterPage: 1, InsertCount: 2})
	get(t, base, DefaultPaths()[EndpointMemberships], nil)
	if n := len(s.MembershipsJSON(nil)); n != 25 {
		t.Fatalf("%d memberships after a re-armed insert, want 25", n)
	}
}

// Inserts while many clients read: run with -race.
func TestConcurrentReadsDuringInsert(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 300, Faults: Faults{InsertAfterPage: 1, InsertCount: 50}})
	var wg sync.WaitGroup
	answers := make([][]response, 6) // checked on the test's goroutine, which alone may fail it
	errs := make([]error, 6)
	for i := range 6 {
		wg.Go(func() {
			for page := 1; page <= 5 && errs[i] == nil; page++ {
				v := q("page", itoa(page), "count", "40")
				if i%2 == 0 {
					v.Set("status", "100")
				}
				var r response
				r, errs[i] = getErr(context.Background(), http.DefaultClient, base+DefaultPaths()[EndpointMemberships], v, DefaultToken)
				answers[i] = append(answers[i], r)
				s.MembershipsJSON(nil)
			}
		})
	}
	wg.Wait()
	for i := range 6 {
		if errs[i] != nil {
			t.Fatalf("reader %d: %v", i, errs[i])
		}
		for _, r := range answers[i] {
			decodeArray(t, r)
		}
	}
	if n := len(s.MembershipsJSON(nil)); n != 350 {
		t.Fatalf("%d memberships, want 350 (one insert)", n)
	}
}

func TestLatency(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 2, Faults: Faults{Latency: 80 * time.Millisecond}})
	t0 := time.Now()
	get(t, base, DefaultPaths()[EndpointMemberships], nil)
	if d := time.Since(t0); d < 80*time.Millisecond {
		t.Fatalf("answered after %v, want >= 80ms", d)
	}
	testutil.Eventually(t, "the answer is logged", func() bool { return len(s.RequestLog()) == 1 })
	if l := s.RequestLog()[0].Latency; l != 80*time.Millisecond {
		t.Fatalf("the log says the answer waited %v, want 80ms", l)
	}

	// A cancelled request stops the wait at once: with an hour's latency,
	// the handler returns (and logs) only if the cancel ended its wait.
	s.SetFaults(Faults{Latency: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := getErr(ctx, freshClient(), base+DefaultPaths()[EndpointMemberships], nil, DefaultToken)
		errc <- err
	}()
	// Cancelled once it has arrived (counted before its wait), not on a timer
	// that may fire before the request is even sent.
	testutil.Eventually(t, "the second request arrives", func() bool { return s.Requests("") == 2 })
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want canceled", err)
	}
	testutil.Eventually(t, "the cancelled request is logged", func() bool { return len(s.RequestLog()) == 2 })
	rec := s.RequestLog()[1]
	if rec.Latency != time.Hour || rec.Finished.Sub(rec.Arrived) >= rec.Latency {
		t.Fatalf("handler drew %v and took %v: it kept sleeping", rec.Latency, rec.Finished.Sub(rec.Arrived))
	}
	if rec.Status != 0 {
		t.Fatalf("cancelled request logged as %d, want 0", rec.Status)
	}
}

func TestSlowBody(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 60, Faults: Faults{SlowBody: 300 * time.Millisecond, OnlyPages: []int{1}}})
	normal := get(t, base, DefaultPaths()[EndpointMemberships], q("page", "2", "count", "20")) // not in OnlyPages: fast

	t0 := time.Now()
	slow, err := getErr(context.Background(), freshClient(), base+DefaultPaths()[EndpointMemberships], q("count", "20"), DefaultToken)
	total := time.Since(t0)
	if err != nil || !json.Valid(slow.body) || len(slow.body) < len(normal.body)/2 {
		t.Fatalf("slow body broken: %v, %d bytes", err, len(slow.body))
	}
	// Lower bounds only: ten chunks have nine waits of 30 ms between them.
	if total < 250*time.Millisecond {
		t.Fatalf("body after %v; want it spread over ~300ms", total)
	}
	// Logged when the handler returns, which may be after the client read
	// the last byte.
	testutil.Eventually(t, "the slow answer is logged", func() bool { return len(s.RequestLog()) == 2 })
	if rec := s.RequestLog()[1]; rec.Finished.Sub(rec.Arrived) < 250*time.Millisecond {
		t.Fatalf("the server wrote the slow body in %v; want it spread over ~300ms", rec.Finished.Sub(rec.Arrived))
	}

	// The headers and the first chunk come while the rest is still being
	// written: with a body spread over an hour, the client reads a first
	// part while the server has not finished the answer.
	s.SetFaults(Faults{SlowBody: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+DefaultPaths()[EndpointMemberships]+"?count=20", nil)
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	resp, err := freshClient().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	first := make([]byte, len(slow.body))
	n, err := resp.Body.Read(first)
	if err != nil || n == 0 || n >= len(slow.body) || !bytes.HasPrefix(slow.body, first[:n]) {
		t.Fatalf("first read of an hour's body: %d of %d bytes, %v; want a first part", n, len(slow.body), err)
	}
	if len(s.RequestLog()) != 2 {
		t.Fatal("the slow answer is logged as finished while its body is still being written")
	}

	// A client that gives up ends the slow write: the handler returns (and
	// logs) within the hour only because the client went.
	cancel()
	testutil.Eventually(t, "the slow answer ends when its client goes", func() bool { return len(s.RequestLog()) == 3 })
	if rec := s.RequestLog()[2]; rec.Finished.Sub(rec.Arrived) >= time.Hour {
		t.Fatalf("the slow write went on for %v after its client went", rec.Finished.Sub(rec.Arrived))
	}
}

// Close must not wait for a handler that is sleeping or trickling a body.
func TestCloseCutsSlowRequests(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Memberships: 5, Faults: Faults{SlowBody: time.Hour}})
	errc := make(chan error, 1)
	go func() {
		_, err := getErr(context.Background(), freshClient(), base+DefaultPaths()[EndpointMemberships], nil, DefaultToken)
		errc <- err
	}()
	testutil.Eventually(t, "the slow request arrives", func() bool { return s.Requests("") == 1 })
	t0 := time.Now()
	s.Close()
	// A hang limit: a Close that waited the body out would take the hour.
	if d := time.Since(t0); d > hangLimit {
		t.Fatalf("Close took %v", d)
	}
	// The body was cut: the client sees it end early, not a whole answer.
	if err := <-errc; err == nil {
		t.Fatal("the client read a whole answer that Close should have cut")
	}
}
