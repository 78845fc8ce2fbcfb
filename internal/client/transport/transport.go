// Package transport sends the client's requests: one GET of one page,
// retried by one go-retryablehttp client (its CheckRetry and Backoff find
// the request's attempt record in its context), sent by one RoundTripper
// (send.go) under the client's limit on requests in flight and its
// Retry-After pause; the body goes to the caller's Accept inside the retry
// loop, so a 200 that is not a page is retried.
package transport

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/go-cleanhttp"
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

// New builds a Transport; nothing is sent.
func New(cfg Config) *Transport {
	network := cfg.Network
	if network == nil {
		pooled := cleanhttp.DefaultPooledTransport()
		pooled.MaxIdleConnsPerHost = cfg.MaxConcurrency + 1
		if cfg.RootCAs != nil {
			pooled.TLSClientConfig = &tls.Config{RootCAs: cfg.RootCAs, MinVersion: tls.VersionTLS12}
		}
		if cfg.Base.Scheme == "http" {
			// http was allowed because the host is loopback; hold the dial to it.
			pooled.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: refuseNonLoopback}).DialContext
		}
		network = pooled
	}
	t := &Transport{
		cfg: cfg, network: network,
		token:    &oauth2.Token{AccessToken: cfg.Token, TokenType: "Bearer"},
		inFlight: semaphore.NewWeighted(int64(max(cfg.MaxConcurrency, 1))), pause: &pauseGate{},
	}
	t.client = &retryablehttp.Client{
		HTTPClient: &http.Client{Transport: sender{t}, CheckRedirect: t.sameOriginRedirects},
		// policy charges retries against MaxRetries itself.
		RetryMax:     math.MaxInt32,
		RetryWaitMin: cfg.RetryWaitMin,
		RetryWaitMax: cfg.RetryWaitMax,
		CheckRetry:   t.policy,
		Backoff:      t.backoff,
		ErrorHandler: retryablehttp.PassthroughErrorHandler,
		RequestLogHook: func(_ retryablehttp.Logger, req *http.Request, attempt int) {
			t.logAttempt(req, attempt)
		},
	}
	return t
}

// CloseIdle closes the idle connections.
func (t *Transport) CloseIdle() {
	if n, ok := t.network.(interface{ CloseIdleConnections() }); ok {
		n.CloseIdleConnections()
	}
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

// Get sends r (retrying as policy says) until Accept takes a body, or
// returns an error naming the endpoint and page.
func (t *Transport) Get(ctx context.Context, r Request) error {
	a := &attempts{start: time.Now(), mark: t.successes.Load(), endpoint: r.Endpoint, page: r.Page}
	ctx = context.WithValue(ctx, attemptsKey{}, a)
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, r.URL, nil)
	if err != nil {
		return &failure.PageError{Endpoint: r.Endpoint, Page: r.Page, Reason: "could not build the request", Err: err}
	}
	req.Header.Set("Accept", "application/json")
	if t.cfg.UserAgent != "" {
		req.Header.Set("User-Agent", t.cfg.UserAgent)
	}

	// Reading the body in the response handler retries a body cut off or
	// not a page like any failed attempt.
	size := 0
	req.SetResponseHandler(func(resp *http.Response) error {
		// Called for error statuses too: statusError reads those.
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil
		}
		b, err := readBody(resp, t.cfg.MaxBodyBytes)
		resp.Body.Close() // the place in flight goes back before decoding
		if err != nil {
			return err
		}
		size = len(b)
		if err := r.Accept(b); err != nil {
			if isWebPage(resp) {
				return &webPageError{Status: resp.StatusCode}
			}
			return &notAPageError{Status: resp.StatusCode, Err: err}
		}
		return nil
	})

	start := time.Now()
	resp, err := t.client.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		var tooLong *RetryWaitError
		if errors.As(err, &tooLong) {
			t.cfg.Logger.Warn(ctx, "the server asked for a longer wait than the client may make (Config.MaxRetryWait); failing the read", map[string]any{
				"endpoint": r.Endpoint, "page": r.Page, "status": tooLong.Status,
				"retry_after": tooLong.Wait.String(), "max_wait": tooLong.Max.String(),
			})
			return &failure.PageError{Endpoint: r.Endpoint, Page: r.Page, Reason: "rate limited", Err: err}
		}
		return t.requestFailed(r, a, failure.Redacted(scrubURLError(err), t.cfg.Token))
	}
	fields := map[string]any{
		"method": req.Method, "url": req.URL.Scheme + "://" + req.URL.Host + req.URL.Path, // the query's page is a field
		"endpoint": r.Endpoint, "page": r.Page, "status": resp.StatusCode,
		"duration": time.Since(start).String(),
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Retries are used up or the status is final; the handler left the body.
		t.cfg.Logger.Warn(ctx, "API request failed", fields)
		return t.statusError(r, a, resp)
	}
	resp.Body.Close()
	t.pages.Add(1)
	fields["bytes"] = size
	t.cfg.Logger.Debug(ctx, "fetched page", fields)
	return nil
}

// statusError is the error of a non-2xx answer: the status, the final URL,
// and what a JSON body said (apiMessage), never the body. A 401 or 403
// body is not read: such a server is the likeliest to echo the token.
func (t *Transport) statusError(r Request, a *attempts, resp *http.Response) error {
	defer resp.Body.Close()
	said := ""
	if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
		body, _ := readCapped(resp.Body, 4096)
		said = apiMessage(body, t.cfg.Token)
	}
	return &failure.APIError{
		Endpoint: r.Endpoint, Page: r.Page, Status: resp.StatusCode,
		Attempts: a.sent, Elapsed: time.Since(a.start),
		URL: t.shownURL(resp.Request.URL), Message: said,
	}
}

// logAttempt counts each attempt, and logs each retry.
func (t *Transport) logAttempt(req *http.Request, attempt int) {
	a := attemptsOf(req.Context())
	a.sent++
	if attempt == 0 {
		return
	}
	t.cfg.Logger.Debug(req.Context(), "retrying request", a.fields(map[string]any{
		"method": req.Method, "url": t.shownURL(req.URL), "attempt": attempt + 1,
	}))
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
