package client

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// APIError is a response the API answered with a non-success status.
type APIError struct {
	Endpoint string // endpoint name, e.g. "memberships"
	Page     int
	Status   int
	Attempts int
	Elapsed  time.Duration // from the first attempt to the last answer
	// URL is the URL of the last attempt, scheme://host/path?query.
	URL string
	// Excerpt is a short, sanitized piece of the body: printable text only,
	// with anything resembling the token removed.
	Excerpt string
	// AlsoURL is the other path asked for page 1 of an endpoint whose
	// default path answered 404, when it answered 404 too.
	AlsoURL string
}

func (e *APIError) Error() string { return e.wordWith(ConfigNames) }

func (e *APIError) wordWith(name Namer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s page %d: the API answered HTTP %d", e.Endpoint, e.Page, e.Status)
	if e.Status == http.StatusNotFound && e.URL != "" {
		fmt.Fprintf(&b, " for %s", e.URL)
		if e.AlsoURL != "" {
			fmt.Fprintf(&b, " and for %s (the other path the API specification allows)", e.AlsoURL)
		}
	}
	if e.Attempts > 1 {
		fmt.Fprintf(&b, " after %d attempts over %s", e.Attempts, roundDuration(e.Elapsed))
	}
	switch {
	case e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden:
		fmt.Fprintf(&b, ": the access token was refused; check %s and that the application key is still authorized", name(SettingToken))
	case e.Status == http.StatusNotFound && e.Page <= 1:
		fmt.Fprintf(&b, ": no such endpoint; check %s and %s", name(SettingBaseURL), name(SettingPath(e.Endpoint)))
	case e.Status == http.StatusNotFound:
		b.WriteString(": the page was not found, though the endpoint answered earlier pages")
	case e.Status == http.StatusTooManyRequests:
		fmt.Fprintf(&b, ": rate limited, and retries were used up while no other request got through; lower %s or raise %s",
			name(SettingMaxConcurrency), name(SettingMaxRetries))
	case e.Status >= 500:
		b.WriteString(": the server failed, and retries were used up")
	}
	if e.Excerpt != "" {
		fmt.Fprintf(&b, " (body: %q)", e.Excerpt)
	}
	return b.String()
}

// PageError is a page the client could not use: not JSON, malformed, or a
// server that does not advance. Nothing of the read is returned with it.
type PageError struct {
	Endpoint string
	Page     int
	Reason   string
	Err      error
}

func (e *PageError) Error() string {
	msg := fmt.Sprintf("%s page %d: %s", e.Endpoint, e.Page, e.Reason)
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

func (e *PageError) Unwrap() error { return e.Err }

// RetryWaitError is a server asking, with Retry-After, for a longer wait
// than the client may make.
type RetryWaitError struct {
	Status int           // 429 or 503
	Wait   time.Duration // what the server asked for
	Max    time.Duration // Config.MaxRetryWait
}

func (e *RetryWaitError) Error() string { return e.wordWith(ConfigNames) }

func (e *RetryWaitError) wordWith(name Namer) string {
	wait := name(SettingMaxRetryWait)
	return fmt.Sprintf("the API answered HTTP %d and asked to wait %s before retrying (Retry-After), longer than %s (%s): "+
		"try again later, or raise %s to wait that long", e.Status, e.Wait, wait, e.Max, wait)
}

// ErrNotAdvancing marks a server that keeps answering with records already
// read: paging it further would never end.
var ErrNotAdvancing = errors.New("the server is not advancing through pages")

const excerptLimit = 200

// sanitizeExcerpt keeps a short, printable piece of a body for an error
// message. The token is removed first, in every spelling a server may echo
// it in (package redact), and only then is the text cut, so no piece of it
// survives the cut.
func sanitizeExcerpt(body []byte, token string) string {
	return redact.Text(string(body), excerptLimit, redact.Secret{Value: token})
}

// ErrInconsistentAnswers marks a server that answered the same page with
// different records, again and again, within one run (answers.go).
var ErrInconsistentAnswers = errors.New("the server gave different answers to the same request")
