package sandbox

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

const (
	testClientID     = "app-key-1"
	testClientSecret = "s3cret/with+odd&chars"
	testRedirect     = "http://127.0.0.1:9/callback"
)

// noRedirects stops at the authorize answer so the test can read Location.
var noRedirects = &http.Client{
	Timeout:       hangLimit,
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

func oauthServerFor(t *testing.T, o OAuthOptions) (*Server, string) {
	t.Helper()
	o.ClientID, o.ClientSecret = testClientID, testClientSecret
	return StartForTest(t, Options{Memberships: 3, OAuth: o})
}

// authorizeCode runs the authorize step and returns the redirect's query.
func authorizeCode(t *testing.T, base string, q url.Values) url.Values {
	t.Helper()
	resp, err := noRedirects.Get(base + OAuthAuthorizePath + "?" + q.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("authorize: status %d, want 302", resp.StatusCode)
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || loc.Scheme+"://"+loc.Host+loc.Path != testRedirect {
		t.Fatalf("authorize redirected to %q (%v), want %s", resp.Header.Get("Location"), err, testRedirect)
	}
	return loc.Query()
}

func authorizeQuery() url.Values {
	return url.Values{"response_type": {"code"}, "client_id": {testClientID}, "redirect_uri": {testRedirect}, "state": {"st-1"},
		"code_challenge": {s256Of(testVerifier)}, "code_challenge_method": {"S256"}}
}

// testVerifier is the PKCE verifier of authorizeQuery's challenge, which
// codeForm sends.
const testVerifier = "a-verifier-of-forty-three-characters-at-least-0123"

func s256Of(verifier string) string {
	sum := sha256.Sum256([]byte(verifier))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

type tokenAnswer struct {
	status int
	body   map[string]string
}

// exchange posts to a token path with the credentials as form fields or,
// with basic, as HTTP Basic (form-encoded first, as RFC 6749 §2.3.1 says).
func exchange(t *testing.T, base, path string, form url.Values, basic bool, id, secret string) tokenAnswer {
	t.Helper()
	form = cloneValues(form)
	if !basic {
		form.Set("client_id", id)
		form.Set("client_secret", secret)
	}
	req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if basic {
		req.SetBasicAuth(url.QueryEscape(id), url.QueryEscape(secret))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	a := tokenAnswer{status: resp.StatusCode}
	_ = json.NewDecoder(resp.Body).Decode(&a.body)
	return a
}

func cloneValues(v url.Values) url.Values {
	c := url.Values{}
	for k, vs := range v {
		c[k] = append([]string(nil), vs...)
	}
	return c
}

func codeForm(code string) url.Values {
	return url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {testRedirect}, "code_verifier": {testVerifier}}
}

func memberStatus(t *testing.T, base, token string) int {
	t.Helper()
	r, err := getErr(t.Context(), http.DefaultClient, base+DefaultPaths()[EndpointMemberships], nil, token)
	if err != nil {
		t.Fatal(err)
	}
	return r.status
}

func TestOAuthFlowIssuesAcceptedTokens(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		path  string
		basic bool
		grant string // "" leaves grant_type out, as the documentation's sample does
	}{
		{"oauth2 path, basic", OAuthTokenPath, true, "authorization_code"},
		{"oauth2 path, form", OAuthTokenPath, false, "authorization_code"},
		{"legacy path, basic", OAuthLegacyTokenPath, true, "authorization_code"},
		{"legacy path, form, no grant type", OAuthLegacyTokenPath, false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, base := oauthServerFor(t, OAuthOptions{})
			got := authorizeCode(t, base, authorizeQuery())
			if got.Get("state") != "st-1" || got.Get("code") == "" {
				t.Fatalf("redirect query %v: want the state back and a code", got)
			}
			form := codeForm(got.Get("code"))
			if tc.grant == "" {
				form.Del("grant_type")
			}
			a := exchange(t, base, tc.path, form, tc.basic, testClientID, testClientSecret)
			if a.status != http.StatusOK || a.body["token_type"] != "Bearer" || a.body["scope"] != "all" || a.body["access_token"] == "" {
				t.Fatalf("token answer %d %v", a.status, a.body)
			}
			if _, ok := a.body["expires_in"]; ok {
				t.Error("expires_in present: the API's tokens do not expire")
			}
			if s := memberStatus(t, base, a.body["access_token"]); s != http.StatusOK {
				t.Errorf("memberships with the issued token: %d", s)
			}
			if s := memberStatus(t, base, DefaultToken); s != http.StatusOK {
				t.Errorf("memberships with the static token: %d", s)
			}
			if s := memberStatus(t, base, a.body["access_token"]+"x"); s != http.StatusUnauthorized {
				t.Errorf("memberships with a made-up token: %d", s)
			}
		})
	}
}

func TestOAuthIDTokenNamesTheUser(t *testing.T) {
	t.Parallel()
	_, base := oauthServerFor(t, OAuthOptions{})
	code := authorizeCode(t, base, authorizeQuery()).Get("code")
	a := exchange(t, base, OAuthTokenPath, codeForm(code), true, testClientID, testClientSecret)
	parts := strings.Split(a.body["id_token"], ".")
	if len(parts) != 3 {
		t.Fatalf("id_token %q is not a JWT", a.body["id_token"])
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[1])
	var claims map[string]any
	if err == nil {
		err = json.Unmarshal(raw, &claims)
	}
	if err != nil || claims["sub"] == "" || claims["email"] == nil || claims["aud"] != testClientID {
		t.Fatalf("claims %v, %v", claims, err)
	}
}

func TestOAuthTokenRefusals(t *testing.T) {
	t.Parallel()
	_, base := oauthServerFor(t, OAuthOptions{})
	code := authorizeCode(t, base, authorizeQuery()).Get("code")

	// A wrong secret, in either style, is 401 invalid_client and does not
	// burn the code: the client may just have guessed the style wrong.
	for _, basic := range []bool{true, false} {
		if a := exchange(t, base, OAuthTokenPath, codeForm(code), basic, testClientID, "wrong"); a.status != 401 || a.body["error"] != "invalid_client" {
			t.Errorf("wrong secret (basic=%v): %d %v", basic, a.status, a.body)
		}
	}
	if a := exchange(t, base, OAuthTokenPath, codeForm(code), false, "other-app", testClientSecret); a.status != 401 {
		t.Errorf("wrong client id: %d", a.status)
	}
	bad := codeForm(code)
	bad.Set("grant_type", "client_credentials")
	if a := exchange(t, base, OAuthTokenPath, bad, false, testClientID, testClientSecret); a.body["error"] != "unsupported_grant_type" {
		t.Errorf("other grant type: %d %v", a.status, a.body)
	}
	if a := exchange(t, base, OAuthTokenPath, codeForm(code), true, testClientID, testClientSecret); a.status != 200 {
		t.Fatalf("first use of the code after refusals: %d %v", a.status, a.body)
	}
	if a := exchange(t, base, OAuthTokenPath, codeForm(code), true, testClientID, testClientSecret); a.status != 400 || a.body["error"] != "invalid_grant" {
		t.Errorf("second use of the code: %d %v", a.status, a.body)
	}

	code = authorizeCode(t, base, authorizeQuery()).Get("code")
	other := codeForm(code)
	other.Set("redirect_uri", "http://127.0.0.1:9/elsewhere")
	if a := exchange(t, base, OAuthTokenPath, other, true, testClientID, testClientSecret); a.body["error"] != "invalid_grant" {
		t.Errorf("different redirect_uri: %d %v", a.status, a.body)
	}
	resp, err := http.Get(base + OAuthTokenPath)
	if err != nil {
		t.Fatalf("GET token endpoint: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET token endpoint: HTTP %d, want 405", resp.StatusCode)
	}
}

func TestOAuthCodeExpires(t *testing.T) {
	t.Parallel()
	s, base := oauthServerFor(t, OAuthOptions{CodeTTL: time.Second})
	clock := time.Now()
	s.oauth.now = func() time.Time { return clock } // set before any request, then only read
	code := authorizeCode(t, base, authorizeQuery()).Get("code")
	s.oauth.mu.Lock()
	clock = clock.Add(2 * time.Second)
	s.oauth.mu.Unlock()
	if a := exchange(t, base, OAuthTokenPath, codeForm(code), true, testClientID, testClientSecret); a.body["error"] != "invalid_grant" {
		t.Errorf("expired code: %d %v", a.status, a.body)
	}
}

func TestOAuthFallbackModes(t *testing.T) {
	t.Parallel()
	_, legacy := oauthServerFor(t, OAuthOptions{LegacyTokenPathOnly: true})
	code := authorizeCode(t, legacy, authorizeQuery()).Get("code")
	if a := exchange(t, legacy, OAuthTokenPath, codeForm(code), true, testClientID, testClientSecret); a.status != 404 {
		t.Errorf("legacy-only server, /oauth2/token: %d", a.status)
	}
	if a := exchange(t, legacy, OAuthLegacyTokenPath, codeForm(code), true, testClientID, testClientSecret); a.status != 200 {
		t.Errorf("legacy-only server, /oauth/token: %d %v", a.status, a.body)
	}

	_, formOnly := oauthServerFor(t, OAuthOptions{FormCredentialsOnly: true})
	code = authorizeCode(t, formOnly, authorizeQuery()).Get("code")
	if a := exchange(t, formOnly, OAuthTokenPath, codeForm(code), true, testClientID, testClientSecret); a.status != 401 {
		t.Errorf("form-only server, basic credentials: %d", a.status)
	}
	if a := exchange(t, formOnly, OAuthTokenPath, codeForm(code), false, testClientID, testClientSecret); a.status != 200 {
		t.Errorf("form-only server, form credentials: %d %v", a.status, a.body)
	}
}

func TestOAuthAuthorizeRefusals(t *testing.T) {
	t.Parallel()
	_, base := oauthServerFor(t, OAuthOptions{})
	for name, mutate := range map[string]func(url.Values){
		"unknown client":        func(q url.Values) { q.Set("client_id", "nope") },
		"remote redirect":       func(q url.Values) { q.Set("redirect_uri", "http://example.com/cb") },
		"not a URL":             func(q url.Values) { q.Set("redirect_uri", "::not a url") },
		"fragment in redirect":  func(q url.Values) { q.Set("redirect_uri", testRedirect+"#x") },
		"missing redirect":      func(q url.Values) { q.Del("redirect_uri") },
		"missing client":        func(q url.Values) { q.Del("client_id") },
		"https loopback is odd": func(q url.Values) { q.Set("redirect_uri", "https://127.0.0.1:9/callback") },
	} {
		q := authorizeQuery()
		mutate(q)
		resp, err := noRedirects.Get(base + OAuthAuthorizePath + "?" + q.Encode())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest || resp.Header.Get("Location") != "" {
			t.Errorf("%s: %d, Location %q; want 400 and no redirect", name, resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	q := authorizeQuery()
	q.Set("response_type", "token")
	if got := authorizeCode(t, base, q); got.Get("error") != "unsupported_response_type" || got.Get("code") != "" {
		t.Errorf("implicit flow: %v", got)
	}

	_, denying := oauthServerFor(t, OAuthOptions{Deny: true})
	if got := authorizeCode(t, denying, authorizeQuery()); got.Get("error") != "access_denied" || got.Get("state") != "st-1" || got.Get("code") != "" {
		t.Errorf("denied: %v", got)
	}
}

func TestOAuthOffByDefault(t *testing.T) {
	t.Parallel()
	_, base := StartForTest(t, Options{})
	for _, p := range []string{OAuthAuthorizePath, OAuthTokenPath, OAuthLegacyTokenPath} {
		resp, err := noRedirects.Get(base + p)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotFound {
			t.Errorf("%s without OAuth: %d, want 404", p, resp.StatusCode)
		}
	}
}

func TestOAuthLogHoldsNoSecrets(t *testing.T) {
	t.Parallel()
	var lines []string
	s, base := StartForTest(t, Options{OAuth: OAuthOptions{ClientID: testClientID, ClientSecret: testClientSecret},
		Logf: func(f string, a ...any) {
			lines = append(lines, strings.TrimSpace(strings.ReplaceAll(f, "%", "")))
			for _, v := range a {
				if str, ok := v.(string); ok {
					lines = append(lines, str)
				}
			}
		}})
	code := authorizeCode(t, base, authorizeQuery()).Get("code")
	a := exchange(t, base, OAuthTokenPath, codeForm(code), false, testClientID, testClientSecret)
	s.Close() // no request is in flight after this, so lines can be read
	all := strings.Join(lines, "\n")
	if !strings.Contains(all, OAuthTokenPath) {
		t.Fatalf("log %q does not show the token request", all)
	}
	for _, secret := range []string{code, testClientSecret, a.body["access_token"]} {
		if secret == "" || strings.Contains(all, secret) {
			t.Errorf("log holds %q (or it is empty): %q", secret, all)
		}
	}
}
