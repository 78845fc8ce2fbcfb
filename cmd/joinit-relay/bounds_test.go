package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// slowLargeBody opens a connection that sends a webhook's headers and
// more than smallBody of a large body, then stalls: it holds one of the
// large bodies' places until the connection closes.
func slowLargeBody(t *testing.T, r *relay) net.Conn {
	t.Helper()
	conn := dial(t, r)
	fmt.Fprintf(conn, `%s{"pad":"%s`, webhookHeaders(r, maxBody), strings.Repeat("x", 2*smallBody))
	return conn
}

// A sender of large bodies takes every place they have: the service's
// webhooks, under smallBody, are answered all the same. The stalled bodies
// are held for the read timeout, an hour here (testWaits): a relay that
// made a small webhook wait for a place would hold it past the hang limit.
func TestLargeBodiesNeverHoldUpTheServicesWebhooks(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	for range largeBodies + 2 {
		slowLargeBody(t, r)
	}
	// The places are all taken once a further large body waits.
	waitingLargeBody(t, r, 2*smallBody)
	webhook := send(t, r, webhookRequest(r, membership("m1", "memberships.inactive")))
	status, ok := webhook.within(hang)
	if !ok {
		t.Fatalf("a webhook waited %s behind stalled large bodies", hang)
	}
	if status != http.StatusAccepted {
		t.Errorf("a webhook beside stalled large bodies: %s, want 202", webhook.describe(status, ok))
	}
}

// An idle keep-alive connection is closed after the idle timeout (10 s in a
// release, TestTheRelaysWaitsAreTheProductionOnes; 300 ms here), not held
// for minutes. Without an idle timeout a server waits the request's read
// timeout instead, an hour here (testWaits): past the hang limit, so the
// test fails.
func TestIdleConnectionsAreClosedSoon(t *testing.T) {
	t.Parallel()
	const idle = 300 * time.Millisecond
	r := startRelay(t, relayOptions{env: []string{"JOINIT_RELAY_TEST_IDLE_TIMEOUT=" + idle.String()}},
		"-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	conn := dial(t, r)
	// Taken before the request: the relay's idle wait begins after its
	// answer, so only a shorter timeout closes the connection sooner.
	began := time.Now()
	fmt.Fprintf(conn, "GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	_ = conn.SetReadDeadline(time.Now().Add(hang))
	if _, err := conn.Read(make([]byte, 1)); !errors.Is(err, io.EOF) {
		t.Fatalf("the idle connection: %v, want it closed (EOF)", err)
	}
	if held := time.Since(began); held < idle {
		t.Errorf("an idle connection was closed after %s, before the idle timeout (%s)", held.Round(time.Millisecond), idle)
	}
}

// A body over the limit is answered 413 and its connection closed, so the
// rest of it is not read.
func TestOversizeBodyClosesItsConnection(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	body := `{"pad":"` + strings.Repeat("x", maxBody) + `"}`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, r.hookURL, strings.NewReader(body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !resp.Close {
		t.Errorf("a body over 1 MiB: %d, connection close %v; want 413 and the connection closed", resp.StatusCode, resp.Close)
	}
}
