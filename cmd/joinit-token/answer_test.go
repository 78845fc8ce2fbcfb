package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// A token endpoint that answers with the client secret where a field of
// another type belongs: the failure names the field and its JSON type, and
// holds the secret in no spelling (x/oauth2's own error quotes the value
// it could not read, Go-quoted).
func TestTokenAnswerOfTheWrongShapeNamesTheFieldNotTheValue(t *testing.T) {
	t.Parallel()
	secret := `s3cr"et/é-\Z9`
	js, _ := json.Marshal(secret)
	for name, tc := range map[string]struct {
		body, want string
	}{
		"expires_in a string":   {fmt.Sprintf(`{"access_token":"tok","token_type":"Bearer","expires_in":%s}`, js), "expires_in is a JSON string, not a number"},
		"access_token a number": {`{"access_token":12345,"token_type":"Bearer"}`, "access_token is a JSON number, not a string"},
		"token_type an object":  {fmt.Sprintf(`{"access_token":"tok","token_type":{"v":%s}}`, js), "token_type is a JSON object, not a string"},
		"not JSON":              {"<html>" + secret + "</html>", "the answer is not a JSON object"},
		"cut JSON":              {fmt.Sprintf(`{"access_token":%s`, js), "the answer is not valid JSON"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, tc.body)
			}))
			t.Cleanup(srv.Close)
			c := &config{authorizeURL: srv.URL + authorizePath, tokenURLs: []string{srv.URL + tokenPath, srv.URL + legacyTokenPath}, clientID: testClientID, redirectRaw: "http://127.0.0.1:8910/callback"}
			_, err := exchangeCode(context.Background(), srv.Client(), c, secret, "the-code", "the-verifier", func(string, ...any) {})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to say %q", err, tc.want)
			}
			q := strconv.Quote(string(js))
			for _, spelled := range []string{secret, string(js[1 : len(js)-1]), q[1 : len(q)-1], url.QueryEscape(secret)} {
				if strings.Contains(err.Error(), spelled) {
					t.Fatalf("error %q holds the secret as %q", err, spelled)
				}
			}
		})
	}
}

// Only a Bearer token (any case) of printable ASCII without white space is
// written: a "mac" or "DPoP" token, one without token_type, and one that
// holds a newline, a space or a terminal escape sequence fail, naming the
// field; the value reaches neither stdout nor stderr.
func TestOnlyAPrintableBearerTokenIsWritten(t *testing.T) {
	t.Parallel()
	const good = "tok-AZaz09._~+/="
	for name, tc := range map[string]struct {
		tokenType, token, want string
	}{
		"bearer in lower case": {"bearer", good, ""},
		"mac":                  {"mac", good, "token_type is not Bearer"},
		"DPoP":                 {"DPoP", good, "token_type is not Bearer"},
		"no token_type":        {"", good, "no token_type"},
		"a newline":            {"Bearer", "tok\nX-Evil: 1", "access_token holds a character"},
		"a space":              {"Bearer", "tok en", "access_token holds a character"},
		"a terminal escape":    {"Bearer", "tok\x1b]0;pwned\x07\x1b[2J", "access_token holds a character"},
		"not ASCII":            {"Bearer", "tokén", "access_token holds a character"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			answer, _ := json.Marshal(map[string]string{"access_token": tc.token, "token_type": tc.tokenType})
			if tc.tokenType == "" {
				answer, _ = json.Marshal(map[string]string{"access_token": tc.token})
			}
			auth := approvingAuthServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write(answer)
			})
			r := start(t, testEnv(t, testSecret), "-auth-url", auth.URL, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser")
			go func() { _, _ = browseErr(r.authorizeURL(t, auth.URL)) }()
			code := r.exitCode(t)
			out, errOut := r.stdout.String(), r.stderr.String()
			if tc.want == "" {
				if code != 0 || strings.TrimSpace(out) != tc.token {
					t.Fatalf("exit %d, stdout %q; stderr:\n%s", code, out, errOut)
				}
				return
			}
			if code != exitFailure || !strings.Contains(errOut, tc.want) {
				t.Fatalf("exit %d, want a failure saying %q; stderr:\n%s", code, tc.want, errOut)
			}
			if out != "" {
				t.Fatalf("stdout %q, want nothing", out)
			}
			for _, leak := range []string{tc.token, "\x1b", "pwned", "X-Evil", "DPoP"} {
				if strings.Contains(errOut, leak) {
					t.Fatalf("%q reached stderr:\n%s", leak, errOut)
				}
			}
		})
	}
}
