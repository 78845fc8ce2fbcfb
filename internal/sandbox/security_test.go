package sandbox

import (
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestHostMustNameTheSandbox: a request whose Host is not the sandbox's own
// address (DNS rebinding: a page on evil.example whose name now resolves to
// 127.0.0.1) is refused before anything else, the OAuth endpoints too.
func TestHostMustNameTheSandbox(t *testing.T) {
	t.Parallel()
	_, base := StartForTest(t, Options{Memberships: 2, OAuth: OAuthOptions{ClientID: "id", ClientSecret: "secret"}})
	u, _ := url.Parse(base)
	_, port, _ := net.SplitHostPort(u.Host)
	for host, want := range map[string]int{
		u.Host:                           http.StatusOK,
		"localhost:" + port:              http.StatusOK,
		"LocalHost:" + port:              http.StatusOK,
		"evil.example:" + port:           http.StatusMisdirectedRequest,
		"evil.example":                   http.StatusMisdirectedRequest,
		"127.0.0.1.nip.io:" + port:       http.StatusMisdirectedRequest,
		"127.0.0.2:" + port:              http.StatusMisdirectedRequest,
		"127.0.0.1:1":                    http.StatusMisdirectedRequest,
		"[::ffff:127.0.0.1]:" + port:     http.StatusOK, // the same address, spelled as IPv6
		strings.ToUpper(u.Host) + ".":    http.StatusMisdirectedRequest,
		"localhost.evil.example:" + port: http.StatusMisdirectedRequest,
	} {
		for _, path := range []string{DefaultPaths()[EndpointMemberships], OAuthAuthorizePath} {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, base+path, nil)
			req.Host = host
			req.Header.Set("Authorization", "Bearer "+DefaultToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			got := resp.StatusCode
			if path == OAuthAuthorizePath && got != http.StatusMisdirectedRequest {
				got = http.StatusOK // the authorize answer (400, no client id) is past the Host check
			}
			if got != want {
				t.Errorf("Host %q, %s: status %d, want %d", host, path, resp.StatusCode, want)
			}
		}
	}
}

// TestOAuthPKCE: an authorization request without an S256 challenge is
// refused; a code is exchanged only with the verifier of its challenge:
// not with none, another run's, or the challenge itself.
func TestOAuthPKCE(t *testing.T) {
	t.Parallel()
	const verifier = "a-verifier-of-forty-three-characters-at-least-0123"
	s256 := s256Of(verifier)
	for _, tc := range []struct {
		name         string
		sentVerifier string
		wantStatus   int
	}{
		{"S256, right verifier", verifier, http.StatusOK},
		{"S256, no verifier", "", http.StatusBadRequest},
		{"S256, another run's verifier", verifier + "x", http.StatusBadRequest},
		{"S256, the challenge as verifier", s256, http.StatusBadRequest},
	} {
		_, base := oauthServerFor(t, OAuthOptions{})
		q := authorizeQuery()
		q.Set("code_challenge", s256)
		form := codeForm(authorizeCode(t, base, q).Get("code"))
		form.Del("code_verifier")
		if tc.sentVerifier != "" {
			form.Set("code_verifier", tc.sentVerifier)
		}
		a := exchange(t, base, OAuthTokenPath, form, true, testClientID, testClientSecret)
		if a.status != tc.wantStatus {
			t.Errorf("%s: status %d %v, want %d", tc.name, a.status, a.body, tc.wantStatus)
		}
		if a.status == http.StatusBadRequest && a.body["error"] != "invalid_grant" {
			t.Errorf("%s: error %q, want invalid_grant", tc.name, a.body["error"])
		}
	}

	_, base := oauthServerFor(t, OAuthOptions{})
	noChallenge := authorizeQuery()
	noChallenge.Del("code_challenge")
	noChallenge.Del("code_challenge_method")
	if got := authorizeCode(t, base, noChallenge); got.Get("code") != "" || got.Get("error") != "invalid_request" {
		t.Errorf("no challenge: %v", got)
	}
	plain := authorizeQuery()
	plain.Set("code_challenge", verifier)
	plain.Set("code_challenge_method", "plain")
	if got := authorizeCode(t, base, plain); got.Get("code") != "" || got.Get("error") != "invalid_request" {
		t.Errorf("plain challenge: %v", got)
	}
	if (pendingCode{}).verifiedBy(verifier) {
		t.Error("a verifier was taken for a code issued without a challenge")
	}
	q := authorizeQuery()
	q.Set("code_challenge", s256)
	q.Set("code_challenge_method", "S512")
	if got := authorizeCode(t, base, q); got.Get("code") != "" || got.Get("error") != "invalid_request" {
		t.Errorf("unknown challenge method: %v", got)
	}
}
