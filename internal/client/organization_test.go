package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// guardReads are every read the organization guard must cover: each
// endpoint, and for memberships and payments the masked reads that decode
// only some members.
var guardReads = []struct {
	name string
	read func(ctx context.Context, c *Client) (int, error)
}{
	{"memberships", func(ctx context.Context, c *Client) (int, error) {
		ms, err := c.Memberships(ctx, MembershipQuery{})
		return len(ms), err
	}},
	{"memberships with fields", func(ctx context.Context, c *Client) (int, error) {
		ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{Fields: []string{"email"}}})
		return len(ms), err
	}},
	{"membership summaries", func(ctx context.Context, c *Client) (int, error) {
		ms, err := c.MembershipSummaries(ctx, MembershipQuery{Status: int64Ptr(100)})
		return len(ms), err
	}},
	{"payments", func(ctx context.Context, c *Client) (int, error) {
		ps, err := c.Payments(ctx, ListOptions{})
		return len(ps), err
	}},
	{"payments with fields", func(ctx context.Context, c *Client) (int, error) {
		ps, err := c.Payments(ctx, ListOptions{Fields: []string{"total"}})
		return len(ps), err
	}},
	{"groups", func(ctx context.Context, c *Client) (int, error) {
		gs, err := c.Groups(ctx, ListOptions{})
		return len(gs), err
	}},
	{"org_metrics", func(ctx context.Context, c *Client) (int, error) {
		m, err := c.OrgMetrics(ctx, ListOptions{})
		if m == nil {
			return 0, err
		}
		return len(m.Results), err
	}},
}

func TestOrganizationGuardPassesTheConfiguredOrganization(t *testing.T) {
	t.Parallel()
	s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 3, Memberships: 30, Payments: 12, Groups: 5, OrgMetrics: 7})
	guarded := newClient(t, Config{BaseURL: url, OrganizationID: s.OrganizationID()})
	open := newClient(t, Config{BaseURL: url})
	for _, r := range guardReads {
		got, err := r.read(context.Background(), guarded)
		if err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		want, err := r.read(context.Background(), open)
		if err != nil || got != want || got == 0 {
			t.Fatalf("%s: %d records with the guard, %d without (%v)", r.name, got, want, err)
		}
	}
}

func TestOrganizationGuardFailsEveryReadOfAnotherOrganization(t *testing.T) {
	t.Parallel()
	s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 3, Memberships: 30, Payments: 12, Groups: 5, OrgMetrics: 7})
	actual := s.OrganizationID()
	c := newClient(t, Config{BaseURL: url, OrganizationID: "org-production"})
	for _, r := range guardReads {
		n, err := r.read(context.Background(), c)
		var orgErr *OrganizationError
		if !errors.As(err, &orgErr) {
			t.Fatalf("%s: %d records and %v, want an *OrganizationError", r.name, n, err)
		}
		if n != 0 {
			t.Fatalf("%s: %d records returned with the error", r.name, n)
		}
		msg := err.Error()
		for _, want := range []string{`"org-production"`, fmt.Sprintf("%q", actual), "may belong to another organization", "Config.OrganizationID"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: the error does not say %s:\n%s", r.name, want, msg)
			}
		}
	}
}

func TestOrganizationGuardOneStrangerAmongMany(t *testing.T) {
	t.Parallel()
	records := []string{
		`{"_id":"m-1","organization_id":"org-a","email":"a@example.com"}`,
		`{"_id":"m-2","email":"b@example.com"}`,                                              // absent: passes
		`{"_id":"m-3","organization_id":null,"email":"c@example.com"}`,                       // null: passes
		`{"_id":"m-4","organization_id":"org-b\n` + testToken + `","email":"d@example.com"}`, // another, with a newline, echoing the token
		`{"_id":"m-5","organization_id":"org-c","email":"e@example.com"}`,                    // another
	}
	c := newClient(t, Config{BaseURL: serveOnePage(t, records).URL, Token: testToken, OrganizationID: "org-a"})
	_, err := c.MembershipSummaries(context.Background(), MembershipQuery{})
	var orgErr *OrganizationError
	if !errors.As(err, &orgErr) {
		t.Fatalf("got %v, want an *OrganizationError", err)
	}
	if orgErr.RecordID != "m-4" || !strings.HasPrefix(orgErr.Got, "org-b") || orgErr.Count != 2 {
		t.Fatalf("got %+v, want record m-4 of org-b first, two records", orgErr)
	}
	if strings.Contains(err.Error(), "\n") {
		t.Fatalf("server text reached the message unescaped: %q", err.Error())
	}
	if strings.Contains(err.Error(), testToken) || !strings.Contains(err.Error(), "2 records in all") {
		t.Fatalf("the message should count 2 strangers and not hold the token: %s", err)
	}

	// Absent and null organization_id pass.
	c = newClient(t, Config{BaseURL: serveOnePage(t, records[:3]).URL, Token: testToken, OrganizationID: "org-a"})
	ms, err := c.MembershipSummaries(context.Background(), MembershipQuery{})
	if err != nil || len(ms) != 3 {
		t.Fatalf("got %d records and %v, want 3 and no error", len(ms), err)
	}
}

// serveOnePage serves the records as page 1 of a count-style list.
func serveOnePage(t *testing.T, records []string) *fakeAPI {
	page := []byte("[" + strings.Join(records, ",") + "]")
	return newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page == 1 {
			writeJSON(w, page)
			return
		}
		writeJSON(w, []byte("[]"))
	})
}

// A record of another organization is caught even when its id was read
// before and the copy is dropped as a duplicate.
func TestOrganizationGuardSeesDuplicates(t *testing.T) {
	t.Parallel()
	pages := map[int]string{
		1: `[{"_id":"m-1","organization_id":"org-a"}]`,
		2: `[{"_id":"m-1","organization_id":"org-b"},{"_id":"m-2","organization_id":"org-a"}]`,
	}
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		body, ok := pages[a.page]
		if !ok {
			body = "[]"
		}
		writeJSON(w, []byte(body))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, OrganizationID: "org-a"})
	_, err := c.MembershipSummaries(context.Background(), MembershipQuery{})
	var orgErr *OrganizationError
	if !errors.As(err, &orgErr) || orgErr.Got != "org-b" || orgErr.RecordID != "m-1" {
		t.Fatalf("got %v, want the duplicate m-1 of org-b refused", err)
	}
}

// Organizations that differ only in white space, an invisible character
// or a letter that looks alike are shown so that the difference shows.
func TestOrganizationGuardShowsInvisibleDifferences(t *testing.T) {
	t.Parallel()
	for got, want := range map[string]string{
		" org-1 ":      `" org-1 "`,
		"org-1\u00a0":  `"org-1\u00a0"`,
		"org-1\u200b":  `"org-1\u200b"`,
		"org-1\t":      `"org-1\t"`,
		"\u043erg-1":   `"\u043erg-1"`, // a Cyrillic о
		"org-2":        `"org-2"`,
		"org-1\n\x1b[": `"org-1\n\x1b["`,
	} {
		e := &OrganizationError{Endpoint: "memberships", Want: "org-1", Got: got}
		msg := e.Error()
		if !strings.Contains(msg, "belongs to organization "+want+", not to \"org-1\"") {
			t.Errorf("%q: %s\nwant it to show %s", got, msg, want)
		}
	}
}

// End to end: the organization a record names is kept as sent (only the
// token taken out), so the message shows its white space.
func TestOrganizationGuardKeepsTheRecordsOrganizationAsSent(t *testing.T) {
	t.Parallel()
	records := []string{`{"_id":"m-1","organization_id":" org-a\u00a0` + testToken + `"}`}
	c := newClient(t, Config{BaseURL: serveOnePage(t, records).URL, Token: testToken, OrganizationID: "org-a"})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	if err == nil || !strings.Contains(err.Error(), `belongs to organization " org-a\u00a0`) || strings.Contains(err.Error(), testToken) {
		t.Fatalf("got %v, want the organization as sent, less the token", err)
	}
}
