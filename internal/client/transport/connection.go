package transport

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// ConnectionError is a request that could not reach the API (refused, no
// such host, TLS); the fix is nearly always the address it names.
type ConnectionError struct {
	Problem   string // what failed, in words
	BaseURL   string
	Proxy     bool // the environment's proxy failed, not the API's address
	Untrusted bool // a certificate a setting may trust (a private CA)
	Err       error
}

func (e *ConnectionError) Error() string { return e.WordWith(failure.ConfigNames) }

// WordWith words the base URL setting.
func (e *ConnectionError) WordWith(name failure.Namer) string {
	if e.Proxy {
		return fmt.Sprintf("%v: %s; check the HTTPS_PROXY (or HTTP_PROXY, NO_PROXY) environment variable", e.Err, e.Problem)
	}
	msg := fmt.Sprintf("%v: %s; check %s, now %s", e.Err, e.Problem, name(failure.SettingBaseURL), e.BaseURL)
	if e.Untrusted {
		msg += fmt.Sprintf("; if the API (or a proxy that intercepts TLS) has a certificate of a private authority, trust that authority with %s", name(failure.SettingCACerts))
	}
	return msg
}

// viaProxy reports an error reaching the environment's proxy.
func viaProxy(err error) bool {
	var opErr *net.OpError
	return errors.As(err, &opErr) && opErr.Op == "proxyconnect"
}

func (e *ConnectionError) Unwrap() error { return e.Err }

// connectionProblem says what an error of the connection itself means, or
// "" for any other error.
func connectionProblem(err error) string {
	var dnsErr *net.DNSError
	var opErr *net.OpError
	switch {
	case viaProxy(err):
		return "the proxy could not be reached"
	case errors.As(err, &dnsErr):
		return "the host name does not resolve"
	case isTLSError(err):
		return "the TLS handshake failed (is it an https address that serves TLS, with a certificate this machine trusts?)"
	case isPlainHTTPAnswer(err):
		return "the server answered in plain HTTP: the address is not an https one"
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return "no connection could be made to that address"
	}
	return ""
}

// isTLSError reports an error of the handshake or the certificate.
func isTLSError(err error) bool {
	var header tls.RecordHeaderError
	var alert tls.AlertError
	return isCertificateError(err) || errors.As(err, &header) || errors.As(err, &alert)
}

// isCertificateError reports a certificate the client will not trust.
func isCertificateError(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &verify) || errors.As(err, &unknown) || errors.As(err, &host) || errors.As(err, &invalid)
}

// certificateWords says why a certificate was not trusted in the client's
// words: Go's name what the certificate holds (the names it is valid for,
// its issuer), which the server chose.
func certificateWords(err error) string {
	var host x509.HostnameError
	var unknown x509.UnknownAuthorityError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.As(err, &host):
		return "x509: the certificate is not valid for the base URL's host"
	case errors.As(err, &unknown):
		return "x509: the certificate is signed by an authority this machine does not trust"
	case errors.As(err, &invalid):
		return "x509: the certificate is expired, not yet valid, or not for serving TLS"
	}
	return "tls: the certificate could not be verified"
}

// isPlainHTTPAnswer reports an https request answered in plain HTTP
// (net/http says so in words only).
func isPlainHTTPAnswer(err error) bool {
	return strings.Contains(err.Error(), "server gave HTTP response to HTTPS client")
}

// isHostNotFound reports a host the resolver says does not exist (a
// resolver that failed for a moment is retried).
func isHostNotFound(err error) bool {
	var dnsErr *net.DNSError
	return errors.As(err, &dnsErr) && dnsErr.IsNotFound && !viaProxy(err)
}
