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
// PageError, the redaction of a secret the server echoed (which changes
// the text, so no text could be found and replaced), and a caller's
// fmt.Errorf.
func TestWordWalksTheChain(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-token-value"
	inner := &namesBaseURL{host: "https://" + secret + ".example"}
	err := fmt.Errorf("reading groups: %w", Redacted(&PageError{Endpoint: "groups", Page: 1, Reason: "the request failed", Err: inner}, secret))
	if !errors.Is(err, inner) {
		t.Fatal("the chain is lost")
	}
	plain := err.Error()
	worded := Word(err, provider)
	for _, msg := range []string{plain, worded} {
		if strings.Contains(msg, secret) {
			t.Fatalf("the secret survived: %s", msg)
		}
	}
	if !strings.Contains(plain, "set Config.BaseURL") {
		t.Fatalf("Error() names Config's field: %s", plain)
	}
	if want := "reading groups: groups page 1: the request failed: redirected to https://[redacted].example: set base_url (or JOINIT_BASE_URL)"; worded != want {
		t.Fatalf("worded\n got %s\nwant %s", worded, want)
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
