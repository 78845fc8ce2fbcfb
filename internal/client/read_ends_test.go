package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// Pages 1 to 4 are full, so by page 5 the window has grown to four pages:
// 5 to 8 are in flight (5 and 6 are answered once 8 is asked for). Page 5
// is short, page 6 confirms the end, and pages 7 and 8, broken as they
// are, are discarded. Page 5 claims the end at page 6 once it is decoded;
// until then, the places of 5, 7 and 8 (whose bodies arrive, then fail to
// decode and are asked again) may go to pages past 8, discarded too, as
// many as the pool holds ahead at most (twice the places, past page 4).
func TestInFlightPagesAfterTheEndAreDiscarded(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(13)
	var mu sync.Mutex
	asked := map[int]bool{}
	release, eightAsked := make(chan struct{}), make(chan struct{})
	var once, eightOnce sync.Once
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		mu.Lock()
		asked[a.page] = true
		mu.Unlock()
		if a.page == 8 {
			eightOnce.Do(func() { close(eightAsked) })
		}
		switch a.page {
		case 1, 2, 3, 4:
			writeJSON(w, testutil.ArrayOf(testutil.PageOf(ids, a.page, 3)))
		case 5:
			// Answer page 5 only once page 8 has been asked for, so the
			// pages after it are certainly in flight. The minute is a
			// hang's limit: a read that never asks page 8 fails below.
			select {
			case <-eightAsked:
			case <-time.After(time.Minute):
			}
			writeJSON(w, testutil.ArrayOf(ids[12:]))
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
	inFlight, past := asked[8], 0
	for page := range asked {
		if page > 6 {
			past++
		}
	}
	mu.Unlock()
	if !inFlight {
		t.Fatalf("page 8 was not requested while page 5 was; asked %v", snapshot)
	}
	if asked[4+2*4+1] {
		t.Fatalf("page 13 was requested: the pool holds at most twice its places ahead of the page awaited; asked %v", snapshot)
	}
	done := log.find("read complete")
	if len(done) != 1 {
		t.Fatalf("%d read complete events", len(done))
	}
	// Sendings cancelled before they reached the server count too; none
	// past page 12.
	if d, _ := done[0].fields["requests_discarded"].(int); d < max(past, 2) || d > 6 {
		t.Fatalf("requests_discarded = %v, want %d to 6, the pages sent past the end's confirmation; asked %v", done[0].fields["requests_discarded"], max(past, 2), snapshot)
	}
}

func TestMaxPagesCap(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 4} {
		// Every page is full of new records: the read never ends by itself.
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
			writeJSON(w, testutil.ArrayOf([]string{fmt.Sprintf("p%d-1", a.page), fmt.Sprintf("p%d-2", a.page)}))
		})
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxPages: 5, MaxConcurrency: conc})
		ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 2}})
		if ms != nil {
			t.Fatal("partial result")
		}
		if !errors.Is(err, failure.ErrNotAdvancing) || !strings.Contains(err.Error(), "cap of 5 pages") {
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
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 100, Faults: sandbox.Faults{ServerErrors: 10, ServerErrorStatus: 500, OnlyPages: []int{4}}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: 1, MaxConcurrency: 4})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
	if ms != nil {
		t.Fatalf("partial list of %d records", len(ms))
	}
	ae := requireAPIError(t, err, 500)
	if ae.Page != 4 || ae.Attempts != 2 {
		t.Fatalf("failure.APIError %+v", ae)
	}
	_ = sb
}

// Org-metric records that are all equal are all kept.
func TestEqualOrgMetricsFromSandbox(t *testing.T) {
	t.Parallel()
	_, base := sandbox.StartForTest(t, sandbox.Options{OrgMetrics: 30, Faults: sandbox.Faults{EqualOrgMetrics: true}})
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
	sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: 15, Memberships: 30, Faults: sandbox.Faults{BrokenTextPages: []int{1, 3}}})
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
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "3600"}})
	c := newClient(t, Config{BaseURL: base})
	start := time.Now()
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	var rw *transport.RetryWaitError
	if !errors.As(err, &rw) || rw.Wait != time.Hour || rw.Max != DefaultMaxRetryWait || !strings.Contains(err.Error(), "Config.MaxRetryWait") {
		t.Fatalf("error %v", err)
	}
	if sb.Requests("memberships") != 1 {
		t.Fatalf("failed after %v and %d requests, want 1: the wait was not made", time.Since(start), sb.Requests("memberships"))
	}
}
