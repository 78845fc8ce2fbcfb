package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

func TestIgnoredPageParameterIsNotAdvancing(t *testing.T) {
	t.Parallel()
	for _, conc := range []int{1, 4} {
		sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 30, Payments: 30, Groups: 30, OrgMetrics: 30, Faults: sandbox.Faults{IgnorePage: true}})
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
	// Page 2 goes out with the other question an empty page 2 would need
	// (page 2 at one record fewer); page 2 holds records, so that question
	// is cancelled as the read ends, and whether it reached the server first
	// is a race: it may be among the questions, once, and nothing else may.
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, Faults: sandbox.Faults{IgnorePage: true}})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: base, Logger: log})
	if ms, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil || len(ms) != 5 {
		t.Fatalf("%d, %v", len(ms), err)
	}
	asked := questionsAsked(t, sb)
	const sentAhead = "page 2 count 4"
	if i := slices.Index(asked, sentAhead); i >= 0 {
		asked = slices.Delete(slices.Clone(asked), i, i+1)
	}
	if want := []string{"page 1 count 1000", "page 1 count 5", "page 2 count 5"}; !slices.Equal(asked, want) {
		t.Fatalf("questions %q, want %q and perhaps %q", questionsAsked(t, sb), want, sentAhead)
	}
	if n := len(log.find("ignores the page parameter")); n != 1 {
		t.Fatalf("%d warnings, want 1", n)
	}
}

func checkNotAdvancing(t *testing.T, err error, endpoint string, page int, detail string) {
	t.Helper()
	if !errors.Is(err, failure.ErrNotAdvancing) {
		t.Fatalf("%s: error %v does not wrap failure.ErrNotAdvancing", endpoint, err)
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
			writeJSON(w, testutil.ArrayOf([]string{"a", "b", "c"}))
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
		for _, id := range testutil.PageOf(ids, page, 10) {
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
	// believed, and page 3's end is first put to three other questions,
	// whose pages, at other counts, do not line up with this server's
	// (it serves page 3 for every page past it): 11 requests, not 100,000.
	if got := api.count(); got != 11 {
		var asked []string
		for _, a := range api.log() {
			asked = append(asked, fmt.Sprintf("%d/%d", a.page, a.size))
		}
		t.Fatalf("%d requests before giving up, want 11: %v", got, asked)
	}
}

// A server that ignores page and count and always serves the first 50
// records: its short page 1 is not taken for a whole list, since 50 is what
// a server that ignores count serves.
func TestServerIgnoringPageAndCount(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(1234)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, testutil.ArrayOf(ids[:50])) })
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if ms != nil {
		t.Fatalf("%d records returned", len(ms))
	}
	checkNotAdvancing(t, err, "memberships", 2, "default count")
}
