package transport

import (
	"crypto/x509"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestConnectionProblemKinds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		err  error
		want string
	}{
		{&net.DNSError{Err: "no such host", Name: "api.example.invalid", IsNotFound: true}, "does not resolve"},
		{&net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connect: connection refused")}, "no connection could be made"},
		{x509.UnknownAuthorityError{}, "TLS handshake failed"},
		{&net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}, ""},
		{&attemptTimeoutError{limit: time.Second}, ""},
		{&net.OpError{Op: "proxyconnect", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "proxy.invalid"}}, "the proxy could not be reached"},
	}
	for _, tc := range cases {
		if got := connectionProblem(tc.err); !strings.Contains(got, tc.want) || (tc.want == "") != (got == "") {
			t.Errorf("connectionProblem(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// A proxy from the environment that cannot be reached names the proxy's
// variable, not the base URL, which is not at fault.
func TestProxyFailureNamesTheProxySetting(t *testing.T) {
	t.Parallel()
	inner := &net.OpError{Op: "proxyconnect", Net: "tcp", Err: errors.New("dial tcp 127.0.0.1:1: connect: connection refused")}
	err := &ConnectionError{Problem: connectionProblem(inner), BaseURL: "https://api.example.com", Proxy: viaProxy(inner), Err: inner}
	if msg := err.Error(); !strings.Contains(msg, "HTTPS_PROXY") || strings.Contains(msg, "Config.BaseURL") {
		t.Fatalf("the message should name the proxy's variable and not base_url: %s", msg)
	}
}
