package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/oauth2"
)

func TestHelpExplainsEveryFlagAndExitCode(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	if code := testEnv(t, "").run(t.Context(), []string{"-h"}, strings.NewReader(""), io.Discard, &stderr); code != exitOK {
		t.Fatalf("-h: exit %d", code)
	}
	help := stderr.String()
	for _, want := range []string{"-auth-url", "-client-id", "-redirect-uri", "-out", "-no-browser", "-timeout",
		secretEnv, browserEnv, "/oauth2/authorize", "/oauth/token", "8 Join It cannot be reached",
		"required: the application key", "required: the registered redirect", "the guide \"Getting an access token\""} {
		if !strings.Contains(help, want) {
			t.Errorf("-h lacks %q", want)
		}
	}
	// A synopsis and an example first, for a user who reads ten lines.
	if !strings.HasPrefix(help, "Usage: joinit-token -client-id ID -redirect-uri ") || !strings.Contains(strings.Join(strings.Split(help, "\n")[:12], "\n"), "export JOINIT_ACCESS_TOKEN=$(") {
		t.Errorf("-h does not open with the synopsis and an example:\n%s", help)
	}
	if strings.Contains(help, "specification") {
		t.Errorf("-h cites the API specification, which users do not have")
	}
}

// -version prints the version and exits, needing no other flag and no
// secret.
func TestVersion(t *testing.T) {
	t.Parallel()
	var stdout, stderr bytes.Buffer
	if code := testEnv(t, "").run(t.Context(), []string{"-version"}, strings.NewReader(""), &stdout, &stderr); code != exitOK {
		t.Fatalf("-version: exit %d: %s", code, stderr.String())
	}
	if !strings.HasPrefix(stdout.String(), "joinit-token dev (go") || stderr.Len() != 0 {
		t.Fatalf("-version printed %q, and %q on stderr", stdout.String(), stderr.String())
	}
}

func TestFlagsRefuse(t *testing.T) {
	t.Parallel()
	good := map[string]string{"-auth-url": "https://auth.example.com/", "-client-id": "app", "-redirect-uri": "http://127.0.0.1:8910/callback"}
	args := func(change map[string]string) []string {
		var a []string
		for k, v := range good {
			if nv, ok := change[k]; ok {
				v = nv
			}
			if v != "" {
				a = append(a, k, v)
			}
		}
		return a
	}
	c, err := parseFlags(args(nil), io.Discard)
	if err != nil || c.authorizeURL != "https://auth.example.com/oauth2/authorize" || c.redirect.Port() != "8910" ||
		!slices.Equal(c.tokenURLs, []string{"https://auth.example.com/oauth2/token", "https://auth.example.com/oauth/token"}) {
		t.Fatalf("good flags: %+v, %v", c, err)
	}
	// Without -auth-url, the service's two hosts: it authorizes on one and
	// issues tokens on the other.
	c, err = parseFlags(args(map[string]string{"-auth-url": ""}), io.Discard)
	if err != nil || c.authorizeURL != "https://app.joinit.com/oauth2/authorize" || !slices.Equal(c.tokenURLs, []string{"https://app.joinitapi.com/oauth2/token"}) {
		t.Fatalf("default endpoints: %+v, %v", c, err)
	}
	for flags, want := range map[string]string{
		"-auth-url https://auth.example.com -token-url https://t.example.com/token": "give it, or them, not both",
		"-token-url http://t.example.com/token":                                     `-token-url http://t.example.com uses http on "t.example.com", which is not a loopback host (127.0.0.0/8, ::1, localhost): only https is allowed off loopback, so that the client secret never crosses a network in clear text.`,
		"-token-url http://locahost:8080/token":                                     `-token-url http://locahost:8080 uses http on "locahost", which is not a loopback host (127.0.0.0/8, ::1, localhost): only https is allowed off loopback, so that the client secret never crosses a network in clear text. Did you mean "localhost"?`,
		"-authorize-url https://a.example.com/authorize?x=1":                        "-authorize-url https://a.example.com must not carry",
	} {
		_, err := parseFlags(append(args(map[string]string{"-auth-url": ""}), strings.Fields(flags)...), io.Discard)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error saying %q", flags, err, want)
		}
	}
	if _, err := parseFlags(args(map[string]string{"-auth-url": "http://localhost:8080"}), io.Discard); err != nil {
		t.Errorf("http on loopback refused: %v", err)
	}
	for name, change := range map[string]map[string]string{
		"http auth URL off loopback": {"-auth-url": "http://auth.example.com"},
		"auth URL with a query":      {"-auth-url": "https://auth.example.com/?a=b"},
		"auth URL not absolute":      {"-auth-url": "auth.example.com"},
		"no client id":               {"-client-id": ""},
		"https redirect":             {"-redirect-uri": "https://127.0.0.1:8910/callback"},
		"remote redirect":            {"-redirect-uri": "http://example.com:8910/callback"},
		"redirect without port":      {"-redirect-uri": "http://127.0.0.1/callback"},
		"redirect port 0":            {"-redirect-uri": "http://127.0.0.1:0/callback"},
		"no redirect":                {"-redirect-uri": ""},
	} {
		if _, err := parseFlags(args(change), io.Discard); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	for _, extra := range [][]string{{"-client-secret", "x"}, {"-timeout", "0s"}, {"stray"}} {
		if _, err := parseFlags(append(args(nil), extra...), io.Discard); err == nil {
			t.Errorf("%q accepted", extra)
		}
	}
	var stderr bytes.Buffer
	if code := testEnv(t, "s").run(t.Context(), []string{"-client-id", "x"}, strings.NewReader(""), io.Discard, &stderr); code != exitUsage {
		t.Errorf("missing flags: exit %d, want %d", code, exitUsage)
	}
}

func TestReadSecret(t *testing.T) {
	t.Parallel()
	fromEnv := func(v string) func(string) string {
		return func(k string) string {
			if k == secretEnv {
				return v
			}
			return ""
		}
	}
	if s, err := readSecret(fromEnv("env-secret"), strings.NewReader("stdin-secret\n"), io.Discard); err != nil || s != "env-secret" {
		t.Errorf("environment first: %q, %v", s, err)
	}
	if s, err := readSecret(fromEnv(""), strings.NewReader("stdin secret\r\nmore\n"), io.Discard); err != nil || s != "stdin secret" {
		t.Errorf("first line of piped stdin: %q, %v", s, err)
	}
	if _, err := readSecret(fromEnv(""), strings.NewReader(""), io.Discard); err == nil || !strings.Contains(err.Error(), secretEnv) {
		t.Errorf("no secret anywhere: %v", err)
	}
	var stderr bytes.Buffer
	code := testEnv(t, "").run(t.Context(), []string{"-auth-url", "https://a.example", "-client-id", "x", "-redirect-uri", "http://127.0.0.1:1/cb"},
		strings.NewReader(""), io.Discard, &stderr)
	if code != exitUsage {
		t.Errorf("run without a secret: exit %d, want %d", code, exitUsage)
	}
}

func TestWriteTokenFileReplacesWithPrivateFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "token")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeTokenFile(path, "tok-123"); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	fi, _ := os.Stat(path)
	if string(b) != "tok-123\n" || fi.Mode().Perm() != 0o600 {
		t.Errorf("file %q mode %v", b, fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries, want the token file alone", len(entries))
	}
	if err := writeTokenFile(filepath.Join(dir, "missing", "token"), "x"); err == nil {
		t.Error("a missing directory was accepted")
	}
}

func TestDecodeIDToken(t *testing.T) {
	t.Parallel()
	// {"sub":"u-1","email":"a@example.com"}, with a signature nobody checks.
	c, err := decodeIDToken("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1LTEiLCJlbWFpbCI6ImFAZXhhbXBsZS5jb20ifQ.c2ln")
	if err != nil || c.Subject != "u-1" || c.Email != "a@example.com" {
		t.Errorf("claims %+v, %v", c, err)
	}
	for _, bad := range []string{"", "a.b", "a.!!!.c", "a.bm90IGpzb24.c"} {
		if _, err := decodeIDToken(bad); err == nil {
			t.Errorf("%q decoded", bad)
		}
	}
}

// TestExchangeFailureScrubs checks the exit codes chosen for token
// endpoint refusals and that an echoing server cannot make the command
// print the secret or the code.
func TestExchangeFailureScrubs(t *testing.T) {
	t.Parallel()
	refusal := func(status int, code, desc string) error {
		return &oauth2.RetrieveError{Response: &http.Response{StatusCode: status}, ErrorCode: code, ErrorDescription: desc}
	}
	const id, secret, code = "app", "s3cr et/+&", "c0de/x y"
	basic := base64.StdEncoding.EncodeToString([]byte(url.QueryEscape(id) + ":" + url.QueryEscape(secret)))
	echo := "bad secret " + secret + " / " + url.QueryEscape(secret) + " / Basic " + basic + " / code " + url.QueryEscape(code)
	for _, tc := range []struct {
		err  error
		want int
	}{
		{refusal(401, "invalid_client", echo), exitBadClient},
		{refusal(400, "invalid_client", ""), exitBadClient},
		{refusal(400, "invalid_grant", "code "+code+" used"), exitFailure},
		{refusal(500, "", ""), exitFailure},
		{&url.Error{Op: "Post", URL: "https://auth.example/oauth2/token", Err: errors.New("dial tcp: connection refused")}, exitUnreachable},
		// It answered 200, but not with a token: not "unreachable".
		{errors.New("oauth2: server response missing access_token"), exitFailure},
		{errors.New("oauth2: cannot parse json: " + echo), exitFailure},
	} {
		err := exchangeFailure(context.Background(), tc.err, flowSecrets(id, secret, code, ""))
		var f *failure
		if !errors.As(err, &f) || f.code != tc.want {
			t.Errorf("%v: %v, want exit %d", tc.err, err, tc.want)
			continue
		}
		for _, leak := range []string{secret, url.QueryEscape(secret), basic, code, url.QueryEscape(code)} {
			if strings.Contains(f.Error(), leak) {
				t.Errorf("%v: message %q shows %q", tc.err, f.Error(), leak)
			}
		}
	}
	// A server's words reach the terminal without control characters.
	err := exchangeFailure(context.Background(), refusal(400, "invalid_grant", "bad\x1b[2J\x1b]0;owned\x07 code\n"+strings.Repeat("x", 500)), flowSecrets(id, secret, code, ""))
	if msg := err.Error(); strings.ContainsAny(msg, "\x1b\x07\n") || len(msg) > 500 {
		t.Errorf("error_description printed raw: %q", msg)
	}
	// Interrupted: neither unreachable nor refused.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var f *failure
	if err := exchangeFailure(ctx, &url.Error{Op: "Post", URL: "x", Err: context.Canceled}, flowSecrets(id, secret, code, "")); errors.As(err, &f) || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("cancelled exchange: %v", err)
	}
}
