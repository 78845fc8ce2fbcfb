package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// RetryWaitError is a server asking, with Retry-After, for a longer wait
// than the client may make.
type RetryWaitError struct {
	Status int           // 429 or 503
	Wait   time.Duration // what the server asked for
	Max    time.Duration // Config.MaxRetryWait
}

func (e *RetryWaitError) Error() string { return e.WordWith(failure.ConfigNames) }

// WordWith words the wait setting.
func (e *RetryWaitError) WordWith(name failure.Namer) string {
	wait := name(failure.SettingMaxRetryWait)
	return fmt.Sprintf("the API answered HTTP %d and asked to wait %s before retrying (Retry-After), longer than %s (%s): "+
		"try again later, or raise %s to wait that long", e.Status, e.Wait, wait, e.Max, wait)
}

// notAPageError is a 2xx answer whose body is not a page (a maintenance
// page, an error object, a cut-off answer); it is retried like a 5xx.
type notAPageError struct {
	Status int
	Err    error
}

func (e *notAPageError) Error() string { return e.WordWith(failure.ConfigNames) }

// WordWith words the error Accept returned.
func (e *notAPageError) WordWith(name failure.Namer) string {
	return fmt.Sprintf("the answer (HTTP %d) is not a page: %s", e.Status, failure.Word(e.Err, name))
}

func (e *notAPageError) Unwrap() error { return e.Err }

// webPageRetries is how often a 2xx web page is asked again before the
// client took any page: enough for a maintenance page that is
// gone in a moment, not the seconds of every retry for a base URL that
// names a web site. After a page it is retried as any 5xx.
const webPageRetries = 2

// webPageError is a 2xx answer that says it is a web page (text/html):
// most often a base URL that names the service's web site, not its API.
type webPageError struct {
	Status int
}

func (e *webPageError) Error() string { return e.WordWith(failure.ConfigNames) }

func (e *webPageError) WordWith(name failure.Namer) string {
	return fmt.Sprintf("the answer (HTTP %d) is a web page (text/html), not the API's JSON: when it comes back on every plan, "+
		"check that %s names the API (unset, it is %s) and not a web site; a maintenance page goes away: plan again later",
		e.Status, name(failure.SettingBaseURL), apispec.DefaultBaseURL)
}

// Final marks an error of Request.Accept that no retry can change: the
// request fails at once with it.
func Final(err error) error { return &finalError{err: err} }

type finalError struct{ err error }

func (e *finalError) Error() string { return e.err.Error() }
func (e *finalError) Unwrap() error { return e.err }

// WordWith words the error it marks.
func (e *finalError) WordWith(name failure.Namer) string { return failure.Word(e.err, name) }

func isFinal(err error) bool {
	var f *finalError
	return errors.As(err, &f)
}

type bodyTooLargeError struct{ limit int64 }

func (e *bodyTooLargeError) Error() string {
	return fmt.Sprintf("the response body is larger than %d bytes", e.limit)
}

// apiMessageLimit is how many characters of what the API said are shown.
const apiMessageLimit = 120

// apiMessage is the "message", else "error", string of a JSON body,
// redacted and cut; any other body gives "".
func apiMessage(body []byte, token string) string {
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) != nil {
		return ""
	}
	for _, name := range []string{"message", "error"} {
		var said string
		if json.Unmarshal(members[name], &said) == nil && said != "" {
			return redact.Text(said, apiMessageLimit, redact.Secret{Value: token})
		}
	}
	return ""
}

// inOwnWords replaces an error of Go's HTTP client by its text without
// what Go quoted of the server's answer (`bad Content-Length "…"`, a
// malformed status line or header), and a certificate's by the client's
// words (certificateWords): a server could spell the token there in a way
// no redaction finds. The error stays in the chain for errors.Is; the
// errors of this package and of Request.Accept keep their own words.
func inOwnWords(err error) error {
	var worded failure.Worded
	var tooLarge *bodyTooLargeError
	switch {
	case errors.As(err, &worded), errors.As(err, &tooLarge), errors.Is(err, errTooManyRedirects), errors.Is(err, context.Canceled):
		return err
	case isCertificateError(err):
		return &goError{what: certificateWords(err), err: err}
	}
	return &goError{what: goQuoted.ReplaceAllString(err.Error(), `"…"`), err: err}
}

// goQuoted is a Go-quoted string in an error's text: what Go's HTTP client
// quotes is what the server sent.
var goQuoted = regexp.MustCompile(`"(?:[^"\\]|\\.)*"`)

// goError is an error of Go's HTTP client without the server's words.
type goError struct {
	what string
	err  error
}

func (e *goError) Error() string { return e.what }
func (e *goError) Unwrap() error { return e.err }

// scrubURLError drops *url.Error's repetition of the URL.
func scrubURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// attemptTimeoutError is an attempt that passed request_timeout.
type attemptTimeoutError struct{ limit time.Duration }

func (e *attemptTimeoutError) Error() string { return e.WordWith(failure.ConfigNames) }

// WordWith words the timeout setting.
func (e *attemptTimeoutError) WordWith(name failure.Namer) string {
	return fmt.Sprintf("no complete answer within %s (%s)", name(failure.SettingTimeout), e.limit)
}

var errTooManyRedirects = errors.New("the API redirected more than 10 times")
