package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// testToken is the token of the hand-written test servers. It is unusual
// enough that finding it anywhere in an error or a log line is a leak.
const testToken = "tok-3f9a-SECRET-b71c-e2d0"

// questionsAsked is every question the sandbox was asked, as "page P count
// C" (or "page P limit L"), sorted. It waits until every request that
// arrived has been answered and logged (the sandbox logs a request once its
// answer is written, which can be after the client has read it), so a test
// sees the whole of what was asked rather than what happened to be logged.
// A request that the client cancelled before it reached the server was never
// asked, and is not here. For reads of fewer than the sandbox's 10,000 logged
// requests (RequestLog keeps no more).
func questionsAsked(t testing.TB, sb *sandbox.Server) []string {
	t.Helper()
	var log []sandbox.RequestRecord
	testutil.Eventually(t, "every request that arrived logged", func() bool {
		log = sb.RequestLog()
		return len(log) == sb.Requests("")
	})
	out := make([]string, len(log))
	for i, r := range log {
		size := "count " + r.Query.Get("count")
		if r.Query.Has("limit") {
			size = "limit " + r.Query.Get("limit")
		}
		out[i] = "page " + r.Query.Get("page") + " " + size
	}
	slices.Sort(out)
	return out
}

// newClient builds a client with fast retries; fields set in cfg win.
func newClient(t testing.TB, cfg Config) *Client {
	t.Helper()
	if cfg.Token == "" {
		cfg.Token = sandbox.DefaultToken
	}
	if cfg.RetryWaitMin == 0 {
		cfg.RetryWaitMin = time.Millisecond
	}
	if cfg.RetryWaitMax == 0 {
		cfg.RetryWaitMax = 10 * time.Millisecond
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	t.Cleanup(c.transport.CloseIdle)
	return c
}

// arrival is one request a fake API received.
type arrival struct {
	seq   int // the request's number at the server, from 1
	at    time.Time
	path  string
	page  int
	size  int
	auth  string
	query url.Values
}

// fakeAPI is an API driven by a per-request function, which records every
// request it receives before answering: on loopback (newFakeAPI), or in
// process for a test on synctest's clock (newFakeAPIInProcess).
type fakeAPI struct {
	URL      string
	h        func(w http.ResponseWriter, r *http.Request, a arrival)
	mu       sync.Mutex
	arrivals []arrival
}

func newFakeAPI(t testing.TB, h func(w http.ResponseWriter, r *http.Request, a arrival)) *fakeAPI {
	t.Helper()
	f := &fakeAPI{h: h}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	f.URL = srv.URL
	return f
}

// newFakeAPIInProcess is the same API served through inProcess{f}, with no
// socket: the client's Config.network for a test inside synctest.Test.
func newFakeAPIInProcess(h func(w http.ResponseWriter, r *http.Request, a arrival)) *fakeAPI {
	return &fakeAPI{URL: inProcessURL, h: h}
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	a := arrival{at: time.Now(), path: r.URL.Path, auth: r.Header.Get("Authorization"), query: q}
	a.page, _ = strconv.Atoi(q.Get("page"))
	if v := q.Get("count"); v != "" {
		a.size, _ = strconv.Atoi(v)
	} else {
		a.size, _ = strconv.Atoi(q.Get("limit"))
	}
	f.mu.Lock()
	a.seq = len(f.arrivals) + 1
	f.arrivals = append(f.arrivals, a)
	f.mu.Unlock()
	f.h(w, r, a)
}

func (f *fakeAPI) log() []arrival {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.arrivals)
}

func (f *fakeAPI) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.arrivals)
}

// pagesOf counts how many requests asked for each page.
func (f *fakeAPI) pagesOf() map[int]int {
	out := map[int]int{}
	for _, a := range f.log() {
		out[a.page]++
	}
	return out
}

// syntheticIDs returns m-0001 … m-n.
func syntheticIDs(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("m-%04d", i+1)
	}
	return out
}

// serveList answers count-style pages of ids, checking the token.
func serveList(ids []string) func(w http.ResponseWriter, r *http.Request, a arrival) {
	return func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.auth != "Bearer "+testToken {
			http.Error(w, `{"error":"unauthorized"}`, http.StatusUnauthorized)
			return
		}
		writeJSON(w, testutil.ArrayOf(testutil.PageOf(ids, a.page, a.size)))
	}
}

func writeJSON(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

// ids helpers

func membershipIDs(ms []Membership) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = deref(m.ID)
	}
	return out
}

func paymentIDs(ps []Payment) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = deref(p.ID)
	}
	return out
}

func groupIDs(gs []Group) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = deref(g.GroupID())
	}
	return out
}

// rawIDs reads the _id of each raw record.
func rawIDs(t testing.TB, raws []json.RawMessage) []string {
	t.Helper()
	out := make([]string, len(raws))
	for i, r := range raws {
		var v struct {
			ID string `json:"_id"`
		}
		if err := json.Unmarshal(r, &v); err != nil {
			t.Fatalf("sandbox record %d: %v", i, err)
		}
		out[i] = v.ID
	}
	return out
}

func equalIDs(t testing.TB, what string, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: got %d records, want %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: record %d is %q, want %q", what, i, got[i], want[i])
		}
	}
}

// requirePageError checks err is a *failure.PageError for endpoint and page.
func requirePageError(t testing.TB, err error, endpoint string, page int) *failure.PageError {
	t.Helper()
	var pe *failure.PageError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *failure.PageError", err, err)
	}
	if pe.Endpoint != endpoint || pe.Page != page {
		t.Fatalf("failure.PageError names %s page %d, want %s page %d: %v", pe.Endpoint, pe.Page, endpoint, page, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, endpoint) || !strings.Contains(msg, "page "+strconv.Itoa(page)) {
		t.Fatalf("error message %q does not name %s page %d", msg, endpoint, page)
	}
	return pe
}

func requireAPIError(t testing.TB, err error, status int) *failure.APIError {
	t.Helper()
	var ae *failure.APIError
	if !errors.As(err, &ae) {
		t.Fatalf("error %v (%T) is not an *failure.APIError", err, err)
	}
	if ae.Status != status {
		t.Fatalf("failure.APIError status %d, want %d: %v", ae.Status, status, err)
	}
	return ae
}

// logEntry is one event a recordingLogger saw.
type logEntry struct {
	level  string
	msg    string
	fields map[string]any
}

// recordingLogger keeps every event, safe for concurrent use.
type recordingLogger struct {
	mu      sync.Mutex
	entries []logEntry
}

func (l *recordingLogger) add(level, msg string, fields map[string]any) {
	cp := make(map[string]any, len(fields))
	for k, v := range fields {
		cp[k] = v
	}
	l.mu.Lock()
	l.entries = append(l.entries, logEntry{level, msg, cp})
	l.mu.Unlock()
}

func (l *recordingLogger) Debug(_ context.Context, msg string, f map[string]any) {
	l.add("debug", msg, f)
}
func (l *recordingLogger) Warn(_ context.Context, msg string, f map[string]any) {
	l.add("warn", msg, f)
}

func (l *recordingLogger) all() []logEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.entries)
}

// find returns the entries whose message contains substr.
func (l *recordingLogger) find(substr string) []logEntry {
	var out []logEntry
	for _, e := range l.all() {
		if strings.Contains(e.msg, substr) {
			out = append(out, e)
		}
	}
	return out
}

func int64Ptr(v int64) *int64 { return &v }

// expectedRequests is how many requests a count-style read of n records at
// page size p makes one page at a time: every page with records, then the
// empty page that ends it (for a short last page, its confirmation), and
// the answer that ends the read asked a second time: the empty page after
// a full page (or an empty page 1), or the short last page.
// maxPastEnd is the most requests a read with conc in flight may send
// past the page that ends it: those that left before its answer came back,
// a window on the network and a window of answers held while they decode
// or wait for their turn (pager.go).
func maxPastEnd(conc int) int { return 2*conc - 1 }

// expectedRequests is what a read of n records in pages of p costs one
// page at a time: every page with records, the page that ends the read
// and its other question (another count: two for an empty list), and the
// empty page after a short one.
func expectedRequests(n, p int) int {
	switch {
	case n == 0:
		return 3
	case n%p == 0:
		return n/p + 2
	}
	return n/p + 3
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
