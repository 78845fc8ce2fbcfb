package main

import (
	"encoding/base64"
	"net/url"

	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// Limits, in characters, of what a server's words take in a message.
const (
	maxServerWords = 300
	maxMessage     = 600
)

// serverWords keeps a server's words safe for a terminal: the secrets are
// removed, control characters (escape sequences among them) become
// spaces, and the text is cut short, in that order.
func serverWords(s string, secrets []redact.Secret) string {
	return redact.Text(s, maxServerWords, secrets...)
}

// flowSecrets are the values of a run that must never be printed, with
// the labels that replace them: the client secret, the code, the PKCE
// verifier, and the Basic credentials x/oauth2 builds from the id and the
// secret (form-encoded, RFC 6749 §2.3.1). Empty values are skipped by
// package redact.
func flowSecrets(clientID, secret, code, verifier string) []redact.Secret {
	basic := ""
	if secret != "" {
		basic = base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(clientID) + ":" + url.QueryEscape(secret)))
	}
	return []redact.Secret{
		{Value: basic, Label: "[client credentials]"},
		{Value: secret, Label: "[client secret]"},
		{Value: code, Label: "[code]"},
		{Value: verifier, Label: "[code verifier]"},
	}
}
