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

// policy is the client's CheckRetry: it retries network errors, 429,
// 5xx but 501, and a 2xx whose body is not a page (unless Final). What no
// retry changes fails at once: an unknown host, an untrusted certificate,
// a refused redirect, an oversized body, a Retry-After over MaxRetryWait.
//
// Each retry is charged against MaxRetries but a refusal for the rate
// while other requests of the client got through: the server then serves
// as fast as it allows, and twenty reads sharing a limit would otherwise
// use up their retries waiting for one another. Such a request is bounded
// by time instead (unchargedFor, and the read's context).
func (t *Transport) policy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	a := attemptsOf(ctx)
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
		if _, ok := errors.AsType[*webPageError](err); ok && t.pages.Load() == 0 {
			// A web page before any page of the API: most often a base
			// URL of a web site. After one, a maintenance page.
			return a.charge(min(t.cfg.MaxRetries, webPageRetries)), nil
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

// isWebPage says whether an answer calls itself a web page.
func isWebPage(resp *http.Response) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(resp.Header.Get("Content-Type"))), "text/html")
}

// unchargedFor is how long a request may be refused for the rate without
// its retries being charged: as long as all of them could wait.
func (t *Transport) unchargedFor() time.Duration {
	return time.Duration(t.cfg.MaxRetries+1) * t.cfg.MaxRetryWait
}

// backoff is the client's Backoff: after a refusal for the rate, the
// pause the sender set for the client; otherwise exponential in the
// retries charged, with jitter (attempt is for an attempt with no answer).
func (t *Transport) backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp == nil {
		return exponentialJitter(minWait, maxWait, attempt)
	}
	a := attemptsOf(resp.Request.Context())
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

// rateLimitPause is the wait a refusal for the rate asks of the whole
// client: the Retry-After named (at least RetryWaitMin), or for a 429
// without one the backoff; false for no such refusal, or one over
// MaxRetryWait (which policy refuses).
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
	return ParseRetryAfter(resp.Header.Get("Retry-After"), now())
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

// ParseRetryAfter reads a Retry-After value: delay-seconds (digits, an
// optional "+"; more than a Duration holds is its longest) or an HTTP date
// (a date before now means no wait). Space around it is ignored; anything
// else, a negative number or a fraction among it, is no wait named
// (false). The client's transport and joinit-relay (through the facade,
// client.ParseRetryAfter) read the header with it.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		secs = min(secs, maxRetryAfterSeconds)
		return time.Duration(secs) * time.Second, true
	}
	when, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d := when.Sub(now); d > 0 {
		return d, true
	}
	return 0, true
}

// isRateLimit reports an answer that refuses a request for the rate of
// requests: 429, or 503 naming a wait with Retry-After.
func isRateLimit(resp *http.Response) bool {
	if resp.StatusCode == http.StatusTooManyRequests {
		return true
	}
	_, ok := retryAfter(resp)
	return ok
}
