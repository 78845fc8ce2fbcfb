// Package sandbox is an in-memory fake of the Join It membership API, faithful
// to the API as API.md states it (where the service leaves a choice open,
// API.md says what the sandbox chose). Tests, the demo command and
// benchmarks point a client at it instead of the real service, so they run
// offline, deterministically, and can inject faults that a real server only
// produces on a bad day.
//
// What it serves (paths relative to the server root, after Options.PathPrefix):
//
//   - memberships, payments, groups: GET with page, count (memberships also
//     status, an integer filter applied before paging). The answer is a bare
//     JSON array; a page past the end is [].
//   - org_metrics: GET with page, limit. The answer is
//     {"results":[...],"page":P,"limit":L,"totalPages":T}.
//
// Parameter handling follows API.md#paging: page omitted,
// invalid or below 1 means page 1; count defaults to 50 and is capped at 1000;
// limit defaults to 25 and is capped at 100; an invalid or below-1 count or
// limit takes the default. A non-integer status is the one parameter error:
// 400 with a JSON body (no error format is documented, so this is the
// sandbox's choice: API.md#errors-and-limits).
//
// Authentication is "Authorization: Bearer <token>" with a case-insensitive
// scheme. A missing, malformed or wrong token is 401 with a JSON body and a
// WWW-Authenticate header; the legacy ?token= query parameter is not accepted,
// so a client that falls back to it fails loudly. The token is never echoed,
// and RequestLog redacts token-like query parameters.
//
// Order of checks for every request: the Host header (421 unless it names the
// sandbox's own loopback address and port: DNS rebinding), then the OAuth
// and control routes (their own checks, outside the faults and the log);
// for the API's paths, Faults.Latency, then unknown path (404), then the rate limit
// (Faults.RateLimit, 429), then method (405, only GET is served), then auth (401), then parameters
// (400), then the page-scoped faults, then the data.
//
// The data set is generated once in New from Options.Seed and pre-encoded, so
// the same seed gives byte-identical answers and serving a page only
// concatenates stored bytes. Records carry every field API.md#records-and-fields
// names, plus one unknown field (x_sandbox_extra) on every record, nulls
// where any field may be null, unicode text, duplicated e-mail addresses,
// an unknown membership status (999), and, as optional fields may be
// absent, no profile_pic on some memberships.
//
// ChangeMembership (or POST /sandbox/memberships/{_id}/{change} with the
// token, the sandbox's own route) cancels, expires or renews a membership,
// or checks it in; ChangeEmail (POST /sandbox/memberships/{_id}/email, with
// the body {"email": "<address>"}) gives it a new e-mail address, kept as
// given; and CreateMembership (POST /sandbox/memberships/) adds an active
// one. Each sends the webhooks API.md#event-types lists for the change to
// Options.Webhooks.URL, as the service does; see WebhookOptions.
//
// With Options.OAuth set, the server also plays the service's OAuth 2.0
// authorization-code flow (API.md#authentication) and accepts the tokens it issues; see
// OAuthOptions.
//
// Its files, bottom up (each uses only those above it): answers, endpoints,
// counters (the request log); names, generate, seeded (what the data set of
// a seed holds), dataset, and one file an endpoint's records; oauth, pagination, chaos, ratelimit; faults,
// deviations, oversize; webhooks, changes; sandbox (the Server), testapi (its
// public test API and control route), server (New, the one routing table,
// ServeHTTP), fortest (StartForTest, the one way a test starts a sandbox).
package sandbox

import (
	"crypto/subtle"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// DefaultToken is the bearer token accepted when Options.Token is empty.
const DefaultToken = "sandbox-token"

// Options configure a Server. The zero value is a valid, empty server.
type Options struct {
	Token       string // bearer token the server accepts; "" means DefaultToken
	Seed        int64  // data set seed; the same seed gives the same bytes
	Memberships int    // number of membership records
	Payments    int
	Groups      int
	OrgMetrics  int
	// Records are numbers of records by endpoint name, for an endpoint
	// without a field above; a field above, when not 0, wins over it.
	Records    map[string]int
	PathPrefix string // optional prefix before every path, e.g. "/proxy"
	Paths      Paths  // endpoints it does not name take DefaultPaths()
	Faults     Faults
	OAuth      OAuthOptions   // the authorization-code flow; off when OAuth.ClientID is ""
	Webhooks   WebhookOptions // where the webhooks of ChangeMembership, ChangeEmail and CreateMembership go; none when Webhooks.URL is ""

	// Logf, when set, receives one line per request (method, path, query
	// with tokens redacted, status). The demo command uses it for -v.
	Logf func(format string, args ...any)
}

// Server is the fake API. Create it with New; it is an http.Handler and can
// also listen on its own with Start.
type Server struct {
	token  string
	prefix string
	routes map[string]route // every exact path served (server.go)
	logf   func(format string, args ...any)

	data *dataset
	flt  faultState
	ctr  counters

	oauth *oauthServer // nil when OAuth is off
	hooks *webhookSender

	httpMu sync.Mutex
	hs     *http.Server
	done   chan struct{}
	url    string
}

// counts are the numbers of records by endpoint index, none below 0.
func (o Options) counts() [numEndpoints]int {
	byName := map[string]int{}
	for name, n := range o.Records {
		byName[name] = n
	}
	for name, n := range map[string]int{EndpointMemberships: o.Memberships, EndpointPayments: o.Payments,
		EndpointGroups: o.Groups, EndpointOrgMetrics: o.OrgMetrics} {
		if n != 0 {
			byName[name] = n
		}
	}
	var out [numEndpoints]int
	for ep, name := range endpointNames {
		out[ep] = max(byName[name], 0)
	}
	return out
}

// normalizePrefix turns "proxy/", "/proxy/" and "/proxy" into "/proxy", and
// "/" or "" into "", so route keys are simple concatenations.
func normalizePrefix(p string) string {
	p = strings.TrimRight(p, "/")
	if p != "" && !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return p
}

// Start listens on 127.0.0.1 with a free port and serves in the background.
// It returns the base URL without PathPrefix, e.g. "http://127.0.0.1:41234".
// Calling it again returns the same URL. It panics if it cannot listen, as
// httptest.NewServer does: tests have no better recovery.
func (s *Server) Start() string {
	s.httpMu.Lock()
	defer s.httpMu.Unlock()
	if s.hs != nil {
		return s.url
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic("sandbox: listen: " + err.Error())
	}
	s.hs = &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.done = make(chan struct{})
	s.url = "http://" + ln.Addr().String()
	go func(hs *http.Server, done chan struct{}) {
		defer close(done)
		_ = hs.Serve(ln)
	}(s.hs, s.done)
	return s.url
}

// Close stops a server started with Start: it closes the listener and every
// open connection (which cancels the contexts of running handlers, so
// latency and slow-body faults end at once). It is safe to call more than
// once, or without Start.
func (s *Server) Close() {
	s.httpMu.Lock()
	hs, done := s.hs, s.done
	s.httpMu.Unlock()
	if hs == nil {
		return
	}
	_ = hs.Close()
	<-done
}

// authorized checks "Authorization: Bearer <token>"; the scheme is
// case-insensitive (RFC 9110), the token compared in constant time.
func (s *Server) authorized(r *http.Request) bool {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	tok = strings.TrimSpace(tok)
	return tok != "" && (subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) == 1 || s.oauth.accepts(tok))
}

// route is where a path goes: an API endpoint (ep), or a route of the
// sandbox's own (own: OAuth, control), apart from the faults and the log.
type route struct {
	ep  int
	own func(w http.ResponseWriter, r *http.Request) (status int)
}
