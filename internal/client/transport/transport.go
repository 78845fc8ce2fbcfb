// Package transport sends the client's requests: one GET of one page,
// retried by one go-retryablehttp client (its CheckRetry and Backoff find
// the request's attempt record in its context), sent by one RoundTripper
// (send.go) under the client's limit on requests in flight and its
// Retry-After pause; the body goes to the caller's Accept inside the retry
// loop, so a 200 that is not a page is retried.
//
// Its files, bottom up (each uses only those above it): connection and errors
// (the errors' words); transport (the Transport, a request and its attempts,
// where it may go); retry (go-retryablehttp's hooks); send (the RoundTripper);
// get (New, Get and a failed request's error).
package transport

import (
	"bytes"
	"context"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/oauth2"
	"golang.org/x/sync/semaphore"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// Config configures a Transport. The client fills every field.
type Config struct {
	Base                       *url.URL // the token goes to its origin only
	Token, UserAgent           string
	Timeout                    time.Duration // each attempt, its body included
	MaxRetries, MaxConcurrency int
	MaxBodyBytes               int64
	RetryWaitMin, RetryWaitMax time.Duration // the exponential backoff
	// MaxRetryWait is the longest wait before a retry; a longer
	// Retry-After fails the request with a *RetryWaitError.
	MaxRetryWait time.Duration
	Logger       Logger
	RootCAs      *x509.CertPool // nil: the system's
	// Network holds the connections; nil is net/http's pooled transport.
	Network http.RoundTripper
}

// Logger receives the transport's events; fields never hold the token or
// request headers.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

// Transport sends every request of one client, concurrently.
type Transport struct {
	cfg     Config
	client  *retryablehttp.Client
	network http.RoundTripper
	token   *oauth2.Token // set on a request with its SetAuthHeader
	// inFlight is the client's limit on requests in flight; successes its
	// 2xx answers, which the retry policy measures progress by.
	inFlight  *semaphore.Weighted
	successes atomic.Uint64
	pause     *pauseGate
	// pages counts the pages Accept took: none yet, a web page is most
	// likely a base URL of a web site (webPageRetries).
	pages atomic.Uint64
}

// Request is one page's GET.
type Request struct {
	Endpoint string // named in errors and logs, e.g. "memberships"
	Page     int
	URL      string
	// Accept takes a 2xx answer's body (its own: Recycle it when refusing
	// it); an error means the answer is not a page, retried like a 5xx.
	Accept func(body []byte) error
}

// shownURL is u as scheme://host/path for errors and logs (the path fixes
// a wrong endpoint_paths), redacted: a redirect may have chosen it. (The
// URL a request asked is logged as it is: the client built it from the
// settings.)
func (t *Transport) shownURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	return redact.Text(u.Scheme+"://"+u.Host+u.Path, 0, redact.Secret{Value: t.cfg.Token})
}

// now is replaced in tests.
var now = time.Now

// Page bodies are recycled once their records are kept (copies): 100,000
// memberships are about 100 MB of bodies, which set the peak memory.

// maxPooledBody bounds what the pool keeps (a page is about a megabyte).
const maxPooledBody = 8 << 20

var bodyPool sync.Pool // of *[]byte

// Recycle hands a body back for later pages. The caller must hold no
// reference into it.
func Recycle(b []byte) {
	if b == nil || cap(b) > maxPooledBody {
		return
	}
	bodyPool.Put(&b)
}

// readBody reads a body of at most limit bytes, in one buffer of its
// Content-Length when declared.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	n := resp.ContentLength
	if n < 0 || n > limit {
		return readCapped(resp.Body, limit)
	}
	var buf []byte
	if p, ok := bodyPool.Get().(*[]byte); ok && cap(*p) >= int(n) {
		buf = (*p)[:n] // a recycled body
	} else {
		buf = make([]byte, n)
	}
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		Recycle(buf)
		return nil, err
	}
	return buf, nil
}

// readCapped reads all of r, failing once more than limit bytes arrive.
func readCapped(r io.Reader, limit int64) ([]byte, error) {
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, &bodyTooLargeError{limit: limit}
	}
	return buf.Bytes(), nil
}

// pauseGate holds every request of a client until the time a Retry-After
// asked for: one 429 pauses all.
type pauseGate struct {
	mu    sync.Mutex
	until time.Time
}

// extend moves the pause end to t if that is later.
func (g *pauseGate) extend(t time.Time) {
	g.mu.Lock()
	if t.After(g.until) {
		g.until = t
	}
	g.mu.Unlock()
}

// attempts is what one page's request went through, for its retry policy,
// its error and its logs. It travels in the request's context, where the
// retry hooks and the sender find it; all of them run on the request's
// goroutine.
type attempts struct {
	sent     int // attempts sent
	start    time.Time
	endpoint string
	page     int

	charged int    // retries charged against MaxRetries
	mark    uint64 // the client's successes at the request's last refusal for the rate
	// pausedFor is the pause the last answer set (0: no refusal for the
	// rate): the backoff.
	pausedFor time.Duration
}

// attemptsKey is the context key of a request's attempt record (Get).
type attemptsKey struct{}

// attemptsOf is the attempt record ctx carries; a request sent without
// one (a test's) gets a record of its own.
func attemptsOf(ctx context.Context) *attempts {
	if a, ok := ctx.Value(attemptsKey{}).(*attempts); ok {
		return a
	}
	return &attempts{start: time.Now()}
}

// othersProgressed reports successes since the last refusal (or start).
func (a *attempts) othersProgressed(successes uint64) bool {
	progressed := successes > a.mark
	a.mark = successes
	return progressed
}

// charge counts one retry against limit and reports whether it may be made.
func (a *attempts) charge(limit int) bool {
	a.charged++
	return a.charged <= limit
}

// fields adds the endpoint and page to log fields.
func (a *attempts) fields(f map[string]any) map[string]any {
	f["endpoint"], f["page"] = a.endpoint, a.page
	return f
}

// Origin is scheme://host[:port]: what a token is bound to, and how an
// error names a URL.
func Origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// sameOriginRedirects refuses redirects to another origin (a host the user
// never configured); the origin, server text, is redacted.
func (t *Transport) sameOriginRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errTooManyRedirects
	}
	if Origin(req.URL) != Origin(via[0].URL) {
		return &RedirectError{To: redact.Text(Origin(req.URL), 0, redact.Secret{Value: t.cfg.Token})}
	}
	return nil
}

// RedirectError is a redirect to another origin, refused.
type RedirectError struct {
	To string // the origin it led to
}

func (e *RedirectError) Error() string { return e.WordWith(failure.ConfigNames) }

// WordWith words the base URL setting.
func (e *RedirectError) WordWith(name failure.Namer) string {
	return fmt.Sprintf("the API redirected to another host (%s); refusing to follow it so the token is not sent there: set %s to the final address",
		e.To, name(failure.SettingBaseURL))
}

// refuseNonLoopback is the dialer's check for an http base URL: only a
// loopback address, whatever the name resolved to before.
func refuseNonLoopback(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refusing to send the token over http to %s, which is not a loopback address", host)
	}
	return nil
}
