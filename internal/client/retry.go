package client

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// retryPolicy retries network errors, 429, 5xx other than 501 (which
// says the server will never do it), and a 2xx whose body is not a page
// (notAPageError). A host name that does not resolve and a certificate
// that is not trusted fail at once: no retry changes them. Context cancellation, refused
// redirects and oversized bodies end the read at once, and so does a
// Retry-After longer than MaxRetryWait: a plan should fail and say why, not
// sit for an hour.
//
// Each retry is charged against MaxRetries, but one: a request refused for
// the rate (429, or 503 with Retry-After) while other requests of the
// client got through since its last refusal. The server is then serving
// the client as fast as it allows, and this request's turn comes; twenty
// reads sharing a rate limit would otherwise use up their retries waiting
// for one another. Such a request is bounded by time instead: each wait by
// MaxRetryWait, the whole read by its context (the data source's timeouts).
func (c *Client) retryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	log, _ := ctx.Value(attemptsKey{}).(*attemptLog)
	if err != nil {
		var redirect *redirectError
		var tooLarge *bodyTooLargeError
		switch {
		case errors.As(err, &redirect), errors.As(err, &tooLarge),
			errors.Is(err, errTooManyRedirects), errors.Is(err, context.Canceled),
			isCertificateError(err), isHostNotFound(err),
			// A page that names another page than was asked for is a
			// server that does not advance, not a passing fault.
			errors.Is(err, ErrNotAdvancing):
			return false, err
		}
		return c.charge(log), nil
	}
	if wait, ok := retryAfter(resp); ok && wait > c.cfg.MaxRetryWait {
		return false, &RetryWaitError{Status: resp.StatusCode, Wait: wait, Max: c.cfg.MaxRetryWait}
	}
	switch {
	case isRateLimit(resp):
		if c.cfg.MaxRetries > 0 && log.othersProgressed(c.window) && time.Since(log.start) < c.unchargedFor() {
			return true, nil
		}
		return c.charge(log), nil
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return c.charge(log), nil
	}
	return false, nil
}

// unchargedFor is how long a request may go on being refused for the rate
// without its retries being charged: as long as its retries could wait if
// each waited the longest. A caller without a deadline of its own (the
// provider always has one, the read's timeouts) is not held forever.
func (c *Client) unchargedFor() time.Duration {
	return time.Duration(c.cfg.MaxRetries+1) * c.cfg.MaxRetryWait
}

// charge counts one retry of the request against MaxRetries and reports
// whether it may be made.
func (c *Client) charge(log *attemptLog) bool {
	if log == nil {
		return c.cfg.MaxRetries > 0
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	log.charged++
	return log.charged <= c.cfg.MaxRetries
}

// attemptLog is what one page's request went through: the retry policy's
// account and what the error that ends it reports.
type attemptLog struct {
	count atomic.Int32 // attempts sent
	start time.Time
	// endpoint, page and request name the page request, for its trace.
	endpoint string
	page     int
	request  uint64

	mu      sync.Mutex
	charged int    // retries charged against MaxRetries
	mark    uint64 // the client's successes at the request's last refusal for the rate
}

func newAttemptLog(w *sendWindow) *attemptLog {
	return &attemptLog{start: time.Now(), mark: w.successes.Load()}
}

// othersProgressed reports whether the client had answers that were not
// refused since this request was last refused for the rate (or began).
func (l *attemptLog) othersProgressed(w *sendWindow) bool {
	if l == nil {
		return false
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	now := w.successes.Load()
	if now > l.mark {
		l.mark = now
		return true
	}
	return false
}

// fields adds the page request's endpoint and page to log fields: the URL
// logged carries no query.
func (l *attemptLog) fields(f map[string]any) map[string]any {
	if l != nil {
		f["endpoint"], f["page"] = l.endpoint, l.page
	}
	return f
}

// logOf is the attempt log of the request resp answers, if any.
func logOf(resp *http.Response) *attemptLog {
	l, _ := resp.Request.Context().Value(attemptsKey{}).(*attemptLog)
	return l
}

// chargedRetries reports the retries charged so far: the backoff grows
// with them.
func (l *attemptLog) chargedRetries() int {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.charged
}

// backoff honours Retry-After on 429 and 503 (seconds or an HTTP date), and
// otherwise waits exponentially longer with jitter, so clients that failed
// together do not retry together. A rate limit (a 429, or a Retry-After)
// pauses the whole client: the limit is the server's for all of it.
func (c *Client) backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if log, ok := resp.Request.Context().Value(attemptsKey{}).(*attemptLog); ok {
			// A retry not charged is not a failure of this request.
			attempt = max(log.chargedRetries()-1, 0)
		}
		if wait, ok := retryAfter(resp); ok {
			// retryPolicy refused longer waits. A wait of 0, or a date
			// already past (a server clock behind ours), is waited as the
			// shortest backoff: retrying at once would hammer the server.
			wait = max(min(wait, c.cfg.MaxRetryWait), minWait)
			c.pause.extend(now().Add(wait))
			c.cfg.Logger.Debug(resp.Request.Context(), "server asked to wait (Retry-After); pausing all requests", logOf(resp).fields(map[string]any{
				"url": withoutQuery(resp.Request.URL), "status": resp.StatusCode, "wait": wait.String(),
			}))
			return wait
		}
	}
	wait := exponentialJitter(minWait, maxWait, attempt)
	if resp != nil {
		if resp.StatusCode == http.StatusTooManyRequests {
			c.pause.extend(now().Add(wait))
		}
		c.cfg.Logger.Debug(resp.Request.Context(), "request failed; backing off", logOf(resp).fields(map[string]any{
			"url": withoutQuery(resp.Request.URL), "status": resp.StatusCode, "wait": wait.String(),
		}))
	}
	return wait
}

// retryAfter is the wait a 429 or 503 asks for, if it names one.
func retryAfter(resp *http.Response) (time.Duration, bool) {
	if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
		return 0, false
	}
	return parseRetryAfter(resp.Header.Get("Retry-After"))
}

// exponentialJitter returns a wait in [d/2, d] where d = minWait·2^attempt,
// capped at maxWait.
func exponentialJitter(minWait, maxWait time.Duration, attempt int) time.Duration {
	d := minWait
	for i := 0; i < attempt && d < maxWait; i++ {
		d *= 2
	}
	if d > maxWait {
		d = maxWait
	}
	half := d / 2
	return half + rand.N(half+1)
}

const maxRetryAfterSeconds = math.MaxInt64 / int64(time.Second)

// parseRetryAfter reads delay-seconds or an HTTP date; a date in the past
// means no wait.
func parseRetryAfter(v string) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		// Only as long as a Duration can hold: the wait is reported as the
		// server asked it, and refused when over MaxRetryWait.
		secs = min(secs, maxRetryAfterSeconds)
		return time.Duration(secs) * time.Second, true
	}
	when, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := when.Sub(now()); d > 0 {
		return d, true
	}
	return 0, true
}
