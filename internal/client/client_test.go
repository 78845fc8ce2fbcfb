package client

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestBearerTokenOnEveryRequest(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Token: testToken, Memberships: 25, Payments: 9, Groups: 4, OrgMetrics: 7})
	c := newClient(t, Config{BaseURL: base, Token: testToken, MaxConcurrency: 3})
	ctx := context.Background()
	if _, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 4}}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Payments(ctx, ListOptions{PageSize: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Groups(ctx, ListOptions{PageSize: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.OrgMetrics(ctx, ListOptions{PageSize: 2}); err != nil {
		t.Fatal(err)
	}
	log := sb.RequestLog()
	if len(log) < 20 {
		t.Fatalf("only %d requests logged", len(log))
	}
	for i, r := range log {
		if !r.Authorization || r.Status != http.StatusOK {
			t.Fatalf("request %d (%s %v): authorized=%v status=%d", i, r.Endpoint, r.Query, r.Authorization, r.Status)
		}
		for k := range r.Query {
			if strings.Contains(strings.ToLower(k), "token") {
				t.Fatalf("request %d carries a token query parameter %q", i, k)
			}
		}
	}
}

func TestExactAuthorizationHeader(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, serveList(syntheticIDs(5)))
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	if _, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 2}}); err != nil {
		t.Fatal(err)
	}
	log := api.log()
	if len(log) != expectedRequests(5, 2) {
		t.Fatalf("%d requests, want %d", len(log), expectedRequests(5, 2))
	}
	for _, a := range log {
		if a.auth != "Bearer "+testToken {
			t.Fatalf("page %d: Authorization %q", a.page, a.auth)
		}
		if a.query.Has("token") || a.query.Has("access_token") {
			t.Fatalf("page %d: token in the query %v", a.page, a.query)
		}
	}
}

func TestWrongTokenIs401WithoutTheToken(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 5, OrgMetrics: 2})
	const wrong = "wrong-token-9c1e-DO-NOT-PRINT"
	c := newClient(t, Config{BaseURL: base, Token: wrong})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	ae := requireAPIError(t, err, http.StatusUnauthorized)
	if ae.Endpoint != "memberships" || ae.Page != 1 {
		t.Fatalf("failure.APIError names %s page %d", ae.Endpoint, ae.Page)
	}
	if !strings.Contains(err.Error(), "token was refused") {
		t.Fatalf("message does not say the token was refused: %v", err)
	}
	if strings.Contains(err.Error(), wrong) {
		t.Fatalf("message contains the token: %v", err)
	}
	if ae.Attempts != 1 || sb.Requests("memberships") != 1 {
		t.Fatalf("401 was retried: attempts %d, requests %d", ae.Attempts, sb.Requests("memberships"))
	}
	_, err = c.OrgMetrics(context.Background(), ListOptions{})
	requireAPIError(t, err, http.StatusUnauthorized)
	if strings.Contains(err.Error(), wrong) {
		t.Fatalf("message contains the token: %v", err)
	}
}

// An error shows what the API said in its JSON body, with the token
// removed, and nothing else of the body; a refusal of the token, nothing.
func TestEchoedTokenIsRedactedFromWhatTheAPISaid(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden, http.StatusBadRequest, http.StatusInternalServerError} {
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_, _ = w.Write([]byte(`{"error":"bad token ` + strings.TrimPrefix(a.auth, "Bearer ") + `","got":"` + strings.TrimPrefix(a.auth, "Bearer ") + `","header":"` + a.auth + `"}`))
		})
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxRetries: 1})
		_, err := c.Memberships(context.Background(), MembershipQuery{})
		ae := requireAPIError(t, err, status)
		if strings.Contains(err.Error(), testToken) || strings.Contains(err.Error(), `"got"`) {
			t.Fatalf("HTTP %d: the error holds the token or the body: %v", status, err)
		}
		refused := status == http.StatusUnauthorized || status == http.StatusForbidden
		if refused && ae.Message != "" {
			t.Fatalf("HTTP %d: message %q; a refusal of the token gets none", status, ae.Message)
		}
		if !refused && ae.Message != "bad token [redacted]" {
			t.Fatalf("HTTP %d: message %q, want the API's error with the token redacted", status, ae.Message)
		}
	}
}

func TestRedirectToAnotherHostIsRefused(t *testing.T) {
	t.Parallel()
	other := newFakeAPI(t, serveList(syntheticIDs(3)))
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		http.Redirect(w, r, other.URL+r.URL.RequestURI(), http.StatusFound)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	if err == nil {
		t.Fatal("the read followed a redirect to another host")
	}
	requirePageError(t, err, "memberships", 1)
	var re *transport.RedirectError
	if !errors.As(err, &re) {
		t.Fatalf("error does not wrap the redirect refusal: %v", err)
	}
	for _, want := range []string{"redirected to another host", "token", "Config.BaseURL"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	for _, a := range other.log() {
		if a.auth != "" {
			t.Fatalf("the other host received Authorization %q", a.auth)
		}
	}
	if n := other.count(); n != 0 {
		t.Fatalf("the other host received %d requests", n)
	}
	if n := api.count(); n != 1 {
		t.Fatalf("a refused redirect was retried: %d requests", n)
	}
}

func TestSameOriginRedirectIsFollowedWithToken(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(3)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if r.URL.Path == "/old/memberships" {
			http.Redirect(w, r, "/new/memberships?"+r.URL.RawQuery, http.StatusMovedPermanently)
			return
		}
		serveList(ids)(w, r, a)
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, Paths: Paths{apispec.EndpointMemberships: "/old/memberships"}})
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)
}
