package client

import (
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// ServerText makes a value the server sent fit for a message: the token
// removed in every spelling, control characters made spaces, and cut to
// limit characters (0: not cut).
func (c *Client) ServerText(s string, limit int) string {
	return redact.Text(s, limit, redact.Secret{Value: c.cfg.Token})
}
