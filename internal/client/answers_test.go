package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// A lie is what a server answers with a 200 for a moment (a lagging
// replica, a cache, a CDN, a search backend that timed out), given the
// records the page truly holds.
type lie func(truth []string) []byte

var (
	emptyLie       lie = func([]string) []byte { return []byte("[]") }
	cutLie         lie = func(truth []string) []byte { return testutil.ArrayOf(truth[:len(truth)/2]) }
	maintenanceLie lie = func([]string) []byte {
		return []byte("<html><body><h1>Down for maintenance</h1></body></html>")
	}
	errorObjectLie lie = func([]string) []byte { return []byte(`{"error":"backend timeout"}`) }
	cutJSONLie     lie = func(truth []string) []byte { b := testutil.ArrayOf(truth); return b[:len(b)*2/3] }
)

// pageAttempts counts the requests for each page, for servers that answer
// a page's first requests otherwise than its later ones.
type pageAttempts struct {
	mu sync.Mutex
	n  map[int]int
}

// next counts a request for page and returns its number: 1 for the first.
func (p *pageAttempts) next(page int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.n == nil {
		p.n = map[int]int{}
	}
	p.n[page]++
	return p.n[page]
}

// lyingAPI serves ids in count-style pages, but answers page p's attempts
// named in lies[p] (1 is the first request for that page) with the lie.
// Other attempts tell the truth.
func lyingAPI(t *testing.T, ids []string, lies map[int]map[int]lie) *fakeAPI {
	attempts := &pageAttempts{}
	return newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		n := attempts.next(a.page)
		truth := testutil.PageOf(ids, a.page, a.size)
		if l := lies[a.page][n]; l != nil {
			writeJSON(w, l(truth))
			return
		}
		writeJSON(w, testutil.ArrayOf(truth))
	})
}

// A 200 whose body is not a page is retried as a 5xx is, and the read is
// exact; each kind, on page 1 and on a later page.
func TestNotAPageIsRetried(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(25)
	for name, l := range map[string]lie{"maintenance page": maintenanceLie, "error object": errorObjectLie, "cut JSON": cutJSONLie} {
		for _, page := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/page %d", name, page), func(t *testing.T) {
				t.Parallel()
				api := lyingAPI(t, ids, map[int]map[int]lie{page: {1: l, 2: l}})
				c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
				ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
				if err != nil {
					t.Fatal(err)
				}
				equalIDs(t, "memberships", membershipIDs(ms), ids)
				if got := api.pagesOf()[page]; got < 3 {
					t.Fatalf("page %d asked %d times, want the two bad answers retried", page, got)
				}
			})
		}
	}
}

// When every attempt is answered with something that is not a page, the
// read fails in bounded time, naming the content problem and the attempts.
func TestNotAPageEveryTimeFails(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, maintenanceLie(nil)) })
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxRetries: 2})
	start := time.Now()
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if ms != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "memberships", 1)
	for _, want := range []string{"after 3 attempts", "is not a page", "not JSON"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not say %q", err, want)
		}
	}
	if api.count() != 3 {
		t.Fatalf("%d requests in %v, want 3 (1 + MaxRetries)", api.count(), time.Since(start))
	}
}

// Every way a count-style read ends is asked a second time: an empty page
// answered once where records are, or a last page cut short once, does not
// shorten the list. One page at a time and concurrently.
func TestAnEndAnsweredOnceIsNotBelieved(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		n    int // records, in pages of 10
		lies map[int]map[int]lie
	}{
		{"empty page 2 after a full page 1", 37, map[int]map[int]lie{2: {1: emptyLie}}},
		{"empty page 1", 37, map[int]map[int]lie{1: {1: emptyLie}}},
		{"empty last page", 37, map[int]map[int]lie{4: {1: emptyLie}}},
		{"last page cut short", 37, map[int]map[int]lie{4: {1: cutLie}}},
		{"exact multiple, last full page cut short", 40, map[int]map[int]lie{4: {1: cutLie}}},
		{"exact multiple, last full page empty", 40, map[int]map[int]lie{4: {1: emptyLie}}},
	}
	for _, tc := range cases {
		for _, conc := range []int{1, 4} {
			t.Run(fmt.Sprintf("%s/concurrency %d", tc.name, conc), func(t *testing.T) {
				t.Parallel()
				ids := syntheticIDs(tc.n)
				api := lyingAPI(t, ids, tc.lies)
				c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: conc})
				ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
				if err != nil {
					t.Fatal(err)
				}
				equalIDs(t, "memberships", membershipIDs(ms), ids)
			})
		}
	}
}

// Confirming the end costs one request more than the read needed before,
// one page at a time, whichever way it ends; two for an empty list, whose
// end no held record can vouch for.
func TestTheEndCostsOneRequestMore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		n, want int
	}{
		{0, 3},  // page 1, empty, and page 1 asked with two other counts
		{7, 3},  // a short page 1, the empty page 2 and its other question
		{30, 5}, // three full pages, the empty page 4 and its other question
		{37, 6}, // three full pages, the short page 4 and its other question, the empty page 5
	} {
		api := lyingAPI(t, syntheticIDs(tc.n), nil)
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
		if _, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}}); err != nil {
			t.Fatal(err)
		}
		if api.count() != tc.want {
			t.Errorf("%d records: %d requests, want %d (%v)", tc.n, api.count(), tc.want, api.pagesOf())
		}
	}
}

// Records on a page past the end contradict it: a page 2 answered empty
// twice, and so is every other question of its end (a server whose page 2
// lags at any count), while pages 3 and 4, fetched in the same burst, came
// back full. The read starts again one page at a time, and returns every
// record.
func TestRecordsBeyondTheEndContradictIt(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(47)
	attempts := &pageAttempts{}
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page == 2 && (a.size != 10 || attempts.next(a.page) <= 2) {
			// Late, so that the pages after it are answered first.
			time.Sleep(100 * time.Millisecond)
			writeJSON(w, []byte("[]"))
			return
		}
		writeJSON(w, testutil.ArrayOf(testutil.PageOf(ids, a.page, a.size)))
	})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 4, Logger: log})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)
	if len(log.find("past the end of the list holds records")) == 0 {
		t.Fatal("the records past the end were not noticed")
	}
}

// Answers of one run agree: a page answered with other records than the
// same question got earlier in the run (a full read, then a masked read of
// the same URL) is asked again, and the answer that two agree on is kept.
func TestAnswersOfOneRunAgree(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(30)
	stale := syntheticIDs(60)[30:40] // ten other records: a replica's page 2
	attempts := &pageAttempts{}
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		n := attempts.next(a.page)
		if a.page == 2 && n == 2 { // the second read's first ask
			writeJSON(w, testutil.ArrayOf(stale))
			return
		}
		writeJSON(w, testutil.ArrayOf(testutil.PageOf(ids, a.page, a.size)))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	q := MembershipQuery{ListOptions: ListOptions{PageSize: 10}}
	full, err := c.Memberships(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	lean, err := c.MembershipSummaries(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "full", membershipIDs(full), ids)
	leanIDs := make([]string, len(lean))
	for i := range lean {
		leanIDs[i] = deref(lean[i].ID)
	}
	equalIDs(t, "lean read of the same URL", leanIDs, ids)
}

// A server that gives a different answer every time it is asked fails the
// read, saying so.
func TestDifferentAnswersEveryTimeFail(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page == 1 {
			writeJSON(w, testutil.ArrayOf(syntheticIDs(10)))
			return
		}
		// Page 2: a short page of other records each time.
		writeJSON(w, testutil.ArrayOf([]string{fmt.Sprintf("x-%d-a", a.seq), fmt.Sprintf("x-%d-b", a.seq)}))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
	if ms != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "memberships", 2)
	if !errors.Is(err, failure.ErrInconsistentAnswers) || !strings.Contains(err.Error(), "different answers") {
		t.Fatalf("error %v does not say the server gave different answers", err)
	}
}

// Org metrics: an empty answer (totalPages 0), a cut last page and a page
// that is not a page of results, each answered once, do not shorten the
// results.
func TestOrgMetricsEndAnsweredOnceIsNotBelieved(t *testing.T) {
	t.Parallel()
	const n, limit = 23, 10
	pages := (n + limit - 1) / limit
	truth := func(page int) []int {
		var keys []int
		for k := (page - 1) * limit; k < min(page*limit, n); k++ {
			keys = append(keys, k)
		}
		return keys
	}
	cases := map[string]func(page int) []byte{
		"empty page 1":  func(page int) []byte { return metadataBody(page, limit, 0) },
		"cut last page": func(page int) []byte { return metadataBody(page, limit, pages, truth(page)[:1]...) },
		"no results": func(page int) []byte {
			return fmt.Appendf(nil, `{"page":%d,"limit":%d,"totalPages":%d}`, page, limit, pages)
		},
		"empty mid-list": func(page int) []byte { return metadataBody(page, limit, 0) },
	}
	liePage := map[string]int{"empty page 1": 1, "cut last page": pages, "no results": 2, "empty mid-list": 2}
	for name, l := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			attempts := &pageAttempts{}
			api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
				first := attempts.next(a.page) == 1
				if a.page == liePage[name] && first {
					writeJSON(w, l(a.page))
					return
				}
				writeJSON(w, metadataBody(a.page, limit, pages, truth(a.page)...))
			})
			c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
			om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: limit})
			if err != nil {
				t.Fatal(err)
			}
			if len(om.Results) != n || om.TotalPages != pages {
				t.Fatalf("%d results, totalPages %d; want %d, %d", len(om.Results), om.TotalPages, n, pages)
			}
		})
	}
}
