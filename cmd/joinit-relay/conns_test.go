package main

// Connections the tests hold open, send on, or stall part-way, and the
// answers they read in the background.

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// paddedMembership is a webhook body of exactly size bytes: a membership
// with a long "pad" string first, as a large record's field would be.
func paddedMembership(t *testing.T, size int) string {
	t.Helper()
	return padded(t, size, "memberships.inactive")
}

// padded is paddedMembership of an event type: one outside -events is
// read whole, then answered without a write to -state-dir.
func padded(t *testing.T, size int, event string) string {
	t.Helper()
	m := membership("m1", event)
	const head, tail = `{"pad":"`, `",`
	body := head + strings.Repeat("x", size-len(head)-len(tail)-len(m)+1) + tail + m[1:]
	if len(body) != size {
		t.Fatalf("a padded body of %d bytes, want %d", len(body), size)
	}
	return body
}

// webhookRequest is a POST of body to r's hook path, as sent on the wire.
func webhookRequest(r *relay, body string) string {
	return webhookHeaders(r, len(body)) + body
}

const healthRequest = "GET /healthz HTTP/1.1\r\nHost: relay\r\n\r\n"

// holdConnection opens a connection that sends a webhook's headers and the
// start of a 100-byte body, then stalls: the relay holds it until its read
// timeout (an hour in the tests, testWaits), far past the test, where
// unfinished headers would be closed after the header timeout and could
// free a place mid-test.
func holdConnection(t *testing.T, r *relay) {
	t.Helper()
	conn := dial(t, r)
	if _, err := io.WriteString(conn, webhookHeaders(r, 100)+`{"pad":"`); err != nil {
		t.Fatal(err)
	}
}

// stallLargeBody opens a connection that sends 65,537 bytes of a 1 MiB
// body, one past 64 KiB, then stalls: it holds a large body's place until
// it closes.
func stallLargeBody(t *testing.T, r *relay) net.Conn {
	t.Helper()
	conn := dial(t, r)
	const open = `{"pad":"`
	if _, err := io.WriteString(conn, webhookHeaders(r, 1_048_576)+open+strings.Repeat("x", 65_537-len(open))); err != nil {
		t.Fatal(err)
	}
	return conn
}

// waitingLargeBody sends a body of size bytes beside four or more stalled
// large bodies until one is left unanswered for 1 s, and returns it: every
// place is taken. One sent before the stalled bodies have taken their
// places is read at once and answered, however long they take to (a
// loaded machine), so it sends again until the hang limit; a relay reading
// more bodies at once than are stalled answers every one. Its event type
// is one the relay ignores (payments.created): read whole, it is answered
// with no write to -state-dir, whose fsync a busy disk can make take over
// a second. A body answered after its second all the same (a machine
// stalled that long) is taken for a waiting one: the tests that use it
// then pass without proving its wait, and never fail for it.
func waitingLargeBody(t *testing.T, r *relay, size int) *exchange {
	t.Helper()
	for deadline := time.Now().Add(hang); time.Now().Before(deadline); {
		e := send(t, r, webhookRequest(r, padded(t, size, "payments.created")))
		if _, ok := e.within(time.Second); !ok {
			return e
		}
		e.conn.Close() // left open, thousands would reach the connection cap, and wait for it
	}
	t.Fatalf("every body of %d bytes beside the stalled large bodies was answered for %s: more are read at once than are stalled, or the body is not a large one", size, hang)
	return nil
}

// exchange is one request on a connection of its own, its answer read in
// the background: a request still unanswered is one the relay has not
// taken, or is holding.
type exchange struct {
	conn   net.Conn
	status chan int // 0 when the connection closed without an answer
}

func send(t *testing.T, r *relay, request string) *exchange {
	t.Helper()
	e := &exchange{conn: dial(t, r), status: make(chan int, 1)}
	if _, err := io.WriteString(e.conn, request); err != nil {
		t.Fatal(err)
	}
	go func() {
		resp, err := http.ReadResponse(bufio.NewReader(e.conn), nil)
		if err != nil {
			e.status <- 0
			return
		}
		resp.Body.Close()
		e.status <- resp.StatusCode
	}()
	return e
}

// within is the status answered within wait, and whether one was. A test
// waits the hang limit for an answer that must come; a shorter wait is for
// one that must not (a wait that only a loaded machine can make too
// short, and then the test proves less, never fails wrongly).
func (e *exchange) within(wait time.Duration) (int, bool) {
	select {
	case status := <-e.status:
		return status, true
	case <-time.After(wait):
		return 0, false
	}
}

func (e *exchange) describe(status int, answered bool) string {
	switch {
	case !answered:
		return "no answer"
	case status == 0:
		return "closed without an answer"
	}
	return fmt.Sprintf("answered %d", status)
}
