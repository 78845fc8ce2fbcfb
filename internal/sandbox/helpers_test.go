package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// response is what a test needs from one answer.
type response struct {
	status int
	header http.Header
	body   []byte
}

// paramServer starts the parameter tests' server, one per test: more than
// 1000 memberships and payments so the count cap is observable, 230 org
// metrics for three pages at the largest limit.
func paramServer(t testing.TB) (*Server, string) {
	t.Helper()
	return StartForTest(t, Options{Seed: 7, Memberships: 1500, Payments: 1100, Groups: 30, OrgMetrics: 230})
}

// hangLimit bounds a test's own HTTP client: a limit on hangs, not a claim
// about speed (a loaded machine answers late, and still passes).
const hangLimit = time.Minute

// freshClient does not reuse connections, so a reset or a truncated body on
// one request cannot affect (or be retried by) another.
func freshClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: hangLimit}
}

// get sends one GET with the default token.
func get(t testing.TB, base, path string, q url.Values) response {
	t.Helper()
	r, err := getErr(context.Background(), http.DefaultClient, base+path, q, DefaultToken)
	if err != nil {
		t.Fatalf("GET %s?%s: %v", path, q.Encode(), err)
	}
	return r
}

func getErr(ctx context.Context, c *http.Client, u string, q url.Values, token string) (response, error) {
	if len(q) > 0 {
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return response{}, err
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := c.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	return response{status: resp.StatusCode, header: resp.Header, body: body}, nil
}

// q builds a query from key/value pairs.
func q(kv ...string) url.Values {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v
}

// decodeArray decodes a count-endpoint page into raw records.
func decodeArray(t testing.TB, r response) []json.RawMessage {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	var recs []json.RawMessage
	if err := json.Unmarshal(r.body, &recs); err != nil {
		t.Fatalf("body is not a JSON array: %v: %.200s", err, r.body)
	}
	if recs == nil {
		t.Fatalf("body is null, want an array: %s", r.body)
	}
	return recs
}

type metricsPage struct {
	Results    []json.RawMessage `json:"results"`
	Page       *int              `json:"page"`
	Limit      *int              `json:"limit"`
	TotalPages *int              `json:"totalPages"`
}

func decodeMetrics(t testing.TB, r response) metricsPage {
	t.Helper()
	if r.status != http.StatusOK {
		t.Fatalf("status %d, body %s", r.status, r.body)
	}
	var m metricsPage
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not the metadata object: %v: %.200s", err, r.body)
	}
	if m.Results == nil || m.Page == nil || m.Limit == nil || m.TotalPages == nil {
		t.Fatalf("metadata incomplete: %s", r.body)
	}
	return m
}

func equalRecords(a, b []json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

func itoa(n int) string { return strconv.Itoa(n) }

// paths is DefaultPaths by endpoint name, for table-driven tests.
var paths = map[string]string{
	EndpointMemberships: DefaultPaths()[EndpointMemberships],
	EndpointPayments:    DefaultPaths()[EndpointPayments],
	EndpointGroups:      DefaultPaths()[EndpointGroups],
	EndpointOrgMetrics:  DefaultPaths()[EndpointOrgMetrics],
}

// dataOf returns the server's records of an endpoint.
func dataOf(s *Server, ep string) []json.RawMessage {
	switch ep {
	case EndpointMemberships:
		return s.MembershipsJSON(nil)
	case EndpointPayments:
		return s.PaymentsJSON()
	case EndpointGroups:
		return s.GroupsJSON()
	default:
		return s.OrgMetricsJSON()
	}
}
