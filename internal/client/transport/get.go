package transport

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/oauth2"
	"golang.org/x/sync/semaphore"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

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

// requestFailed is the error of a request that never got an answer.
func (t *Transport) requestFailed(r Request, a *attempts, err error) error {
	reason := "the request failed"
	if n := a.sent; n > 1 {
		reason = fmt.Sprintf("the request failed after %d attempts over %s; the last error", n, failure.Rounded(time.Since(a.start)))
	}
	own := inOwnWords(err)
	if what := connectionProblem(err); what != "" {
		own = &ConnectionError{Problem: what, BaseURL: Origin(t.cfg.Base), Proxy: viaProxy(err), Untrusted: isCertificateError(err), Err: own}
	}
	return &failure.PageError{Endpoint: r.Endpoint, Page: r.Page, Reason: reason, Err: own}
}
