package failure

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// PageError is a page the client could not use: its request failed, or
// the paging rules refused it. Nothing of the read is returned with it.
type PageError struct {
	Endpoint string
	Page     int
	Reason   string
	Err      error
}

func (e *PageError) Error() string { return e.WordWith(ConfigNames) }

// WordWith words the settings the error it wraps names.
func (e *PageError) WordWith(name Namer) string {
	msg := fmt.Sprintf("%s page %d: %s", e.Endpoint, e.Page, e.Reason)
	if e.Err != nil {
		msg += ": " + Word(e.Err, name)
	}
	return msg
}

func (e *PageError) Unwrap() error { return e.Err }

// ErrNotAdvancing marks a server that keeps answering with records already
// read: paging it further would never end.
var ErrNotAdvancing = errors.New("the server is not advancing through pages")

// ErrInconsistentAnswers marks a server that answered the same page with
// different records, again and again, within one run.
var ErrInconsistentAnswers = errors.New("the server gave different answers to the same request")

// Redacted returns err, whose text may quote the server, with secret
// removed from its message; the chain is kept.
func Redacted(err error, secret string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if clean := redact.Text(msg, 0, redact.Secret{Value: secret}); clean != msg {
		return &redactedError{err: err, msg: clean}
	}
	return err
}

// redactedError is an error whose message had a secret removed.
type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// The HTTP statuses APIError's message tells apart, as numbers: failure,
// and paging which imports it, do not depend on net/http.
const (
	statusUnauthorized    = 401
	statusForbidden       = 403
	statusNotFound        = 404
	statusTooManyRequests = 429
)

// APIError is a response the API answered with a non-success status.
type APIError struct {
	Endpoint string // endpoint name, e.g. "memberships"
	Page     int
	Status   int
	Attempts int
	Elapsed  time.Duration // from the first attempt to the last answer
	URL      string        // the last attempt's, as scheme://host/path
	Message  string        // a JSON body's message or error, redacted and cut
}

func (e *APIError) Error() string { return e.WordWith(ConfigNames) }

// WordWith words the settings the status points to.
func (e *APIError) WordWith(name Namer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s page %d: the API answered HTTP %d", e.Endpoint, e.Page, e.Status)
	if e.Status == statusNotFound && e.URL != "" {
		fmt.Fprintf(&b, " for %s", e.URL)
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts over %s", e.Attempts, Rounded(e.Elapsed))
	}
	switch {
	case e.Status == statusUnauthorized || e.Status == statusForbidden:
		fmt.Fprintf(&b, ": the access token was refused; check %s and that the application key is still authorized", name(SettingToken))
	case e.Status == statusNotFound && e.Page <= 1:
		fmt.Fprintf(&b, ": no such endpoint; check %s and %s", name(SettingBaseURL), name(SettingPath(e.Endpoint)))
		if alt := alternatePath(e.Endpoint, e.URL); alt != "" {
			fmt.Fprintf(&b, ". The API specification shows this list as GET %s: if the API serves it there, set %s to %q", alt, name(SettingPath(e.Endpoint)), alt)
		}
	case e.Status == statusNotFound:
		b.WriteString(": the page was not found, though the endpoint answered earlier pages")
	case e.Status == statusTooManyRequests:
		fmt.Fprintf(&b, ": rate limited, and retries were used up while no other request got through; lower %s or raise %s",
			name(SettingMaxConcurrency), name(SettingMaxRetries))
	case e.Status >= 500:
		b.WriteString(": the server failed, and retries were used up")
	}
	if e.Message != "" {
		fmt.Fprintf(&b, " (the API said: %q)", e.Message)
	}
	return b.String()
}

// alternatePath is the path the specification shows for an endpoint whose
// full path is assumed (apispec.Endpoint.Alternate), when url asked at the
// assumed one; else "".
func alternatePath(endpoint, url string) string {
	for _, e := range apispec.Endpoints {
		if e.Name == endpoint && strings.HasSuffix(url, e.DefaultPath) {
			return e.Alternate
		}
	}
	return ""
}

// Rounded prints a wait as people read it: 12.1s, 850ms.
func Rounded(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
