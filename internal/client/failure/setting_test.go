package failure

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// namesBaseURL is an error that names a setting.
type namesBaseURL struct{ host string }

func (e *namesBaseURL) Error() string { return e.WordWith(ConfigNames) }

func (e *namesBaseURL) WordWith(name Namer) string {
	return fmt.Sprintf("redirected to %s: set %s", e.host, name(SettingBaseURL))
}

func provider(s Setting) string {
	if s == SettingBaseURL {
		return "base_url (or JOINIT_BASE_URL)"
	}
	return ConfigNames(s)
}

// Word reaches a setting through every wrapper a read puts around it: a
// PageError and a caller's fmt.Errorf.
func TestWordWalksTheChain(t *testing.T) {
	t.Parallel()
	inner := &namesBaseURL{host: "https://other.example"}
	err := fmt.Errorf("reading groups: %w", &PageError{Endpoint: "groups", Page: 1, Reason: "the request failed", Err: inner})
	if !errors.Is(err, inner) {
		t.Fatal("the chain is lost")
	}
	if plain := err.Error(); !strings.Contains(plain, "set Config.BaseURL") {
		t.Fatalf("Error() names Config's field: %s", plain)
	}
	if want := "reading groups: groups page 1: the request failed: redirected to https://other.example: set base_url (or JOINIT_BASE_URL)"; Word(err, provider) != want {
		t.Fatalf("worded\n got %s\nwant %s", Word(err, provider), want)
	}
}

// Redacted takes a secret out of a server's text (here a Go error quoting
// it) and keeps the chain; text without it is returned as it is.
func TestRedactedKeepsTheChain(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-token-value"
	cause := errors.New("malformed header \"" + secret + "\"")
	err := Redacted(cause, secret)
	if err.Error() != `malformed header "[redacted]"` || !errors.Is(err, cause) {
		t.Fatalf("Redacted = %q (chain kept: %v)", err, errors.Is(err, cause))
	}
	if clean := errors.New("connection refused"); Redacted(clean, secret) != clean { //nolint:errorlint // the very error, not one wrapping it
		t.Fatal("an error without the secret was wrapped")
	}
}

// An error that names no setting is its own message, however wrapped.
func TestWordLeavesOtherErrorsAlone(t *testing.T) {
	t.Parallel()
	err := fmt.Errorf("outer: %w", &PageError{Endpoint: "payments", Page: 2, Reason: "bad", Err: ErrNotAdvancing})
	if got := Word(err, provider); got != err.Error() {
		t.Fatalf("Word changed %q into %q", err.Error(), got)
	}
}

// An APIError names the settings its status points to.
func TestAPIErrorNamesTheSettingsToCheck(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]string{401: "check Config.Token", 404: "check Config.BaseURL and Config.Paths[groups]", 429: "lower Config.MaxConcurrency or raise Config.MaxRetries"} {
		if msg := (&APIError{Endpoint: "groups", Page: 1, Status: status}).Error(); !strings.Contains(msg, want) {
			t.Errorf("HTTP %d: %s lacks %q", status, msg, want)
		}
	}
}
