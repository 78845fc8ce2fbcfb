package sandbox

import (
	"context"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// ServeHTTP answers one request. See the package documentation for the
// order of checks.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !ownHost(r) {
		status := writeError(w, http.StatusMisdirectedRequest, "misdirected_request",
			"the Host header must name the sandbox's own loopback address (its IP and port, or localhost and its port)")
		if s.logf != nil {
			s.logf("%s %s -> %d (refused Host %q)", r.Method, r.URL.Path, status, r.Host)
		}
		return
	}
	rt, known := s.lookup(r.URL.Path)
	if rt.own != nil {
		status := rt.own(w, r)
		if s.logf != nil {
			// The path only: the query of an authorize request holds
			// nothing secret, but the answer's Location holds the code,
			// and a token request's body holds the secret; neither is
			// logged.
			s.logf("%s %s -> %d", r.Method, r.URL.Path, status)
		}
		return
	}
	ep := rt.ep
	rec := RequestRecord{Query: redactQuery(r.URL.Query()), Arrived: time.Now()}
	if known {
		rec.Endpoint = endpointNames[ep]
	}
	s.ctr.begin(ep, known)
	rec.Status = s.serve(w, r, ep, known, &rec)
	rec.Finished = time.Now()
	s.ctr.end(rec)
	if s.logf != nil {
		q := rec.Query.Encode()
		if q != "" {
			q = "?" + q
		}
		s.logf("%s %s%s -> %d", r.Method, r.URL.Path, q, rec.Status)
	}
}

// serve writes the response and returns its status.
func (s *Server) serve(w http.ResponseWriter, r *http.Request, ep int, known bool, rec *RequestRecord) int {
	ctx := r.Context()
	f := s.flt.get()
	key := r.URL.Path
	if known {
		key = chaosKey(ep, r)
	}
	rec.Latency = s.flt.latency(key)
	if !sleep(ctx, rec.Latency) {
		return statusNoResponse
	}
	if !known {
		return writeError(w, http.StatusNotFound, "not_found", "no such endpoint")
	}
	if wait, ok := s.flt.takeToken(); !ok {
		w.Header().Set("Retry-After", wait)
		return writeError(w, http.StatusTooManyRequests, "rate_limited", "rate limit exceeded")
	}
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		return writeError(w, http.StatusMethodNotAllowed, "method_not_allowed", "only GET is supported")
	}
	rec.Authorization = s.authorized(r)
	if !rec.Authorization {
		w.Header().Set("WWW-Authenticate", `Bearer realm="joinit-sandbox"`)
		return writeError(w, http.StatusUnauthorized, "unauthorized", "missing or invalid bearer token")
	}
	pq, err := parseQuery(ep, r.URL.Query())
	if err != nil {
		return writeError(w, http.StatusBadRequest, "bad_request", err.Error())
	}

	act, f := s.flt.attempt(ep, pq.page)
	switch act {
	case actReset:
		resetConn(w)
		return statusNoResponse
	case actServerError:
		return writeError(w, f.ServerErrorStatus, "server_error", "simulated server error")
	case actRateLimit:
		w.Header().Set("Retry-After", f.RetryAfter)
		return writeError(w, http.StatusTooManyRequests, "rate_limited", "too many requests")
	}
	chaos := s.flt.chaosAttempt(key)
	if status, answered := serveTransient(ctx, w, chaos); answered {
		return status
	}
	if pq.page == f.NonJSONPage {
		return writeHTML(w, http.StatusOK)
	}
	requested := pq.page
	if f.IgnorePage {
		pq.page = 1
	}

	pq.size = f.servedSize(ep, pq.size)
	if f.IgnoreStatusFilter {
		pq.status = nil
	}
	if !s.holdForOutOfOrderInsert(ctx, ep, requested, f) {
		return statusNoResponse
	}
	all := s.data.records(ep, pq.status)
	recs, total := f.oversize(ep, pq.page, pq.size, pageSlice(all, pq.page, pq.size), len(all))
	if len(recs) == 0 && pq.page > 1 && f.PastEndStatus != 0 && !pagingOf(ep).Metadata {
		return writeError(w, f.PastEndStatus, "out_of_range", "no such page")
	}
	body := pageBody(ep, f.deviateRecords(ep, requested, recs), pq, total)
	// Insert before answering, not after: the client may ask for the next
	// page as soon as it has this one, and must then see the shifted list.
	if n, ok := s.flt.shouldInsert(ep, pq.page); ok {
		s.data.insertFront(ep, n)
	}
	if n, ok := s.flt.shouldRemove(ep, pq.page); ok {
		s.data.removeFront(ep, n)
	}
	if requested == f.TruncatedPage {
		body = body[:len(body)/2]
	}
	switch {
	case chaos == chaosCutBody:
		return writeCut(w, body)
	case chaos == lieMaintenance:
		return writeHTML(w, http.StatusOK)
	case chaos.lies():
		body = lie(ep, chaos, body, recs, pq, len(all))
	}
	var slow time.Duration
	if f.inScope(requested) {
		slow = f.SlowBody
	}
	status := writePage(ctx, w, body, slow)
	s.flt.markServed(ep, requested)
	return status
}

// ownHost reports whether the request's Host names the address it arrived
// at: the listener's loopback IP, or localhost, with its port. A web page
// whose name an attacker made resolve to 127.0.0.1 (DNS rebinding) sends its
// own name as Host and is refused: the sandbox's token is well known, and
// its OAuth endpoints issue tokens to anyone. A request that came through no
// connection (a test calling ServeHTTP) has no address to check.
func ownHost(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if !ok {
		return true
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		host, port = r.Host, "80" // no port: the default one
	}
	if port != strconv.Itoa(local.Port) {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return local.IP.IsLoopback()
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.Equal(local.IP)
}

// holdForOutOfOrderInsert runs before a page is read from the data set. For
// the first request of OutOfOrderInsertPage on a list endpoint it waits for
// the next page to be served, then inserts. It reports false when the
// request was cancelled while waiting.
func (s *Server) holdForOutOfOrderInsert(ctx context.Context, ep, page int, f Faults) bool {
	if f.OutOfOrderInsertPage <= 0 || page != f.OutOfOrderInsertPage || f.InsertCount <= 0 || ep == epOrgMetrics {
		return true
	}
	if !s.flt.claimOutOfOrder(ep) {
		return true
	}
	wait := f.OutOfOrderWait
	if wait <= 0 {
		wait = 2 * time.Second
	}
	deadline := time.Now().Add(wait)
	for !s.flt.wasServed(ep, page+1) && time.Now().Before(deadline) {
		if !sleep(ctx, 2*time.Millisecond) {
			return false
		}
	}
	s.data.insertFront(ep, f.InsertCount)
	return true
}

// New builds the whole data set up front and returns a server that is ready
// to ServeHTTP. Negative record counts are treated as 0.
func New(opts Options) *Server {
	s := &Server{
		token:  opts.Token,
		prefix: normalizePrefix(opts.PathPrefix),
		logf:   opts.Logf,
	}
	if s.token == "" {
		s.token = DefaultToken
	}
	s.data = newDataset(opts.Seed, opts.counts())
	s.flt.set(opts.Faults)
	s.oauth = newOAuthServer(opts.OAuth)
	s.hooks = newWebhookSender(opts.Webhooks, opts.Logf)
	s.routes = s.routing(opts.Paths.WithDefaults())
	return s
}

// routing is the table of every exact path served: the API's, then the
// OAuth flow's (which win a path both name); lookup adds the control route.
func (s *Server) routing(p Paths) map[string]route {
	routes := map[string]route{}
	for ep, name := range endpointNames {
		routes[s.prefix+p[name]] = route{ep: ep}
	}
	if o := s.oauth; o != nil {
		routes[OAuthAuthorizePath] = route{own: o.authorize}
		routes[OAuthLegacyTokenPath] = route{own: o.token}
		if !o.opts.LegacyTokenPathOnly { // else the API routes answer 404
			routes[OAuthTokenPath] = route{own: o.token}
		}
	}
	return routes
}

// lookup finds path's route: OAuth's first, then control, then the API's.
func (s *Server) lookup(path string) (route, bool) {
	rt, ok := s.routes[path]
	if ok && rt.own != nil {
		return rt, true
	}
	if strings.HasPrefix(path, s.prefix+ControlPathPrefix) {
		return route{own: s.serveControl}, true
	}
	return rt, ok
}
