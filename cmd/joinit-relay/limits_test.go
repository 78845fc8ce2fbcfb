//go:build unix

package main

// The relay's limits, each tried at its number against the built binary.
// The numbers are written out here, not read from bounds.go and
// receive.go: a test that read the constant would follow it wherever it
// went, and a changed limit must fail a test until the test, and what it
// says of the limit, is changed with it. The timeouts are the exception: a
// test that waited out a release's 5 s would take seconds, so the binary
// is tried at a shorter one (the JOINIT_RELAY_TEST_* knobs, waits.go), and
// the release's number is written out in
// TestTheRelaysWaitsAreTheProductionOnes. (unix: the connection cap's test
// reads the open-file limit.)

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The body limit is 1 MiB: a body of exactly 1,048,576 bytes is read,
// and one byte more is answered 413 and owes no run.
func TestABodyOf1MiBIsReadAndOneByteMoreIsRefused(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	if status, _ := post(t, r.hookURL, paddedMembership(t, 1_048_577)); status != http.StatusRequestEntityTooLarge {
		t.Errorf("a body of 1,048,577 bytes: %d, want 413", status)
	}
	if r.health().RunOwed {
		t.Errorf("a body of 1,048,577 bytes made a run owed")
	}
	if status, _ := post(t, r.hookURL, paddedMembership(t, 1_048_576)); status != http.StatusAccepted {
		t.Errorf("a body of exactly 1,048,576 bytes: %d, want 202 (read whole)", status)
	}
}

// The header timeout (5 s in a release; 300 ms here): a connection whose
// headers stop part-way is closed without an answer, no sooner than the
// timeout after it opened. The request's read timeout is an hour
// (testWaits), so a relay without a header timeout holds the connection
// past the hang limit, and the test fails.
func TestHeadersUnfinishedAfterTheHeaderTimeoutCloseTheConnection(t *testing.T) {
	t.Parallel()
	const timeout = 300 * time.Millisecond
	r := startRelay(t, relayOptions{env: []string{"JOINIT_RELAY_TEST_READ_HEADER_TIMEOUT=" + timeout.String()}},
		"-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	// Taken before the dial: the relay's timeout begins after it, so only
	// a shorter timeout closes the connection sooner, however loaded the
	// machine.
	began := time.Now()
	conn := dial(t, r)
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\n", hookPath(r))
	_ = conn.SetReadDeadline(time.Now().Add(hang))
	n, err := conn.Read(make([]byte, 512))
	held := time.Since(began)
	if n > 0 || !errors.Is(err, io.EOF) {
		t.Fatalf("a connection with unfinished headers, after %s: %d bytes, %v; want it closed without an answer", held.Round(time.Millisecond), n, err)
	}
	if held < timeout {
		t.Errorf("a connection with unfinished headers was closed after %s, before the header timeout (%s)", held.Round(time.Millisecond), timeout)
	}
}

// The connection cap is 4,096: with 4,095 connections open (each part-way
// through a webhook's body) a 4,096th is answered; beside those 4,096 the
// next is not answered until one of them closes.
func TestThe4097thConnectionWaitsUntilOneOf4096Closes(t *testing.T) {
	t.Parallel()
	needOpenFiles(t, 4_097+64)
	r := startRelay(t, relayOptions{}, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	for range 4_095 {
		holdConnection(t, r)
	}
	// Each connection is dialled after the one before it is in the
	// relay's accept queue, which is first in, first out: the connections
	// below are taken after the 4,095, or not at all.
	last := send(t, r, healthRequest)
	if status, ok := last.within(hang); !ok || status != http.StatusOK {
		t.Fatalf("the 4,096th connection: %s; want 200", last.describe(status, ok))
	}
	next := send(t, r, healthRequest)
	if status, ok := next.within(time.Second); ok {
		t.Fatalf("the 4,097th connection was answered (%d) while 4,096 were open: the cap is above 4,096", status)
	}
	last.conn.Close()
	if status, ok := next.within(hang); !ok || status != http.StatusOK {
		t.Errorf("the 4,097th connection after one of 4,096 closed: %s; want 200", next.describe(status, ok))
	}
}

// Bodies up to 64 KiB never wait for a large body's place; past 64 KiB
// at most 4 are read at once, and a 5th waits until one of them ends.
// (The decoder reads once more after a body's last byte to find its end:
// a body of exactly 65,536 bytes must not wait for that empty read.)
func TestBodiesPast64KiBAreReadFourAtOnceAndOthersNeverWait(t *testing.T) {
	t.Parallel()
	const largestSmall, smallestLarge = 65_536, 65_537
	r := startRelay(t, relayOptions{}, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	var stalled []net.Conn
	for range 3 {
		stalled = append(stalled, stallLargeBody(t, r))
	}
	// A relay of 3 places may answer this one all the same, if it comes
	// before the stalled bodies have taken theirs; the place freed below
	// then catches it, whatever the timing.
	fourth := send(t, r, webhookRequest(r, paddedMembership(t, smallestLarge)))
	if status, ok := fourth.within(hang); !ok || status != http.StatusAccepted {
		t.Fatalf("a body of %d bytes beside 3 stalled large bodies: %s; want 202: 4 are read at once", smallestLarge, fourth.describe(status, ok))
	}
	stalled = append(stalled, stallLargeBody(t, r))
	fifth := waitingLargeBody(t, r, smallestLarge)
	small := send(t, r, webhookRequest(r, paddedMembership(t, largestSmall)))
	if status, ok := small.within(hang); !ok || status != http.StatusAccepted {
		t.Errorf("a body of %d bytes beside 4 stalled large bodies and a waiting one: %s; want 202 at once", largestSmall, small.describe(status, ok))
	}
	// Places are given first come, first served: were there 3, the 4th
	// stalled body (or the 4th above) would take the place freed here,
	// and the 5th would wait on, past the hang limit.
	stalled[0].Close()
	if status, ok := fifth.within(hang); !ok || status != http.StatusAccepted {
		t.Errorf("the waiting 5th large body once a stalled one closed: %s; want 202", fifth.describe(status, ok))
	}
}

// The secret is compared whole and as sent: near misses are answered the
// same 404 as any unknown path, and owe no run.
func TestNearMissSecretsAreNotFoundAndOweNoRun(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	body := membership("m1", "memberships.inactive")
	paths := nearMissHookPaths(testSecret)
	for _, p := range paths {
		if status, _ := post(t, r.url+p, body); status != http.StatusNotFound {
			t.Errorf("POST %s: %d, want 404", p, status)
		}
	}
	if r.health().RunOwed {
		t.Fatalf("%d near-miss secrets made a run owed", len(paths))
	}
	if status, _ := post(t, r.hookURL, body); status != http.StatusAccepted {
		t.Fatalf("POST with the secret: %d, want 202", status)
	}
	if !r.health().RunOwed {
		t.Errorf("the secret's webhook owes no run")
	}
}

// nearMissHookPaths are request targets one step from /hooks/<secret>:
// each character changed, dropped, case-flipped or percent-encoded, one
// added at either end, every prefix, a trailing slash, and the prefix
// /hooks/ itself misspelt.
func nearMissHookPaths(secret string) []string {
	// A changed character is its neighbour here: unreserved in a URL, so
	// the change stays one byte on the wire.
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"
	var near []string
	for i := range len(secret) {
		c := secret[i]
		next := alphabet[(strings.IndexByte(alphabet, c)+1)%len(alphabet)]
		near = append(near, secret[:i]+string(next)+secret[i+1:], secret[:i]+secret[i+1:], secret[:i],
			secret[:i]+fmt.Sprintf("%%%02X", c)+secret[i+1:])
		if flipped := flipCase(c); flipped != c {
			near = append(near, secret[:i]+string(flipped)+secret[i+1:])
		}
	}
	var encoded strings.Builder
	for i := range len(secret) {
		fmt.Fprintf(&encoded, "%%%02x", secret[i])
	}
	near = append(near, "x"+secret, secret+"x", secret+secret, secret+"/", "/"+secret, secret+"%2F", "./"+secret,
		strings.ToUpper(secret), strings.ToLower(secret), encoded.String())
	var paths []string
	for _, s := range near {
		paths = append(paths, "/hooks/"+s)
	}
	paths = append(paths, "/hooks"+secret, "/hook/"+secret, "/Hooks/"+secret, "/hooks/x/../"+secret, "/x/../hooks/"+secret)
	slices.Sort(paths) // the last character dropped is also a prefix
	return slices.Compact(paths)
}

func flipCase(c byte) byte {
	switch {
	case 'a' <= c && c <= 'z':
		return c - 'a' + 'A'
	case 'A' <= c && c <= 'Z':
		return c - 'A' + 'a'
	}
	return c
}

// needOpenFiles raises the test's open-file limit to n if it is lower, or
// skips the test when the hard limit is lower. The relay, a Go program,
// raises its own to its hard limit, which it inherits.
func needOpenFiles(t *testing.T, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Max < n {
		t.Skipf("the hard open-file limit is %d, below the %d this test opens (4,097 connections)", lim.Max, n)
	}
	if lim.Cur < n {
		lim.Cur = n
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			t.Fatal(err)
		}
	}
}
