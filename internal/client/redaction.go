package client

import (
	"errors"
	"fmt"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// describeBody quotes the start of a body that is not JSON, redacted of the
// token before it is cut to 40 characters, so no piece of a token that
// straddles the cut survives; other decoding errors are returned as they are.
func (c *Client) describeBody(err error) error {
	var notJSON *pagejson.NotJSONError
	if !errors.As(err, &notJSON) {
		return err
	}
	return &notJSONError{err: notJSON, excerpt: redact.Text(notJSON.Start, 40, redact.Secret{Value: c.cfg.Token})}
}

// notJSONError is a body that is not JSON, with its redacted excerpt.
type notJSONError struct {
	err     *pagejson.NotJSONError
	excerpt string
}

func (e *notJSONError) Error() string { return fmt.Sprintf("%v (it starts %q)", e.err, e.excerpt) }
func (e *notJSONError) Unwrap() error { return e.err }

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
