package main

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/oauth2"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// TestFlowSendsPKCE: against a server that requires PKCE (S256), the flow
// gets its token, so the challenge was sent and the verifier matched it.
func TestFlowSendsPKCE(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{}) // the sandbox requires S256 PKCE
	r := start(t, testEnv(t, testSecret), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser")
	authorize := r.authorizeURL(t, base)
	b := browse(t, authorize)
	if code := r.exitCode(t); code != exitOK {
		t.Fatalf("exit %d; page %q; stderr:\n%s", code, b.page, r.stderr.String())
	}
	if u, _ := url.Parse(authorize); u.Query().Get("code_challenge_method") != "S256" {
		t.Errorf("authorize URL %s: want code_challenge_method=S256", authorize)
	}
}

// TestRedirectURIRefusesLocalhost: localhost may resolve to ::1 as well
// as 127.0.0.1; the command listens on one, and another local user could
// take the other (RFC 8252 §8.3). It is refused with the address to use.
func TestRedirectURIRefusesLocalhost(t *testing.T) {
	t.Parallel()
	for _, uri := range []string{"http://localhost:8918/callback", "http://LOCALHOST:8918/callback"} {
		_, err := parseFlags([]string{"-auth-url", "https://auth.example", "-client-id", "x", "-redirect-uri", uri}, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "http://127.0.0.1:8918/callback") || !strings.Contains(err.Error(), "RFC 8252") {
			t.Errorf("%s: %v; want a refusal naming http://127.0.0.1:8918/callback", uri, err)
		}
	}
	for _, uri := range []string{"http://127.0.0.1:8918/callback", "http://[::1]:8918/callback"} {
		if _, err := parseFlags([]string{"-auth-url", "https://auth.example", "-client-id", "x", "-redirect-uri", uri}, io.Discard); err != nil {
			t.Errorf("%s refused: %v", uri, err)
		}
	}
}

// TestBrowserGetsNoJoinitVariables runs a JOINIT_BROWSER script that
// records its environment: the client secret must not be in it. Not
// parallel: it sets the process environment, as a user does.
func TestBrowserGetsNoJoinitVariables(t *testing.T) {
	dir := t.TempDir()
	record := filepath.Join(dir, "env")
	script := filepath.Join(dir, "browser")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nenv > "+record+".tmp && mv "+record+".tmp "+record+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(secretEnv, "secret-in-env-42")
	t.Setenv("JOINIT_ACCESS_TOKEN", "token-in-env-42")
	t.Setenv(browserEnv, script)
	t.Setenv("KEPT_FOR_THE_BROWSER", "yes")
	if err := processEnv.browse("https://auth.example/oauth2/authorize?x=1"); err != nil {
		t.Fatal(err)
	}
	var env []byte
	testutil.Eventually(t, "the browser command writes its environment", func() bool {
		b, err := os.ReadFile(record) // renamed into place whole
		env = b
		return err == nil
	})
	if len(env) == 0 {
		t.Fatal("the browser command ran with an empty environment")
	}
	if strings.Contains(string(env), "-in-env-42") || strings.Contains(string(env), "JOINIT_") {
		t.Errorf("the browser's environment holds JOINIT_ variables:\n%s", env)
	}
	if !strings.Contains(string(env), "KEPT_FOR_THE_BROWSER=yes") {
		t.Errorf("the rest of the environment was not passed on:\n%s", env)
	}
}

// TestOutIsCheckedItself: an -out that names a directory, or a file of
// another user in a sticky directory (which a rename cannot replace), is
// refused before the flow, while the code is still unspent.
func TestOutIsCheckedItself(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outs := map[string]string{"a directory": dir}
	if os.Geteuid() == 0 {
		shared := filepath.Join(dir, "shared")
		planted := filepath.Join(shared, "token")
		if err := os.Mkdir(shared, 0o777|os.ModeSticky); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(planted, nil, 0o666); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(planted, 4242, 4242); err != nil {
			t.Fatal(err)
		}
		outs["another user's file in a sticky directory"] = planted
	} else {
		t.Log("not root: the planted file of another user is not tried")
	}
	for name, out := range outs {
		base := startSandbox(t, sandbox.OAuthOptions{})
		r := start(t, testEnv(t, testSecret), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser", "-timeout", "2s", "-out", out)
		if code := r.exitCode(t); code != exitUsage || !strings.Contains(r.stderr.String(), "could not be written") {
			t.Errorf("%s: exit %d; stderr:\n%s", name, code, r.stderr.String())
		}
		if strings.Contains(r.stderr.String(), "/oauth2/authorize?") {
			t.Errorf("%s: the flow started:\n%s", name, r.stderr.String())
		}
	}
}

// TestFlowRescuesTokenWhenOutFails: when -out cannot be written at the end
// (here a directory appears there during the flow), the token, whose code
// is spent, is kept in a new 0600 file whose path is printed.
func TestFlowRescuesTokenWhenOutFails(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	tmp := t.TempDir()
	e := testEnv(t, testSecret)
	e.getenv = func(k string) string {
		switch k {
		case secretEnv:
			return testSecret
		case "TMPDIR":
			return tmp
		}
		return ""
	}
	out := filepath.Join(t.TempDir(), "token")
	r := start(t, e, "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser", "-out", out)
	authorize := r.authorizeURL(t, base)
	if err := os.Mkdir(out, 0o700); err != nil { // after the check, before the write
		t.Fatal(err)
	}
	browse(t, authorize)
	if code := r.exitCode(t); code != exitFailure {
		t.Fatalf("exit %d; stderr:\n%s", code, r.stderr.String())
	}
	m := regexp.MustCompile(`kept in (\S+) \(mode 0600\)`).FindStringSubmatch(r.stderr.String())
	if m == nil {
		t.Fatalf("no rescue file named; stderr:\n%s", r.stderr.String())
	}
	if filepath.Dir(m[1]) != tmp {
		t.Errorf("rescue file %s is not in the temporary directory %s", m[1], tmp)
	}
	fi, err := os.Stat(m[1])
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("rescue file: %v, %v; want mode 0600", fi, err)
	}
	raw, _ := os.ReadFile(m[1])
	if s := apiStatus(t, base, strings.TrimSpace(string(raw))); s != http.StatusOK {
		t.Errorf("the rescued token is refused: %d", s)
	}
	if strings.Contains(r.stderr.String(), strings.TrimSpace(string(raw))) {
		t.Error("the token is printed on stderr")
	}
}

// TestServerWordsRedactBeforeCutting: a token endpoint that echoes the
// secret or the code, in any spelling and wherever the 300-character cut
// falls, gets none of it printed.
func TestServerWordsRedactBeforeCutting(t *testing.T) {
	t.Parallel()
	const id, secret, code, verifier = "app", "s3cr/et+Z9-long-enough", "c0de/x-y-z", "vfy-0123456789abc"
	lowerHex := func(s string) string {
		return regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(s, strings.ToLower)
	}
	spellings := map[string]func(string) string{
		"raw":              func(s string) string { return s },
		"JSON-escaped":     func(s string) string { return strings.ReplaceAll(s, "/", `\/`) },
		"percent, upper":   url.QueryEscape,
		"percent, lower":   func(s string) string { return lowerHex(url.QueryEscape(s)) },
		"percent, in path": url.PathEscape,
	}
	for name, spell := range spellings {
		for _, v := range []string{secret, code, verifier} {
			for pad := 270; pad <= 300; pad++ {
				desc := strings.Repeat("x", pad) + spell(v) + " echoed"
				err := exchangeFailure(context.Background(), &oauth2.RetrieveError{
					Response: &http.Response{StatusCode: http.StatusBadRequest}, ErrorCode: "invalid_grant", ErrorDescription: desc,
				}, flowSecrets(id, secret, code, verifier))
				var f *failure
				if !errors.As(err, &f) {
					t.Fatalf("%v", err)
				}
				for i := 0; i+4 <= len(v); i++ {
					if piece := v[i : i+4]; strings.Contains(err.Error(), piece) || strings.Contains(err.Error(), spell(piece)) {
						t.Fatalf("%s, pad %d: %q of %q is printed: %s", name, pad, piece, v, err)
					}
				}
			}
		}
	}
}
