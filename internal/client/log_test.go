package client

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestLoggerSeesFetchesAndRetriesNeverTheToken(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Token: testToken, Memberships: 25, OrgMetrics: 3,
		Faults: sandbox.Faults{ServerErrors: 1, ServerErrorStatus: 502, OnlyPages: []int{2}}})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: base, Token: testToken, Logger: log, MaxConcurrency: 1})
	ctx := context.Background()
	if _, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 10}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.OrgMetrics(ctx, ListOptions{}); err != nil {
		t.Fatal(err)
	}

	// One fetch event per page served, with method, URL and status.
	fetched := log.find("fetched page")
	if len(fetched) != sb.Requests("")-1 { // the 502 is not a fetched page
		t.Fatalf("%d fetch events for %d requests", len(fetched), sb.Requests(""))
	}
	for _, e := range fetched {
		if e.fields["method"] != http.MethodGet || e.fields["status"] != http.StatusOK {
			t.Fatalf("fetch event fields %v", e.fields)
		}
		u, _ := e.fields["url"].(string)
		// The page is a field of its own; the URL carries no query.
		if !strings.HasPrefix(u, base+"/api/v1/organizations/me/") || strings.Contains(u, "?") || e.fields["page"] == nil {
			t.Fatalf("fetch event url %q", u)
		}
	}

	// The retry of page 2: who retried, and why.
	retrying := log.find("retrying request")
	if len(retrying) != 1 {
		t.Fatalf("%d retry events, want 1", len(retrying))
	}
	r := retrying[0].fields
	if r["method"] != http.MethodGet || r["page"] != 2 || strings.Contains(fmt.Sprint(r["url"]), "?") || r["attempt"] != 2 {
		t.Fatalf("retry event %v", r)
	}
	backoff := log.find("backing off")
	if len(backoff) != 1 || backoff[0].fields["status"] != 502 || backoff[0].fields["page"] != 2 || strings.Contains(fmt.Sprint(backoff[0].fields["url"]), "?") {
		t.Fatalf("backoff events %v", backoff)
	}
	if len(log.find("read complete")) != 2 {
		t.Fatalf("read complete events: %v", log.find("read complete"))
	}
	assertNoToken(t, log, testToken)
}

func TestLoggerOnFailuresNeverTheToken(t *testing.T) {
	t.Parallel()
	// A server that echoes the token everywhere it can.
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		w.Header().Set("X-Echo", a.auth)
		if a.page == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.Write([]byte(a.auth))
			return
		}
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(a.auth))
	})
	log := &recordingLogger{}
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, Logger: log, MaxRetries: 2})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	requireAPIError(t, err, http.StatusTooManyRequests)
	if strings.Contains(err.Error(), testToken) {
		t.Fatalf("error has the token: %v", err)
	}
	warns := log.find("API request failed")
	if len(warns) != 1 || warns[0].level != "warn" || warns[0].fields["status"] != 429 {
		t.Fatalf("warn events %v", warns)
	}
	if len(log.find("Retry-After")) == 0 {
		t.Fatal("the Retry-After pause was not logged")
	}
	assertNoToken(t, log, testToken)
}

func assertNoToken(t *testing.T, log *recordingLogger, token string) {
	t.Helper()
	entries := log.all()
	if len(entries) == 0 {
		t.Fatal("nothing logged")
	}
	for _, e := range entries {
		if strings.Contains(e.msg, token) {
			t.Fatalf("log message has the token: %q", e.msg)
		}
		for k, v := range e.fields {
			if strings.Contains(k, token) || strings.Contains(fmt.Sprintf("%v", v), token) || strings.Contains(fmt.Sprintf("%#v", v), token) {
				t.Fatalf("log field %s has the token: %v", k, v)
			}
		}
	}
}
