package main

import (
	"io"
	"testing"
)

func TestOAuthFlags(t *testing.T) {
	t.Parallel()
	c, err := parseFlags([]string{"-oauth-client-id", "app", "-oauth-client-secret", "sec",
		"-oauth-legacy-path-only", "-oauth-form-credentials-only", "-oauth-deny"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o := c.opts.OAuth
	if o.ClientID != "app" || o.ClientSecret != "sec" || !o.LegacyTokenPathOnly || !o.FormCredentialsOnly || !o.Deny {
		t.Fatalf("parsed %+v", o)
	}
	c, err = parseFlags(nil, io.Discard)
	if err != nil || c.opts.OAuth.ClientID != "" {
		t.Fatalf("OAuth must be off by default: %+v, %v", c.opts.OAuth, err)
	}
	for _, half := range [][]string{{"-oauth-client-id", "app"}, {"-oauth-client-secret", "sec"}} {
		if _, err := parseFlags(half, io.Discard); err == nil {
			t.Errorf("%q accepted: id and secret go together", half)
		}
	}
}
