package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// pageRequest names one page of one endpoint.
type pageRequest struct {
	endpoint  string     // name used in errors and logs, e.g. "memberships"
	path      string     // relative to the base URL
	filters   url.Values // the same on every page, so all pages are one result set
	sizeParam string     // "count" or "limit": endpoints take one, not both
	size      int
	page      int
	// bytesIn, when set, is called once an answer's bytes are in, before
	// they are decoded (pager.go).
	bytesIn func()
}

func (r pageRequest) url(base *url.URL) string {
	q := url.Values{}
	for k, vs := range r.filters {
		q[k] = vs
	}
	q.Set("page", strconv.Itoa(r.page))
	q.Set(r.sizeParam, strconv.Itoa(r.size))
	u := *base
	u.Path = base.Path + r.path
	u.RawQuery = q.Encode()
	return u.String()
}

type bodyTooLargeError struct{ limit int64 }

func (e *bodyTooLargeError) Error() string {
	return fmt.Sprintf("the response body is larger than %d bytes", e.limit)
}

// fetch GETs one page and hands its body to accept. Retries (network
// errors, a body cut off mid-read, 429, 5xx, and a 2xx whose body accept
// refuses: not JSON, the wrong shape, JSON cut short) happen inside, so a
// maintenance page or a half-written answer served for a moment with a 200
// costs a retry, as the same on a 502 does. What comes back is nil once
// accept took a body, or an error naming the endpoint and page.
//
// accept runs after the body is read and closed: the request's place in
// the send window is free again while the page is decoded. accept owns
// the body it is given (recycleBody it when refusing it).
func (c *Client) fetch(ctx context.Context, r pageRequest, accept func(body []byte) error) error {
	attempts := newAttemptLog(c.window)
	attempts.endpoint, attempts.page, attempts.request = r.endpoint, r.page, c.requests.Add(1)
	ctx = context.WithValue(ctx, attemptsKey{}, attempts)
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, r.url(c.base), nil)
	if err != nil {
		return &PageError{Endpoint: r.endpoint, Page: r.page, Reason: "could not build the request", Err: err}
	}
	req.Header.Set("Accept", "application/json")
	if c.cfg.UserAgent != "" {
		req.Header.Set("User-Agent", c.cfg.UserAgent)
	}

	// Reading the body inside the response handler lets retryablehttp retry
	// a connection that breaks mid-body, or a body that is not a page, like
	// any other failed attempt.
	size := 0
	req.SetResponseHandler(func(resp *http.Response) error {
		// retryablehttp calls this for every final response, errors too;
		// leave those bodies for the error excerpt below.
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return nil
		}
		b, err := readBody(resp, c.cfg.MaxBodyBytes)
		resp.Body.Close() // the window's place goes back before decoding
		if err != nil {
			return err
		}
		c.trace(attempts, TraceBytesIn)
		if r.bytesIn != nil && len(b) >= decodeBesideNetwork {
			r.bytesIn()
		}
		size = len(b)
		if err := c.decoders.acquire(ctx); err != nil {
			recycleBody(b)
			return err
		}
		err = accept(b)
		c.decoders.release()
		if err != nil {
			return &notAPageError{Status: resp.StatusCode, Err: err}
		}
		c.trace(attempts, TraceDecoded)
		return nil
	})

	start := time.Now()
	resp, err := c.http.Do(req)
	if err != nil {
		if resp != nil {
			resp.Body.Close()
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		var tooLong *RetryWaitError
		if errors.As(err, &tooLong) {
			c.cfg.Logger.Warn(ctx, "the server asked for a longer wait than the client may make (Config.MaxRetryWait); failing the read", map[string]any{
				"endpoint": r.endpoint, "page": r.page, "status": tooLong.Status,
				"retry_after": tooLong.Wait.String(), "max_wait": tooLong.Max.String(),
			})
			return &PageError{Endpoint: r.endpoint, Page: r.page, Reason: "rate limited", Err: err}
		}
		return c.withoutToken(c.requestFailed(r, attempts, scrubURLError(err)))
	}
	fields := map[string]any{
		"method": req.Method, "url": withoutQuery(req.URL),
		"endpoint": r.endpoint, "page": r.page, "status": resp.StatusCode,
		"duration": time.Since(start).String(),
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// Retries are used up or the status is final; the handler left the body.
		excerpt := ""
		// A server refusing the token is the likeliest to echo it, and its
		// body says nothing the status does not: it gets no excerpt.
		if resp.StatusCode != http.StatusUnauthorized && resp.StatusCode != http.StatusForbidden {
			body, _ := readCapped(resp.Body, 4096)
			excerpt = sanitizeExcerpt(body, c.cfg.Token)
		}
		resp.Body.Close()
		c.cfg.Logger.Warn(ctx, "API request failed", fields)
		// The URL is the final one, after same-origin redirects a server
		// chose: it is redacted like any server text.
		return c.withoutToken(&APIError{
			Endpoint: r.endpoint, Page: r.page, Status: resp.StatusCode,
			Attempts: int(attempts.count.Load()), Elapsed: time.Since(attempts.start),
			URL: requestURL(resp.Request), Excerpt: excerpt,
		})
	}
	resp.Body.Close()
	fields["bytes"] = size
	c.cfg.Logger.Debug(ctx, "fetched page", fields)
	return nil
}

// decodeBesideNetwork is the size of a body from which a page leaves the
// network before it is decoded (pageSource.fetch): decoding a smaller one takes
// microseconds, and knowing first whether it ends the read keeps the pages
// sent past the end to the window's worth.
const decodeBesideNetwork = 16 << 10

// notAPageError is a 2xx answer whose body is not a page of the endpoint:
// what a maintenance page, an error object or a cut-off answer served with
// a 200 looks like. It is retried like a 5xx.
type notAPageError struct {
	Status int
	Err    error
}

func (e *notAPageError) Error() string {
	return fmt.Sprintf("the answer (HTTP %d) is not a page: %v", e.Status, e.Err)
}

func (e *notAPageError) Unwrap() error { return e.Err }

// attemptsKey carries a page request's *attemptLog to the request log hook
// and the retry policy, so an error can say how many attempts were made.
type attemptsKey struct{}

// requestFailed is the error of a request that never got an answer: how
// many attempts over how long, the last error, and for an error of the
// connection itself (refused, DNS, TLS), the setting to check.
func (c *Client) requestFailed(r pageRequest, log *attemptLog, err error) error {
	reason := "the request failed"
	if n := log.count.Load(); n > 1 {
		reason = fmt.Sprintf("the request failed after %d attempts over %s; the last error", n, roundDuration(time.Since(log.start)))
	}
	if what := connectionProblem(err); what != "" {
		// Scheme and host only: the base URL's path may hold what a user
		// put there by mistake, and the host is what a connection error
		// is about.
		err = &ConnectionError{Problem: what, BaseURL: origin(c.base), Proxy: viaProxy(err), Err: err}
	}
	return &PageError{Endpoint: r.endpoint, Page: r.page, Reason: reason, Err: err}
}

// requestURL is the URL a response answered, as scheme://host/path: the
// path a user needs to fix a wrong endpoint_paths, never the query (a
// redirect a server chose may have put anything there) nor userinfo.
func requestURL(req *http.Request) string {
	if req == nil || req.URL == nil {
		return ""
	}
	return withoutQuery(req.URL)
}

// withoutQuery is u as scheme://host/path, for errors and logs: queries
// never appear in either.
func withoutQuery(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery, c.ForceQuery, c.Fragment, c.RawFragment = "", false, "", ""
	return c.String()
}

// roundDuration prints a wait as people read it: 12.1s, 850ms.
func roundDuration(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

// readBody reads a response body of at most limit bytes. A declared
// Content-Length sizes the buffer once: growing it by doubling would
// allocate about three times a page for every page of a large read.
func readBody(resp *http.Response, limit int64) ([]byte, error) {
	n := resp.ContentLength
	if n < 0 || n > limit {
		return readCapped(resp.Body, limit)
	}
	buf := getBody(int(n))
	if _, err := io.ReadFull(resp.Body, buf); err != nil {
		recycleBody(buf)
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

// scrubURLError drops the *url.Error wrapper's repetition of the URL while
// keeping its cause; the URL holds no secret, but the page does the naming.
func scrubURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
