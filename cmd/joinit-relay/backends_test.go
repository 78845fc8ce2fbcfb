package main

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// fakeBackend is a CI service's API (GitHub's, HCP Terraform's) that a start
// calls: it answers the statuses of answers in order (the last one from then
// on) and keeps every request it got.
type fakeBackend struct {
	mu       sync.Mutex
	answers  []func(w http.ResponseWriter)
	requests []*http.Request
	bodies   []string
	arrived  []time.Time
}

func (f *fakeBackend) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.bodies = append(f.bodies, string(b))
	f.arrived = append(f.arrived, time.Now())
	answer := f.answers[min(len(f.requests), len(f.answers))-1]
	f.mu.Unlock()
	answer(w)
}

func (f *fakeBackend) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

func status(code int, header ...string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		if code >= 400 {
			_, _ = io.WriteString(w, `{"message":"simulated"}`)
		}
	}
}

func startFake(t *testing.T, answers ...func(w http.ResponseWriter)) (*fakeBackend, string) {
	f := &fakeBackend{answers: answers}
	s := httptest.NewServer(f)
	t.Cleanup(s.Close)
	return f, s.URL
}

const gitHubToken = "ghp_testTOKEN0123456789abcdefABCDEF"

// The retries within one start wait as go-retryablehttp's backoff says,
// from waits.dispatchWaitMin (1 s in a release; 10 ms here, testWaits),
// except where the server asked for longer: Retry-After's 1 s is fifty
// times the backoff's second wait (20 ms), so a relay that ignored it
// would retry far sooner than the second asked.
func TestGitHubBackendRetries500And429ThenDispatchesOnce(t *testing.T) {
	t.Parallel()
	const retryAfter = time.Second
	api, url := startFake(t, status(http.StatusInternalServerError), status(http.StatusTooManyRequests, "Retry-After", "1"), status(http.StatusNoContent))
	r := startRelay(t, relayOptions{env: []string{envGitHubToken + "=" + gitHubToken}, secrets: []string{gitHubToken}},
		"-quiet-period", "50ms", "-github-workflow", "acme/infra/member-sync.yml@main", "-github-api-url", url)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the workflow is dispatched", func() bool { return r.health().LastStarted != nil })
	r.waitIdle()
	if n := api.count(); n != 3 {
		t.Fatalf("GitHub got %d requests, want 3 (500, 429, then the 204)", n)
	}
	if gap := api.arrived[2].Sub(api.arrived[1]); gap < retryAfter {
		t.Errorf("the request after Retry-After: 1 came %v later, want %s or more", gap, retryAfter)
	}
	got := api.requests[2]
	if got.URL.Path != "/repos/acme/infra/actions/workflows/member-sync.yml/dispatches" {
		t.Errorf("path %s", got.URL.Path)
	}
	if got.Header.Get("Authorization") != "Bearer "+gitHubToken || got.Header.Get("Accept") != "application/vnd.github+json" {
		t.Errorf("headers %v", got.Header)
	}
	if api.bodies[2] != `{"ref":"main"}` || api.bodies[0] != api.bodies[2] {
		t.Errorf("bodies %q", api.bodies)
	}
}

func TestTFEBackendQueuesOneRun(t *testing.T) {
	t.Parallel()
	const token = "tfeTEST.atlasv1.0123456789abcdefghij"
	api, url := startFake(t, status(http.StatusCreated))
	r := startRelay(t, relayOptions{env: []string{envTFEToken + "=" + token}, secrets: []string{token}},
		"-quiet-period", "50ms", "-tfe-workspace", "ws-AbC123", "-tfe-address", url)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the run is queued", func() bool { return r.health().LastStarted != nil })
	if n := api.count(); n != 1 {
		t.Fatalf("HCP Terraform got %d requests, want 1", n)
	}
	got := api.requests[0]
	if got.URL.Path != "/api/v2/runs" || got.Header.Get("Content-Type") != "application/vnd.api+json" || got.Header.Get("Authorization") != "Bearer "+token {
		t.Errorf("request %s %v", got.URL.Path, got.Header)
	}
	var run tfeRun
	if err := json.Unmarshal([]byte(api.bodies[0]), &run); err != nil {
		t.Fatal(err)
	}
	if ws := run.Data.Relationships.Workspace.Data; run.Data.Type != "runs" || ws.Type != "workspaces" || ws.ID != "ws-AbC123" {
		t.Errorf("body %s", api.bodies[0])
	}
}

func TestRefusedStartIsLoggedWithAHintAndKeptOwed(t *testing.T) {
	t.Parallel()
	echoToken := func(w http.ResponseWriter) {
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, `{"message":"simulated: no workflow for token `+gitHubToken+`"}`)
	}
	api, url := startFake(t, echoToken, status(http.StatusNoContent))
	r := startRelay(t, relayOptions{env: []string{envGitHubToken + "=" + gitHubToken}, secrets: []string{gitHubToken}},
		"-quiet-period", "50ms", "-github-workflow", "acme/infra/sync.yml@main", "-github-api-url", url)
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	testutil.Eventually(t, "the second start succeeds", func() bool { return r.health().LastStarted != nil })
	if n := api.count(); n != 2 {
		t.Errorf("GitHub got %d requests, want 2 (a 404 is not retried within a start; the next start tries again)", n)
	}
	// The log comes through a pipe: it may reach the test after /healthz.
	testutil.Eventually(t, "the failed start's log line, with GitHub's words (the token redacted) and the hint", func() bool {
		log := r.log.String()
		return strings.Contains(log, "404 Not Found: simulated: no workflow for token [redacted]") && strings.Contains(log, "GITHUB_TOKEN may not see it")
	})
}

func TestRateLimitWait(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		name   string
		status int
		header []string
		want   time.Duration
		ok     bool
	}{
		{"Retry-After seconds", 429, []string{"Retry-After", "7"}, 7 * time.Second, true},
		{"Retry-After date", 503, []string{"Retry-After", now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second, true},
		{"GitHub secondary limit", 403, []string{"Retry-After", "60"}, time.Minute, true},
		{"GitHub primary limit", 403, []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "1796313900"}, time.Unix(1796313900, 0).Sub(now), true},
		{"HCP Terraform reset seconds", 429, []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "0.25"}, 250 * time.Millisecond, true},
		// Read as the provider's client reads it (client.ParseRetryAfter):
		// more seconds than a Duration holds are its longest, not a
		// negative wait; space around it is no matter.
		{"Retry-After beyond a Duration", 429, []string{"Retry-After", "99999999999"}, time.Duration(math.MaxInt64/int64(time.Second)) * time.Second, true},
		{"Retry-After spaced", 429, []string{"Retry-After", " 7 "}, 7 * time.Second, true},
		{"Retry-After unread, reset", 429, []string{"Retry-After", "soon", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "5"}, 5 * time.Second, true},
		{"403 without a limit", 403, nil, 0, false},
		{"500 with Retry-After", 500, []string{"Retry-After", "5"}, 0, false},
		{"429 bare", 429, nil, 0, false},
		{"remaining not 0", 429, []string{"X-RateLimit-Remaining", "3", "X-RateLimit-Reset", "5"}, 0, false},
	}
	for _, c := range cases {
		resp := &http.Response{StatusCode: c.status, Header: http.Header{}}
		for i := 0; i+1 < len(c.header); i += 2 {
			resp.Header.Set(c.header[i], c.header[i+1])
		}
		got, ok := rateLimitWait(resp, now)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: %v %v, want %v %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// A backend that asks for a day (a proxy's answer, a misread header, a
// far date) holds every relay on the directory for an hour at most: the
// wait is written to owed.json, which binds them all and outlives a
// restart. The failed start's log line says when the next start comes,
// and /healthz says it too. Decided by the relay's own log line, written
// after owed.json.
func TestABackendsLongWaitIsBoundedToAnHourAndSaid(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name       string
		retryAfter func() string
	}{
		{"in seconds", func() string { return "86400" }},
		{"as a far date", func() string { return time.Now().Add(30 * 24 * time.Hour).UTC().Format(http.TimeFormat) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			api, url := startFake(t, func(w http.ResponseWriter) {
				status(http.StatusTooManyRequests, "Retry-After", c.retryAfter())(w)
			})
			r := startRelay(t, relayOptions{env: []string{envGitHubToken + "=" + gitHubToken}, secrets: []string{gitHubToken}},
				"-quiet-period", "50ms", "-github-workflow", "acme/infra/member-sync.yml@main", "-github-api-url", url)
			before := time.Now()
			post(t, r.hookURL, membership("m1", "memberships.inactive"))
			failed := regexp.MustCompile(`msg="the sync run could not be started; it stays owed and is tried again".* next_start=(\S+)`)
			var logged []string
			testutil.Eventually(t, "the failed start's log line, naming the next start", func() bool {
				logged = failed.FindStringSubmatch(r.log.String())
				return logged != nil
			})
			after := time.Now()
			var rec owedRecord
			if err := json.Unmarshal([]byte(readFile(filepath.Join(r.stateDir, owedFile))), &rec); err != nil {
				t.Fatalf("owed.json: %v", err)
			}
			if earliest, latest := before.Add(time.Hour), after.Add(time.Hour); rec.RetryAt.Before(earliest.Add(-time.Second)) || rec.RetryAt.After(latest) {
				t.Errorf("owed.json's retry_at is %s after the webhook; want an hour (the longest wait a backend may ask)", rec.RetryAt.Sub(before).Round(time.Second))
			}
			if want := rec.RetryAt.UTC().Format(time.RFC3339); logged[1] != want {
				t.Errorf("the log's next_start=%s, want owed.json's retry_at %s", logged[1], want)
			}
			if h := r.health(); h.NextStart == nil || !h.NextStart.Equal(rec.RetryAt) {
				t.Errorf("/healthz next_start %v, want owed.json's retry_at %s", h.NextStart, rec.RetryAt)
			}
			if n := api.count(); n != 1 {
				t.Errorf("GitHub got %d requests, want 1: a wait past a minute ends the start at once", n)
			}
		})
	}
}
