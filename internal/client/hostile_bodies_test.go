package client

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

func TestNonJSONPage(t *testing.T) {
	t.Parallel()
	for _, page := range []int{1, 3} {
		sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 50, OrgMetrics: 50, Faults: sandbox.Faults{NonJSONPage: page}})
		c := newClient(t, Config{BaseURL: base})
		ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
		if ms != nil {
			t.Fatal("partial result")
		}
		requirePageError(t, err, "memberships", page)
		// The sandbox's page says text/html: a web page, most often a base
		// URL of the web site; the error says so, and names the setting.
		if !strings.Contains(err.Error(), "is a web page (text/html), not the API's JSON") || !strings.Contains(err.Error(), "check that Config.BaseURL names the API (unset, it is https://app.joinitapi.com)") ||
			strings.Contains(err.Error(), "DOCTYPE") {
			t.Fatalf("error does not say the answer is a web page and name the base URL, or quotes it: %v", err)
		}
		// Page 1 a web page is asked again twice, not the five retries of a
		// server error; past page 1 (the base URL served page 1) it is one.
		asked := 0
		for _, r := range sb.RequestLog() {
			if r.Endpoint == "memberships" && r.Query.Get("page") == strconv.Itoa(page) {
				asked++
			}
		}
		if want := map[int]int{1: 3, 3: 1 + DefaultMaxRetries}[page]; asked != want {
			t.Errorf("the web page at page %d was asked %d times, want %d", page, asked, want)
		}
		om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 10})
		if om != nil {
			t.Fatal("partial result")
		}
		requirePageError(t, err, "org_metrics", page)
		// A 200 with a bad body is not retried.
		for _, r := range sb.RequestLog() {
			if r.Query.Get("page") == "1" && page != 1 && r.Status != 200 {
				t.Fatalf("unexpected %+v", r)
			}
		}
	}
}

func TestTruncatedPage(t *testing.T) {
	t.Parallel()
	_, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 30, Payments: 30, Groups: 30, OrgMetrics: 30, Faults: sandbox.Faults{TruncatedPage: 2}})
	c := newClient(t, Config{BaseURL: base})
	ctx := context.Background()
	opts := ListOptions{PageSize: 10}
	ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: opts})
	if ms != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "memberships", 2)
	_, err = c.Payments(ctx, opts)
	requirePageError(t, err, "payments", 2)
	_, err = c.Groups(ctx, opts)
	requirePageError(t, err, "groups", 2)
	_, err = c.OrgMetrics(ctx, opts)
	requirePageError(t, err, "org_metrics", 2)
}

func TestBodyOverCap(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 40})
	c := newClient(t, Config{BaseURL: base, MaxBodyBytes: 4096})
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if ms != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "memberships", 1)
	if !strings.Contains(err.Error(), "larger than 4096 bytes") {
		t.Fatalf("error %v", err)
	}
	if n := sb.Requests("memberships"); n != 1 {
		t.Fatalf("an oversized body was retried: %d requests", n)
	}
	// Without a Content-Length (chunked), the cap holds while reading.
	chunked := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("["))
		w.(http.Flusher).Flush()
		_, _ = w.Write([]byte(strings.Repeat(`{"_id":"x"},`, 1000) + `{"_id":"y"}]`))
	})
	c4 := newClient(t, Config{BaseURL: chunked.URL, Token: testToken, MaxBodyBytes: 4096})
	_, err = c4.Memberships(context.Background(), MembershipQuery{})
	requirePageError(t, err, "memberships", 1)
	if !strings.Contains(err.Error(), "larger than 4096 bytes") || chunked.count() != 1 {
		t.Fatalf("chunked body over the cap: %v after %d requests", err, chunked.count())
	}
	// A body at the cap exactly is fine.
	body := testutil.ArrayOf(syntheticIDs(3))
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, body) })
	c2 := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxBodyBytes: int64(len(body))})
	if ms, err := c2.Memberships(context.Background(), MembershipQuery{}); err != nil || len(ms) != 3 {
		t.Fatalf("%d, %v", len(ms), err)
	}
	c3 := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxBodyBytes: int64(len(body) - 1)})
	if _, err := c3.Memberships(context.Background(), MembershipQuery{}); err == nil {
		t.Fatal("one byte over the cap accepted")
	}
}

func TestHostileCountBodies(t *testing.T) {
	t.Parallel()
	for _, tc := range hostileCountBodies {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The hostile body comes on page 2, after a good full page 1, so a
			// partial list would be possible.
			api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
				if a.page == 1 {
					writeJSON(w, testutil.ArrayOf([]string{"p1-a", "p1-b"}))
					return
				}
				writeJSON(w, []byte(tc.body))
			})
			c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
			ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 2}})
			if ms != nil {
				t.Fatalf("partial list of %d records with error %v", len(ms), err)
			}
			requirePageError(t, err, "memberships", 2)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestHostileMetadataBodies(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, body, want string }{
		{"array", `[{"metric_period_key":1}]`, "expected a JSON object, got a JSON array"},
		{"html", `<!doctype html><p>hi</p>`, "not JSON"},
		{"no totalPages", `{"results":[],"page":1,"limit":100}`, "no totalPages"},
		{"no page", `{"results":[],"limit":100,"totalPages":0}`, "no page number"},
		{"no results", `{"page":1,"limit":100,"totalPages":0}`, "no results array"},
		{"results object", `{"results":{},"page":1,"limit":100,"totalPages":1}`, "expected a JSON array"},
		{"results of numbers", `{"results":[1],"page":1,"limit":100,"totalPages":1}`, "results: record 1: expected a JSON object"},
		{"totalPages 0 with results", `{"results":[{"metric_period_key":1}],"page":1,"limit":100,"totalPages":0}`, "totalPages is 0 but the page holds 1 results"},
		{"negative totalPages", `{"results":[],"page":1,"limit":100,"totalPages":-2}`, "negative"},
		{"totalPages string", `{"results":[],"page":1,"limit":100,"totalPages":"3"}`, `field "totalPages"`},
		{"wrong field type", `{"results":[{"active_memberships":"12"}],"page":1,"limit":100,"totalPages":1}`, `field "active_memberships"`},
		{"trailing garbage", `{"results":[],"page":1,"limit":100,"totalPages":0}xx`, "malformed"},
		{"truncated", `{"results":[{"metric_period_key":1}],"pa`, "truncated"},
		{"wrong page", `{"results":[],"page":2,"limit":100,"totalPages":0}`, "answered page 2 when page 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, []byte(tc.body)) })
			c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
			om, err := c.OrgMetrics(context.Background(), ListOptions{})
			if om != nil {
				t.Fatalf("result with error %v", err)
			}
			requirePageError(t, err, "org_metrics", 1)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
			// A 200 that is not a page is retried, as a 5xx is (the answer
			// of a moment: a maintenance page, a cut body); a page that
			// names another page is a server not advancing, not retried.
			attempts := 1 + DefaultMaxRetries
			if errors.Is(err, failure.ErrNotAdvancing) {
				attempts = 1
			} else if !strings.Contains(err.Error(), "is not a page") {
				t.Fatalf("error %q does not say the answer is not a page", err)
			}
			if api.count() != attempts {
				t.Fatalf("%d requests, want %d", api.count(), attempts)
			}
		})
	}
}

// A field of the wrong type: the message names the field, what came and
// what was expected, in JSON terms.
func TestWrongFieldTypeMessage(t *testing.T) {
	t.Parallel()
	cases := []struct{ body, field, got, want string }{
		{`[{"_id":"a","status":"100"}]`, `"status"`, "string", "integer"},
		{`[{"_id":"a","email":5}]`, `"email"`, "number", "string"},
		{`[{"_id":"a","status":true}]`, `"status"`, "boolean", "integer"},
		{`[{"_id":"a","display_name":{"x":1}}]`, `"display_name"`, "object", "string"},
		{`[{"_id":"a","joined":[1]}]`, `"joined"`, "array", "string"},
	}
	for _, tc := range cases {
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, []byte(tc.body)) })
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
		_, err := c.Memberships(context.Background(), MembershipQuery{})
		requirePageError(t, err, "memberships", 1)
		msg := err.Error()
		i := strings.Index(msg, "field "+tc.field)
		if i < 0 {
			t.Errorf("%s: message %q does not name field %s", tc.body, msg, tc.field)
			continue
		}
		rest := msg[i:]
		gi, wi := strings.Index(rest, tc.got), strings.LastIndex(rest, tc.want)
		if gi < 0 || wi < 0 || gi > wi {
			t.Errorf("%s: message %q should say it got a %s and wanted a %s", tc.body, msg, tc.got, tc.want)
		}
		if strings.Contains(msg, "int64") || strings.Contains(msg, "Go struct") {
			t.Errorf("%s: message %q speaks Go, not JSON", tc.body, msg)
		}
	}
}

// A hostile page after good ones in a metadata read: nothing is returned.
func TestHostileMetadataLaterPage(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page == 3 {
			writeJSON(w, []byte(`{"results":[{"metric_period_key":"x"}],"page":3,"limit":1,"totalPages":4}`))
			return
		}
		writeJSON(w, metadataBody(a.page, 1, 4, a.page))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 1})
	if om != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "org_metrics", 3)
}

// A 200 with a non-JSON content type but a good JSON body is used: the
// body decides, not the header.
func TestContentTypeIsNotTrusted(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write(testutil.ArrayOf([]string{"a"}))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	if ms, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil || len(ms) != 1 {
		t.Fatalf("%d, %v", len(ms), err)
	}
}

// A JSON null where a list is expected is an empty list: servers that
// encode an empty slice send it (Go's encoding/json does). It ends a read
// like an empty page; an absent results array is still an error.
func TestNullIsAnEmptyList(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(5)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		switch {
		case strings.HasSuffix(a.path, "/org_metrics"):
			writeJSON(w, []byte(`{"results":null,"page":1,"limit":100,"totalPages":0}`))
		case strings.HasSuffix(a.path, "/groups"):
			writeJSON(w, []byte(" null\n"))
		case a.page == 1:
			writeJSON(w, testutil.ArrayOf(ids[:3]))
		case a.page == 2:
			writeJSON(w, testutil.ArrayOf(ids[3:]))
		default:
			writeJSON(w, []byte("null"))
		}
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 3}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)
	gs, err := c.Groups(context.Background(), ListOptions{})
	if err != nil || len(gs) != 0 {
		t.Fatalf("groups: %d, %v", len(gs), err)
	}
	om, err := c.OrgMetrics(context.Background(), ListOptions{})
	if err != nil || len(om.Results) != 0 || om.TotalPages != 0 {
		t.Fatalf("org metrics: %+v, %v", om, err)
	}
}
