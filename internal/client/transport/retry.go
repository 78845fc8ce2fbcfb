package transport

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// policy is CheckRetry of one request: it retries network errors, 429,
// 5xx other than 501 (which says the server will never do it), and a 2xx
// whose body is not a page (notAPageError), unless Accept marked why as
// Final. A host name that does not
// resolve and a certificate that is not trusted fail at once: no retry
// changes them. Context cancellation, refused redirects and oversized
// bodies end the read at once, and so does a Retry-After longer than
// MaxRetryWait: a plan should fail and say why, not sit for an hour.
//
// Each retry is charged against MaxRetries, but one: a request refused for
// the rate (429, or 503 with Retry-After) while other requests of the
// client got through since its last refusal. The server is then serving
// the client as fast as it allows, and this request's turn comes; twenty
// reads sharing a rate limit would otherwise use up their retries waiting
// for one another. Such a request is bounded by time instead: each wait by
// MaxRetryWait, the whole read by its context (the data source's timeouts).
func (t *Transport) policy(ctx context.Context, a *attempts, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	if err != nil {
		var redirect *RedirectError
		var tooLarge *bodyTooLargeError
		switch {
		case errors.As(err, &redirect), errors.As(err, &tooLarge),
			errors.Is(err, errTooManyRedirects), errors.Is(err, context.Canceled),
			isCertificateError(err), isHostNotFound(err), isPlainHTTPAnswer(err),
			isFinal(err):
			return false, err
		}
		return a.charge(t.cfg.MaxRetries), nil
	}
	if wait, ok := retryAfter(resp); ok && wait > t.cfg.MaxRetryWait {
		return false, &RetryWaitError{Status: resp.StatusCode, Wait: wait, Max: t.cfg.MaxRetryWait}
	}
	switch {
	case isRateLimit(resp):
		if t.cfg.MaxRetries > 0 && a.othersProgressed(t.successes.Load()) && time.Since(a.start) < t.unchargedFor() {
			return true, nil
		}
		return a.charge(t.cfg.MaxRetries), nil
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return a.charge(t.cfg.MaxRetries), nil
	}
	return false, nil
}

// unchargedFor is how long a request may go on being refused for the rate
// without its retries being charged: as long as its retries could wait if
// each waited the longest. A caller without a deadline of its own (the
// provider always has one, the read's timeouts) is not held forever.
func (t *Transport) unchargedFor() time.Duration {
	return time.Duration(t.cfg.MaxRetries+1) * t.cfg.MaxRetryWait
}

// backoff is Backoff of one request: how long it waits before its next
// attempt, and nothing else. After a refusal for the rate it is the pause
// the send stage set for the whole client (rateLimitPause); otherwise it
// grows exponentially with the retries charged, with jitter, so clients
// that failed together do not retry together. attempt is retryablehttp's
// count, used for an attempt with no answer (every such retry is charged).
func (t *Transport) backoff(a *attempts, minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp == nil {
		return exponentialJitter(minWait, maxWait, attempt)
	}
	if wait := a.pausedFor; wait > 0 {
		return wait
	}
	// A retry not charged is not a failure of this request.
	wait := exponentialJitter(minWait, maxWait, max(a.charged-1, 0))
	t.cfg.Logger.Debug(resp.Request.Context(), "request failed; backing off", a.fields(map[string]any{
		"url": t.shownURL(resp.Request.URL), "status": resp.StatusCode, "wait": wait.String(),
	}))
	return wait
}

// rateLimitPause is the wait a refusal for the rate asks of every request
// of the client: the Retry-After named (a wait of 0, or a date already
// past, waited as the shortest backoff: retrying at once would hammer the
// server), or for a 429 without one the exponential backoff; false when
// the answer is no such refusal, or names a wait longer than MaxRetryWait
// (which policy refuses).
func (t *Transport) rateLimitPause(a *attempts, resp *http.Response) (time.Duration, bool) {
	if wait, ok := retryAfter(resp); ok {
		if wait > t.cfg.MaxRetryWait {
			return 0, false
		}
		return max(wait, t.cfg.RetryWaitMin), true
	}
	if resp.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	return exponentialJitter(t.cfg.RetryWaitMin, t.cfg.RetryWaitMax, a.charged), true
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
