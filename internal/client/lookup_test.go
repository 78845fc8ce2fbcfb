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

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// lookupRecords: an e-mail held twice in two spellings (one person's two
// memberships), one held once, a null e-mail and a null id, external ids.
var lookupRecords = []string{
	`{"_id":"m1","email":"Ana@Example.com","external_id":"X-1","status":100}`,
	`{"_id":"m2","email":null,"external_id":"X-2","status":300}`,
	`{"_id":"m3","email":"ana@example.COM","external_id":null,"status":300}`,
	`{"_id":"m4","email":"bo@example.com","external_id":"X-4","status":100}`,
	`{"_id":null,"email":"nobody@example.com"}`,
}

func TestLookupMembershipByEachKey(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, serveRecords(lookupRecords))
	c := newClient(t, Config{BaseURL: api.URL, MaxConcurrency: 1})
	for _, tc := range []struct {
		key   MembershipKey
		value string
		want  []string
	}{
		{ByID, "m2", []string{"m2"}},
		{ByID, "M2", nil}, // ids are compared exactly
		{ByEmail, "ANA@example.com", []string{"m1", "m3"}},
		{ByEmail, "bo@example.com", []string{"m4"}},
		{ByEmail, "bo@example.co", nil},
		{ByEmail, " Bo@Example.com\t", []string{"m4"}}, // pasted with spaces around it
		{ByExternalID, " X-4", nil},                    // an external id is compared exactly
		{ByEmail, "nobody@example.com", []string{""}},  // a record without id is found all the same
		{ByExternalID, "X-4", []string{"m4"}},
		{ByExternalID, "x-4", nil},
	} {
		got, err := c.LookupMembership(context.Background(), MembershipQuery{}, tc.key, tc.value)
		if err != nil {
			t.Fatalf("%v %q: %v", tc.key, tc.value, err)
		}
		if got.Read != len(lookupRecords) {
			t.Errorf("%v %q: looked among %d, want %d", tc.key, tc.value, got.Read, len(lookupRecords))
		}
		equalIDs(t, fmt.Sprintf("%v %q", tc.key, tc.value), membershipIDs(got.Matches), tc.want)
	}
	if n, want := api.count(), expectedRequests(len(lookupRecords), 1000); n != want {
		t.Errorf("%d requests for ten lookups of one query, want the %d of one read", n, want)
	}
	if _, err := c.LookupMembership(context.Background(), MembershipQuery{}, MembershipKey(7), "x"); err == nil {
		t.Error("a lookup by an unknown key succeeded")
	}
}

// The status filter is the read's: a lookup under it finds nothing of
// another status, and reads the list again (another query).
func TestLookupMembershipUnderStatus(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, serveRecords(lookupRecords))
	c := newClient(t, Config{BaseURL: api.URL, MaxConcurrency: 1})
	got, err := c.LookupMembership(context.Background(), MembershipQuery{Status: int64Ptr(100)}, ByEmail, "ana@example.com")
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "status 100", membershipIDs(got.Matches), []string{"m1"})
	if got.Read != 2 {
		t.Errorf("looked among %d, want the 2 of status 100", got.Read)
	}
	for _, a := range api.log() {
		if a.query.Get("status") != "100" {
			t.Errorf("page asked without the status filter: %v", a.query)
		}
	}
}

// Lookups and a list read of the same query, all at once, over a list the
// cache would not keep: one read between them, and the index stays for
// the lookups that come after.
func TestLookupsShareOneReadWithTheList(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(2500)
	api := newFakeAPI(t, serveList(ids))
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	c.cache.retainUpTo = 100
	q := MembershipQuery{ListOptions: ListOptions{PageSize: 1000}}
	var wg sync.WaitGroup
	errs := make(chan error, 60)
	wg.Add(1)
	go func() {
		defer wg.Done()
		ms, err := c.Memberships(context.Background(), q)
		if err == nil && len(ms) != len(ids) {
			err = fmt.Errorf("the list read %d records, want %d", len(ms), len(ids))
		}
		errs <- err
	}()
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- lookupOne(c, q, ids[i*50])
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	want := expectedRequests(len(ids), 1000)
	if n := api.count(); n != want {
		t.Fatalf("%d requests for a list read and 50 lookups, want the %d of one read", n, want)
	}
	// Later lookups use the index kept, though the list is over retainUpTo.
	for _, id := range ids[len(ids)-10:] {
		if err := lookupOne(c, q, id); err != nil {
			t.Fatal(err)
		}
	}
	if n := api.count(); n != want {
		t.Fatalf("later lookups read the list again: %d requests, want %d", n, want)
	}
	// And so does a later list read of the same query: the index holds
	// the list, so it is kept too.
	ms, err := c.Memberships(context.Background(), q)
	if err != nil || len(ms) != len(ids) {
		t.Fatalf("later list read: %d records, %v", len(ms), err)
	}
	if n := api.count(); n != want {
		t.Fatalf("a list read after the lookups read the list again: %d requests, want %d", n, want)
	}
}

// A list read that ends before any lookup starts is not kept (over
// retainUpTo): the first lookup reads again, and from then on the list is
// kept for both.
func TestLookupAfterAFinishedLargeListRead(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(1500)
	api := newFakeAPI(t, serveList(ids))
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	c.cache.retainUpTo = 100
	q := MembershipQuery{ListOptions: ListOptions{PageSize: 1000}}
	one := expectedRequests(len(ids), 1000)
	for i, step := range []func() error{
		func() error { _, err := c.Memberships(context.Background(), q); return err },
		func() error { return lookupOne(c, q, ids[1400]) },
		func() error { _, err := c.Memberships(context.Background(), q); return err },
		func() error { return lookupOne(c, q, ids[3]) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
		if want := min(i+1, 2) * one; api.count() != want {
			t.Fatalf("after step %d: %d requests, want %d", i+1, api.count(), want)
		}
	}
}

func lookupOne(c *Client, q MembershipQuery, id string) error {
	got, err := c.LookupMembership(context.Background(), q, ByID, id)
	if err == nil && (len(got.Matches) != 1 || *got.Matches[0].ID != id) {
		err = fmt.Errorf("lookup of %s found %v", id, membershipIDs(got.Matches))
	}
	return err
}

// A failed read is not kept: the next lookup reads again.
func TestLookupMembershipFailureIsNotKept(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	failing := true
	serve := serveRecords(lookupRecords)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		mu.Lock()
		f := failing
		mu.Unlock()
		if f {
			http.Error(w, `{"message":"no"}`, http.StatusForbidden)
			return
		}
		serve(w, r, a)
	})
	c := newClient(t, Config{BaseURL: api.URL, MaxConcurrency: 1})
	_, err := c.LookupMembership(context.Background(), MembershipQuery{}, ByID, "m1")
	var apiErr *failure.APIError
	if !errors.As(err, &apiErr) {
		t.Fatalf("got %v, want the API's refusal", err)
	}
	mu.Lock()
	failing = false
	mu.Unlock()
	if err := lookupOne(c, MembershipQuery{}, "m1"); err != nil {
		t.Fatal(err)
	}
}

// serveRecords serves recs as the memberships list, paged as asked, with
// the status filter applied.
func serveRecords(recs []string) func(w http.ResponseWriter, r *http.Request, a arrival) {
	return func(w http.ResponseWriter, _ *http.Request, a arrival) {
		var kept []string
		for _, rec := range recs {
			var m struct{ Status *int64 }
			if err := json.Unmarshal([]byte(rec), &m); err != nil {
				panic(err)
			}
			if s := a.query.Get("status"); s == "" || m.Status != nil && fmt.Sprint(*m.Status) == s {
				kept = append(kept, rec)
			}
		}
		from := min((a.page-1)*a.size, len(kept))
		writeJSON(w, []byte("["+strings.Join(kept[from:min(from+a.size, len(kept))], ",")+"]"))
	}
}
