package sandbox

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// OAuth paths of the service (API.md#authentication). The token endpoint has two spellings in the
// API documentation (the description says /oauth2/token, a sample
// /oauth/token), so the sandbox can serve either or both.
const (
	OAuthAuthorizePath   = "/oauth2/authorize"
	OAuthTokenPath       = "/oauth2/token"
	OAuthLegacyTokenPath = "/oauth/token"
)

// DefaultOAuthCodeTTL is how long an authorization code stays valid when
// OAuthOptions.CodeTTL is zero: long enough for a person, short enough that
// a leaked code is useless soon after.
const DefaultOAuthCodeTTL = time.Minute

// OAuthOptions turn on the sandbox's OAuth 2.0 authorization-code flow.
// With an empty ClientID the OAuth endpoints are not served (404).
//
// The endpoints live at the server root, beside the API (the auth URL is the
// same address as the base URL, without Options.PathPrefix):
//
//   - GET /oauth2/authorize approves at once: it redirects to redirect_uri
//     with code and state (or error=access_denied when Deny is set). A PKCE
//     code_challenge with method S256 is required; it is kept with the
//     code, and the token endpoint then requires its code_verifier.
//   - POST /oauth2/token and /oauth/token exchange the code. Client
//     credentials are accepted as HTTP Basic or as form fields (client_id,
//     client_secret); grant_type must be authorization_code or absent, as the
//     documentation's sample omits it. The answer is the spec's token
//     response: access_token, id_token, scope "all", token_type "Bearer",
//     and no expires_in, because tokens do not expire.
//
// Issued access tokens are accepted by the API endpoints beside
// Options.Token.
type OAuthOptions struct {
	ClientID     string
	ClientSecret string
	// LegacyTokenPathOnly serves only /oauth/token (the sample's path), so a
	// client that starts at /oauth2/token must fall back on 404.
	LegacyTokenPathOnly bool
	// FormCredentialsOnly ignores HTTP Basic credentials, as the sample's
	// server seems to, so a client that starts with the header must retry
	// with form fields.
	FormCredentialsOnly bool
	// Deny makes /oauth2/authorize refuse: the user said no.
	Deny    bool
	CodeTTL time.Duration // 0 means DefaultOAuthCodeTTL
}

// maxOAuthTokens bounds the issued tokens kept; the oldest are forgotten.
// Tokens do not expire in the API, but a sandbox must not grow forever.
const maxOAuthTokens = 10000

// oauthServer is the state of the OAuth endpoints: codes waiting to be
// exchanged and the access tokens issued so far.
type oauthServer struct {
	opts OAuthOptions
	now  func() time.Time

	mu     sync.Mutex
	codes  map[string]pendingCode
	tokens map[string]bool
	order  []string // issued tokens, oldest first, to bound tokens
}

type pendingCode struct {
	redirectURI string
	expires     time.Time
	challenge   string // PKCE code_challenge (S256)
}

// newOAuthServer returns nil when OAuth is off, so the rest of the server
// can call its nil-safe methods without checking.
func newOAuthServer(o OAuthOptions) *oauthServer {
	if o.ClientID == "" {
		return nil
	}
	if o.CodeTTL <= 0 {
		o.CodeTTL = DefaultOAuthCodeTTL
	}
	return &oauthServer{opts: o, now: time.Now, codes: map[string]pendingCode{}, tokens: map[string]bool{}}
}

// accepts reports whether tok is an access token this server issued.
func (o *oauthServer) accepts(tok string) bool {
	if o == nil {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.tokens[tok]
}

// authorize approves (or, with Deny, refuses) at once. Errors about the
// client or the redirect URI are answered here and never redirected: an
// unchecked redirect URI must not receive anything (RFC 6749 §4.1.2.1).
func (o *oauthServer) authorize(w http.ResponseWriter, r *http.Request) int {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		return writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "only GET is supported")
	}
	q := r.URL.Query()
	if subtle.ConstantTimeCompare([]byte(q.Get("client_id")), []byte(o.opts.ClientID)) != 1 {
		return writeError(w, http.StatusBadRequest, "invalid_client", "unknown client_id")
	}
	redirect, err := url.Parse(q.Get("redirect_uri"))
	if err != nil || redirect.Scheme != "http" || !loopbackHost(redirect.Hostname()) || redirect.Fragment != "" {
		return writeError(w, http.StatusBadRequest, "invalid_request", "redirect_uri must be an http URL on a loopback host, without fragment")
	}
	answer := redirect.Query()
	if st := q.Get("state"); st != "" {
		answer.Set("state", st)
	}
	// PKCE (RFC 7636) with S256 is required, as OAuth 2.1 requires it of
	// every client: the code is then bound to the run that asked for it,
	// and a test can show it (a verifier of another run is refused).
	challenge, method := q.Get("code_challenge"), q.Get("code_challenge_method")
	switch {
	case q.Get("response_type") != "code":
		answer.Set("error", "unsupported_response_type")
	case challenge == "":
		answer.Set("error", "invalid_request")
		answer.Set("error_description", "PKCE is required: send code_challenge with code_challenge_method S256")
	case method != "S256":
		answer.Set("error", "invalid_request")
		answer.Set("error_description", "code_challenge_method must be S256")
	case o.opts.Deny:
		answer.Set("error", "access_denied")
		answer.Set("error_description", "the user denied the authorization (sandbox -oauth-deny)")
	default:
		code := randomHex(16)
		o.mu.Lock()
		o.dropExpiredCodes()
		o.codes[code] = pendingCode{redirectURI: redirect.String(), expires: o.now().Add(o.opts.CodeTTL), challenge: challenge}
		o.mu.Unlock()
		answer.Set("code", code)
	}
	redirect.RawQuery = answer.Encode()
	return writeRedirect(w, redirect.String())
}

// token exchanges a code. The client is authenticated before the code is
// looked at, so a failed attempt with the wrong credential style (which
// golang.org/x/oauth2's auto-detection makes on purpose) does not burn it.
func (o *oauthServer) token(w http.ResponseWriter, r *http.Request) int {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		return writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "only POST is supported")
	}
	if err := r.ParseForm(); err != nil {
		return writeOAuthError(w, http.StatusBadRequest, "invalid_request", "the body is not form data")
	}
	if !o.clientAuthenticated(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="joinit-sandbox"`)
		return writeOAuthError(w, http.StatusUnauthorized, "invalid_client", "client authentication failed")
	}
	if gt := r.PostForm.Get("grant_type"); gt != "" && gt != "authorization_code" {
		return writeOAuthError(w, http.StatusBadRequest, "unsupported_grant_type", "only authorization_code is supported")
	}
	code := r.PostForm.Get("code")
	o.mu.Lock()
	pending, found := o.codes[code]
	delete(o.codes, code) // single use, even when the rest is wrong
	o.mu.Unlock()
	switch {
	case !found:
		return writeOAuthError(w, http.StatusBadRequest, "invalid_grant", "unknown or already used code")
	case o.now().After(pending.expires):
		return writeOAuthError(w, http.StatusBadRequest, "invalid_grant", "the code has expired")
	case r.PostForm.Get("redirect_uri") != pending.redirectURI:
		return writeOAuthError(w, http.StatusBadRequest, "invalid_grant", "redirect_uri differs from the authorization request's")
	case !pending.verifiedBy(r.PostForm.Get("code_verifier")):
		return writeOAuthError(w, http.StatusBadRequest, "invalid_grant", "code_verifier is missing or does not match the code_challenge")
	}
	access := randomHex(24)
	o.remember(access)
	b, _ := json.Marshal(map[string]string{
		"access_token": access,
		"id_token":     o.idToken(),
		"scope":        "all",
		"token_type":   "Bearer",
	})
	return writeOAuthJSON(w, http.StatusOK, b)
}

// verifiedBy checks a PKCE code_verifier against the code's S256
// challenge (RFC 7636 §4.6). A code without a challenge (none is issued
// now) takes no verifier: one sent for it is refused, as it cannot prove
// anything.
func (p pendingCode) verifiedBy(verifier string) bool {
	if p.challenge == "" {
		return verifier == ""
	}
	sum := sha256.Sum256([]byte(verifier))
	want := base64.RawURLEncoding.EncodeToString(sum[:])
	return verifier != "" && subtle.ConstantTimeCompare([]byte(want), []byte(p.challenge)) == 1
}

// clientAuthenticated checks the client id and secret from HTTP Basic
// (form-encoded, RFC 6749 §2.3.1) or, failing that, from the form.
func (o *oauthServer) clientAuthenticated(r *http.Request) bool {
	id, secret, basic := r.BasicAuth()
	if basic && !o.opts.FormCredentialsOnly {
		var err1, err2 error
		id, err1 = url.QueryUnescape(id)
		secret, err2 = url.QueryUnescape(secret)
		if err1 != nil || err2 != nil {
			return false
		}
	} else {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	idOK := subtle.ConstantTimeCompare([]byte(id), []byte(o.opts.ClientID))
	secretOK := subtle.ConstantTimeCompare([]byte(secret), []byte(o.opts.ClientSecret))
	return idOK&secretOK == 1
}

// dropExpiredCodes keeps the code table small. Caller holds mu.
func (o *oauthServer) dropExpiredCodes() {
	now := o.now()
	for c, p := range o.codes {
		if now.After(p.expires) {
			delete(o.codes, c)
		}
	}
}

func (o *oauthServer) remember(tok string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.tokens[tok] = true
	o.order = append(o.order, tok)
	if len(o.order) > maxOAuthTokens {
		delete(o.tokens, o.order[0])
		o.order = o.order[1:]
	}
}

// idToken is an OpenID id_token for the sandbox's one user, signed HS256
// with the client secret as OpenID Connect allows for confidential clients.
func (o *oauthServer) idToken() string {
	enc := base64.RawURLEncoding
	header := enc.EncodeToString([]byte(`{"alg":"HS256","typ":"JWT"}`))
	claims, _ := json.Marshal(map[string]any{
		"iss":   "joinit-sandbox",
		"sub":   "sandbox-user-1",
		"aud":   o.opts.ClientID,
		"email": "sandbox.user@example.com",
		"iat":   o.now().Unix(),
	})
	signed := header + "." + enc.EncodeToString(claims)
	mac := hmac.New(sha256.New, []byte(o.opts.ClientSecret))
	mac.Write([]byte(signed))
	return signed + "." + enc.EncodeToString(mac.Sum(nil))
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// loopbackHost accepts a loopback IP address or the name localhost. The
// client's tests import this package, so it cannot import the client; and
// the sandbox only redirects a browser there, it never connects.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
