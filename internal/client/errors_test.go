package client

import (
	"context"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// closedAddress is a loopback address where nothing listens.
func closedAddress(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// A 404 shows the URL that was asked for and names the endpoint's
// endpoint_paths attribute.
func TestNotFoundShowsURLAndEndpointPath(t *testing.T) {
	t.Parallel()
	_, base := sandbox.StartForTest(t, sandbox.Options{Payments: 3})
	c := newClient(t, Config{BaseURL: base, Paths: Paths{apispec.EndpointPayments: "/api/v1/no-such-payments"}})
	_, err := c.Payments(context.Background(), ListOptions{PageSize: 10})
	requireAPIError(t, err, http.StatusNotFound)
	for _, want := range []string{
		"HTTP 404 for " + base + "/api/v1/no-such-payments:",
		"check Config.BaseURL and Config.Paths[payments]",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("message %q lacks %q", err, want)
		}
	}
	// The URL without its query: the path is what a user fixes, and a
	// query is never shown.
	if strings.Contains(err.Error(), "?") {
		t.Fatalf("message %q shows a query", err)
	}
}

// Retries used up on a server error say over how long, too.
func TestRetriesUsedUpSayOverHowLong(t *testing.T) {
	t.Parallel()
	_, base := sandbox.StartForTest(t, sandbox.Options{Groups: 3, Faults: sandbox.Faults{ServerErrors: 5, ServerErrorStatus: http.StatusBadGateway}})
	c := newClient(t, Config{BaseURL: base, MaxRetries: 2})
	_, err := c.Groups(context.Background(), ListOptions{})
	ae := requireAPIError(t, err, http.StatusBadGateway)
	if ae.Elapsed <= 0 || !regexp.MustCompile(`HTTP 502 after 3 attempts over \d+(\.\d+)?m?s: the server failed, and retries were used up`).MatchString(err.Error()) {
		t.Fatalf("message %q (elapsed %v)", err, ae.Elapsed)
	}
}

// The attempt's time limit does not count time spent waiting for a place
// among the requests in flight: a request queued behind slow ones is not
// timed out.
func TestQueuedRequestIsNotTimedOut(t *testing.T) {
	t.Parallel()
	// On the bubble's clock each request takes exactly 1 s of its 1.5 s,
	// and the second read's first request waits 1 s for its place: 2 s from
	// the wait, which a limit taken from the wait would not survive. The
	// reads start together, each request the other's waits behind.
	synctest.Test(t, func(t *testing.T) {
		sb := sandbox.New(sandbox.Options{Memberships: 5, Payments: 5, Faults: sandbox.Faults{Latency: time.Second}})
		c := newClient(t, Config{BaseURL: inProcessURL, network: inProcess{sb}, MaxConcurrency: 1, Timeout: 1500 * time.Millisecond, MaxRetries: NoRetries})
		errs := make(chan error, 2)
		start := time.Now()
		go func() { _, err := c.Memberships(context.Background(), MembershipQuery{}); errs <- err }()
		go func() { _, err := c.Payments(context.Background(), ListOptions{}); errs <- err }()
		for _, err := range []error{<-errs, <-errs} {
			if err != nil {
				t.Fatal(err)
			}
		}
		// Every request waited for the one before it: the reads took their
		// requests' latency end to end, so some request waited over 1.5 s.
		if n, took := sb.Requests(""), time.Since(start); took != time.Duration(n)*time.Second || n < 4 {
			t.Fatalf("%d requests in %v: they did not wait for each other's places", n, took)
		}
	})
}

// Only a 404 of page 1 says the endpoint does not exist: a later page of an
// endpoint that answered earlier ones is not a wrong path.
func TestNotFoundOnALaterPageDoesNotBlameThePath(t *testing.T) {
	t.Parallel()
	first := (&failure.APIError{Endpoint: "memberships", Page: 1, Status: 404, URL: "https://api.example.com/m?page=1"}).Error()
	later := (&failure.APIError{Endpoint: "memberships", Page: 3, Status: 404, URL: "https://api.example.com/m?page=3"}).Error()
	if !strings.Contains(first, "Config.Paths[memberships]") {
		t.Errorf("page 1: %s", first)
	}
	if strings.Contains(later, "Config.Paths") || strings.Contains(later, "no such endpoint") {
		t.Errorf("page 3: %s", later)
	}
}
