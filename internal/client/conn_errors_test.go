package client

import (
	"context"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// When retries run out on a connection that is refused, the error says how
// many attempts over how long, the last error, and the setting to check.
func TestRefusedConnectionNamesBaseURL(t *testing.T) {
	t.Parallel()
	base := "http://" + closedAddress(t)
	c := newClient(t, Config{BaseURL: base, MaxRetries: 2})
	_, err := c.Memberships(context.Background(), MembershipQuery{})
	requirePageError(t, err, "memberships", 1)
	want := regexp.MustCompile(`^memberships page 1: the request failed after 3 attempts over \d+(\.\d+)?m?s; the last error: dial tcp [0-9.:]+: connect: connection refused: no connection could be made to that address; check Config\.BaseURL, now ` + regexp.QuoteMeta(base) + `$`)
	if !want.MatchString(err.Error()) {
		t.Fatalf("message:\n%s\nwant it to match\n%s", err, want)
	}
	var ce *transport.ConnectionError
	if !errors.As(err, &ce) {
		t.Fatalf("%T is not a transport.ConnectionError", err)
	}
}

// A server whose certificate is not trusted is not retried (no retry can
// change it), and the error names the base URL.
func TestUntrustedCertificateNamesBaseURL(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("a request reached the server through an untrusted TLS connection")
	}))
	t.Cleanup(srv.Close)
	c := newClient(t, Config{BaseURL: srv.URL, MaxRetries: 3})
	_, err := c.Groups(context.Background(), ListOptions{})
	pe := requirePageError(t, err, "groups", 1)
	if pe.Reason != "the request failed" {
		t.Fatalf("reason %q: a certificate error was retried", pe.Reason)
	}
	for _, want := range []string{"certificate", "the TLS handshake failed", "check Config.BaseURL, now " + srv.URL, "trust that authority with Config.CACertPEM"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("message %q lacks %q", err, want)
		}
	}
}

// An https base_url pointing at a plain HTTP server names the base URL too.
func TestPlainHTTPServerAtHTTPSBaseURL(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	base := strings.Replace(srv.URL, "http://", "https://", 1)
	// Retries allowed: none is made, since none could succeed.
	c := newClient(t, Config{BaseURL: base, MaxRetries: 5, RetryWaitMin: time.Second, RetryWaitMax: time.Second})
	_, err := c.Groups(context.Background(), ListOptions{})
	requirePageError(t, err, "groups", 1)
	for _, want := range []string{"plain HTTP", "check Config.BaseURL, now " + base} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("message %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "attempts") {
		t.Fatalf("an https base URL answered in plain HTTP was retried: %v", err)
	}
}

// dnsFailure is a network whose every dial fails as a resolver answers for
// a name that does not exist, or (temporary) one that timed out.
type dnsFailure struct {
	temporary bool
	dials     *int
}

func (d dnsFailure) RoundTrip(req *http.Request) (*http.Response, error) {
	*d.dials++
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: req.URL.Hostname(),
		IsNotFound: !d.temporary, IsTimeout: d.temporary, IsTemporary: d.temporary}}
}

// A host name that does not resolve fails at once, naming base_url; a
// resolver that timed out is retried.
func TestHostThatDoesNotResolveFailsAtOnce(t *testing.T) {
	t.Parallel()
	for _, temporary := range []bool{false, true} {
		dials := 0
		c := newClient(t, Config{BaseURL: "https://api.example.invalid", MaxRetries: 3, network: dnsFailure{temporary: temporary, dials: &dials}})
		_, err := c.Groups(context.Background(), ListOptions{})
		var ce *transport.ConnectionError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), "does not resolve; check Config.BaseURL") {
			t.Fatalf("temporary=%v: %v", temporary, err)
		}
		if want := map[bool]int{false: 1, true: 4}[temporary]; dials != want {
			t.Fatalf("temporary=%v: %d attempts, want %d", temporary, dials, want)
		}
	}
}

// A connection error names the base URL by scheme and host only: its path
// (or a query in it) may hold what a user put there by mistake.
func TestConnectionErrorShowsSchemeAndHostOnly(t *testing.T) {
	t.Parallel()
	addr := closedAddress(t)
	c := newClient(t, Config{BaseURL: "http://" + addr + "/pathSECRET1", MaxRetries: NoRetries})
	_, err := c.Groups(context.Background(), ListOptions{})
	if err == nil || strings.Contains(err.Error(), "SECRET1") || !strings.Contains(err.Error(), "now http://"+addr) {
		t.Fatalf("error %v: want base_url as scheme and host only", err)
	}
}

// A sandbox served over TLS with a certificate of its own: read with its
// authority in CACertPEM, refused without it.
func TestCACertPEMTrustsAPrivateAuthority(t *testing.T) {
	t.Parallel()
	sb := sandbox.New(sandbox.Options{Seed: 9, Groups: 3})
	srv := httptest.NewTLSServer(sb)
	t.Cleanup(srv.Close)
	pemCert := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	c := newClient(t, Config{BaseURL: srv.URL, CACertPEM: pemCert})
	gs, err := c.Groups(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "groups", groupIDs(gs), rawIDs(t, sb.GroupsJSON()))
	if _, err := New(Config{BaseURL: srv.URL, Token: testToken, CACertPEM: []byte("not a certificate")}); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Fatalf("New with a CACertPEM that holds no certificate: %v", err)
	}
}

// A server's words inside a Go error never reach the message: Go quotes a
// malformed Content-Length or header holding the token \u-escaped (which no
// redaction looks for), and the client keeps Go's words without the quote.
func TestGoErrorsAreSaidInOwnWords(t *testing.T) {
	t.Parallel()
	const token = "tok-Secret-0123456789abcdef"
	var escaped strings.Builder
	for _, r := range token {
		fmt.Fprintf(&escaped, `\u%04X`, r)
	}
	for _, c := range []struct {
		name, answer, want string
	}{
		{"a malformed Content-Length", "HTTP/1.1 200 OK\r\nContent-Length: " + escaped.String() + "\r\n\r\n[]", `bad Content-Length "…"`},
		{"a malformed header", "HTTP/1.1 200 OK\r\n" + escaped.String() + "\r\n\r\n[]", `malformed MIME header: missing colon: "…"`},
		{"a body cut short", "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[{\"_id\":\"" + escaped.String(), "the JSON is truncated"},
	} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				_, _ = conn.Read(make([]byte, 4096))
				_, _ = conn.Write([]byte(c.answer))
				conn.Close()
			}
		}()
		cl := newClient(t, Config{BaseURL: "http://" + ln.Addr().String(), Token: token, MaxRetries: 1})
		_, err = cl.Groups(context.Background(), ListOptions{})
		requirePageError(t, err, "groups", 1)
		msg := err.Error()
		if !strings.HasSuffix(msg, c.want) || strings.Contains(msg, `\u`) || strings.Contains(msg, `\\u`) || strings.Contains(strings.ToLower(msg), strings.ToLower(escaped.String()[:12])) {
			t.Errorf("%s: %q, want it to end %q and quote nothing the server sent", c.name, msg, c.want)
		}
	}
}

// A certificate the client will not trust is said in the client's words:
// Go's text names what the certificate holds (the names it is valid for,
// its issuer), which the server chose and could spell the token in.
func TestUntrustedCertificateIsSaidInOwnWords(t *testing.T) {
	t.Parallel()
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Error("a request reached the server through an untrusted TLS connection")
	}))
	t.Cleanup(srv.Close)
	trusted := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	for _, c := range []struct {
		name, base string
		ca         []byte
		want       string
	}{
		{"an unknown authority", srv.URL, nil, "x509: the certificate is signed by an authority this machine does not trust"},
		// The test server's certificate names example.com and 127.0.0.1.
		{"another host's certificate", "https://localhost:" + port, trusted, "x509: the certificate is not valid for the base URL's host"},
	} {
		cl := newClient(t, Config{BaseURL: c.base, CACertPEM: c.ca, MaxRetries: NoRetries})
		_, err := cl.Groups(context.Background(), ListOptions{})
		requirePageError(t, err, "groups", 1)
		if msg := err.Error(); !strings.Contains(msg, c.want) || strings.Contains(msg, "example.com") || strings.Contains(msg, "Acme") {
			t.Errorf("%s: %q, want it to say %q and quote nothing of the certificate", c.name, msg, c.want)
		}
	}
}
