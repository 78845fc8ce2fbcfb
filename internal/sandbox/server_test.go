package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

func TestDefaultPaths(t *testing.T) {
	t.Parallel()
	want := Paths{
		EndpointMemberships: "/api/v1/organizations/me/memberships",
		EndpointPayments:    "/api/v1/organizations/me/payments",
		EndpointGroups:      "/api/v1/organizations/me/groups",
		EndpointOrgMetrics:  "/api/v1/organizations/me/org_metrics",
	}
	// Endpoints added later are apispec's rows, with paths of their own.
	if got := DefaultPaths(); !maps.Equal(got, apispec.DefaultPaths()) || len(got) != len(apispec.Endpoints) {
		t.Fatalf("DefaultPaths() = %+v, want apispec's, one per endpoint", got)
	}
	for name, path := range want {
		if DefaultPaths()[name] != path {
			t.Errorf("DefaultPaths()[%s] = %q, want %q", name, DefaultPaths()[name], path)
		}
	}
}

func TestAuth(t *testing.T) {
	t.Parallel()
	_, base := StartForTest(t, Options{Seed: 1, Memberships: 5, Token: "s3cret-token"})
	u := base + DefaultPaths()[EndpointMemberships]
	tests := []struct {
		name   string
		header string // Authorization value; "" means none
		query  string
		want   int
	}{
		{"missing", "", "", 401},
		{"wrong token", "Bearer nope", "", 401},
		{"default token is not accepted when another is set", "Bearer " + DefaultToken, "", 401},
		{"token without scheme", "s3cret-token", "", 401},
		{"basic scheme", "Basic s3cret-token", "", 401},
		{"empty bearer", "Bearer ", "", 401},
		{"legacy query token", "", "?token=s3cret-token", 401},
		{"prefix of the token", "Bearer s3cret", "", 401},
		{"valid", "Bearer s3cret-token", "", 200},
		{"scheme is case-insensitive", "bEaReR s3cret-token", "", 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req, _ := http.NewRequest(http.MethodGet, u+tc.query, nil)
			if tc.header != "" {
				req.Header.Set("Authorization", tc.header)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body bytes.Buffer
			body.ReadFrom(resp.Body)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d", resp.StatusCode, tc.want)
			}
			if tc.want != 401 {
				return
			}
			var e struct{ Error, Message string }
			if err := json.Unmarshal(body.Bytes(), &e); err != nil || e.Error != "unauthorized" || e.Message == "" {
				t.Fatalf("401 body %s", body.Bytes())
			}
			if strings.Contains(body.String(), "s3cret") || !strings.HasPrefix(resp.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Fatalf("401 echoes the token or lacks WWW-Authenticate: %s", body.Bytes())
			}
		})
	}
	t.Run("default token", func(t *testing.T) {
		t.Parallel()
		_, base := StartForTest(t, Options{Memberships: 1})
		if r := get(t, base, DefaultPaths()[EndpointGroups], nil); r.status != 200 {
			t.Fatalf("status %d with DefaultToken", r.status)
		}
	})
}

func TestRouting(t *testing.T) {
	t.Parallel()
	custom := Paths{EndpointGroups: "/v2/teams"}
	s := New(Options{Seed: 1, Memberships: 3, Groups: 2, PathPrefix: "/proxy/", Paths: custom})
	tests := []struct {
		method, path string
		want         int
	}{
		{"GET", "/proxy" + DefaultPaths()[EndpointMemberships], 200},
		{"GET", "/proxy" + DefaultPaths()[EndpointOrgMetrics], 200},
		{"GET", "/proxy/v2/teams", 200},
		{"GET", DefaultPaths()[EndpointMemberships], 404}, // the prefix is required
		{"GET", "/proxy" + DefaultPaths()[EndpointGroups], 404},
		{"GET", "/proxy/api/v1/organizations/me/checkins", 404},
		{"GET", "/", 404},
		{"GET", "/proxy" + DefaultPaths()[EndpointMemberships] + "/", 404},
		{"POST", "/proxy" + DefaultPaths()[EndpointMemberships], 405},
		{"DELETE", "/proxy/v2/teams", 405},
		{"HEAD", "/proxy/v2/teams", 405},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			t.Parallel()
			req := httptest.NewRequest(tc.method, tc.path, nil)
			req.Header.Set("Authorization", "Bearer "+DefaultToken)
			w := httptest.NewRecorder()
			s.ServeHTTP(w, req)
			if w.Code != tc.want {
				t.Fatalf("status %d, want %d", w.Code, tc.want)
			}
			if tc.want != 200 && tc.method != "HEAD" && !json.Valid(w.Body.Bytes()) {
				t.Fatalf("error body is not JSON: %q", w.Body.Bytes())
			}
			if tc.want == 405 && w.Header().Get("Allow") != "GET" {
				t.Fatalf("405 without Allow: GET")
			}
		})
	}
}

func TestRequestCounting(t *testing.T) {
	t.Parallel()
	s, base := StartForTest(t, Options{Seed: 1, Memberships: 10, Payments: 3, Faults: Faults{ServerErrors: 1, OnlyPages: []int{2}}})
	get(t, base, DefaultPaths()[EndpointMemberships], q("page", "1"))
	get(t, base, DefaultPaths()[EndpointMemberships], q("page", "2")) // 503
	get(t, base, DefaultPaths()[EndpointMemberships], q("page", "2"))
	get(t, base, DefaultPaths()[EndpointMemberships], q("status", "bad")) // 400
	r, _ := getErr(context.Background(), http.DefaultClient, base+DefaultPaths()[EndpointPayments], q("token", DefaultToken), "")
	if r.status != 401 {
		t.Fatalf("unauthenticated payments: %d", r.status)
	}
	get(t, base, "/elsewhere", nil)

	// Counted as they arrive; logged once their handlers have returned,
	// which may be after the client has the answer.
	testutil.Eventually(t, "the six requests are logged", func() bool { return len(s.RequestLog()) == 6 })
	want := map[string]int{EndpointMemberships: 4, EndpointPayments: 1, EndpointGroups: 0, EndpointOrgMetrics: 0, "": 6, "bogus": 0}
	for ep, n := range want {
		if got := s.Requests(ep); got != n {
			t.Errorf("Requests(%q) = %d, want %d", ep, got, n)
		}
	}
	log := s.RequestLog()
	statuses := []int{}
	for _, rec := range log {
		statuses = append(statuses, rec.Status)
	}
	if got := statusesString(statuses); got != "200 503 200 400 401 404" {
		t.Fatalf("logged statuses %s", got)
	}
	if !log[0].Authorization || log[4].Authorization || log[0].Endpoint != EndpointMemberships || log[5].Endpoint != "" {
		t.Fatalf("log records %+v", log)
	}
	if log[1].Query.Get("page") != "2" {
		t.Fatalf("logged query %v", log[1].Query)
	}
	if tok := log[4].Query.Get("token"); tok != "REDACTED" {
		t.Fatalf("logged a credential: token=%q", tok)
	}

	s.ResetCounters()
	if s.Requests("") != 0 || s.Requests(EndpointMemberships) != 0 || len(s.RequestLog()) != 0 {
		t.Fatal("ResetCounters left counts")
	}
	// Fault attempts are not reset by ResetCounters: page 2 stays healthy.
	if r := get(t, base, DefaultPaths()[EndpointMemberships], q("page", "2")); r.status != 200 {
		t.Fatalf("page 2 after ResetCounters: %d", r.status)
	}
}

func statusesString(xs []int) string {
	var b strings.Builder
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(itoa(x))
	}
	return b.String()
}

func TestRequestLogIsBounded(t *testing.T) {
	t.Parallel()
	s := New(Options{})
	for i := range maxLog + 5 {
		req := httptest.NewRequest(http.MethodGet, "/x?i="+itoa(i), nil)
		s.ServeHTTP(httptest.NewRecorder(), req)
	}
	log := s.RequestLog()
	if len(log) != maxLog || log[0].Query.Get("i") != "5" || log[maxLog-1].Query.Get("i") != itoa(maxLog+4) {
		t.Fatalf("log of %d, first %v, last %v", len(log), log[0].Query, log[len(log)-1].Query)
	}
	if s.Requests("") != maxLog+5 {
		t.Fatalf("Requests = %d", s.Requests(""))
	}
}

func TestStartAndClose(t *testing.T) {
	t.Parallel()
	s, u := StartForTest(t, Options{Memberships: 1}) // and Close again when the test ends
	if !strings.HasPrefix(u, "http://127.0.0.1:") || s.Start() != u {
		t.Fatalf("Start() = %q", u)
	}
	s.Close()
	s.Close()
	if _, err := getErr(context.Background(), freshClient(), u+DefaultPaths()[EndpointMemberships], nil, DefaultToken); err == nil {
		t.Fatal("server still answers after Close")
	}
	New(Options{}).Close() // never started
}

func TestLogf(t *testing.T) {
	t.Parallel()
	var lines []string
	s := New(Options{Logf: func(f string, a ...any) { lines = append(lines, strings.TrimSpace(fmt.Sprintf(f, a...))) }})
	req := httptest.NewRequest(http.MethodGet, DefaultPaths()[EndpointGroups]+"?access_token=abc", nil)
	s.ServeHTTP(httptest.NewRecorder(), req)
	if len(lines) != 1 || strings.Contains(lines[0], "abc") || !strings.Contains(lines[0], "401") {
		t.Fatalf("log lines %q", lines)
	}
}
