package client

import (
	"errors"

	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// withoutToken returns err with the token removed from its message, in
// every spelling package redact knows. Errors about a page repeat what the
// server sent (a body that is not JSON, a field name, a redirect's host), and
// a hostile server may send the token back. The error chain is kept, for
// errors.Is and errors.As.
func (c *Client) withoutToken(err error) error {
	if err == nil {
		return nil
	}
	var notJSON *notJSONError
	if errors.As(err, &notJSON) {
		notJSON.token = c.cfg.Token // its excerpt is redacted before it is cut
	}
	msg := err.Error()
	clean := redact.Text(msg, 0, redact.Secret{Value: c.cfg.Token})
	if clean == msg {
		return err
	}
	return &redactedError{err: err, msg: clean}
}

// redactedError is an error whose message had the token removed.
type redactedError struct {
	err error
	msg string
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// ServerText makes a value the server sent fit for a message: the token
// removed in every spelling, control characters made spaces, and cut to
// limit characters (0: not cut).
func (c *Client) ServerText(s string, limit int) string {
	return redact.Text(s, limit, redact.Secret{Value: c.cfg.Token})
}

// Scrubber returns the last redaction text passes before it leaves the
// provider (a diagnostic, a log field): every spelling of the token
// removed, nothing else changed. The provider applies it to everything it
// sends Terraform, so that a message built anywhere, now or later, cannot
// carry the token out.
func Scrubber(token string) func(string) string {
	return func(s string) string { return redact.Secrets(s, redact.Secret{Value: token}) }
}
