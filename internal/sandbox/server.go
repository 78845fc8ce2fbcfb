package sandbox

import (
	"crypto/subtle"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// statusNoResponse is recorded when no response was written: the connection
// was reset, or the client went away during Latency or SlowBody.
const statusNoResponse = 0

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
	if s.serveOAuth(w, r) || s.serveControl(w, r) {
		return
	}
	ep, known := s.routes[r.URL.Path]
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
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(htmlBody))
		return http.StatusOK
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
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if f.SlowBody > 0 && f.inScope(requested) {
		writeSlow(ctx, w, body, f.SlowBody)
	} else {
		_, _ = w.Write(body)
	}
	s.flt.markServed(ep, requested)
	return http.StatusOK
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

type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// writeError answers with a small JSON error. The spec shows no error
// format; this shape is the sandbox's choice and never includes request
// data (so a token can never be echoed).
func writeError(w http.ResponseWriter, status int, code, msg string) int {
	b, _ := json.Marshal(errorBody{Error: code, Message: msg})
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(status)
	_, _ = w.Write(b)
	return status
}

// redactQuery copies the query with token-like parameters masked, so logs
// and RequestLog never hold a credential (the legacy API took ?token=).
func redactQuery(q url.Values) url.Values {
	for k, vs := range q {
		switch strings.ToLower(k) {
		case "token", "access_token", "api_key", "client_secret":
			masked := make([]string, len(vs))
			for i := range masked {
				masked[i] = "REDACTED"
			}
			q[k] = masked
		}
	}
	return q
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
