package client

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

// retryPolicy retries network errors, 429 and 5xx other than 501 (which
// says the server will never do it). Context cancellation, refused
// redirects and oversized bodies end the read at once, and so does a
// Retry-After longer than MaxRetryWait: a plan should fail and say why, not
// sit for an hour.
func (c *Client) retryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctxErr := ctx.Err(); ctxErr != nil {
		return false, ctxErr
	}
	if err != nil {
		var redirect *redirectError
		var tooLarge *bodyTooLargeError
		switch {
		case errors.As(err, &redirect), errors.As(err, &tooLarge),
			errors.Is(err, errTooManyRedirects), errors.Is(err, context.Canceled):
			return false, err
		}
		return true, nil
	}
	if wait, ok := retryAfter(resp); ok && wait > c.cfg.MaxRetryWait {
		return false, &RetryWaitError{Status: resp.StatusCode, Wait: wait, Max: c.cfg.MaxRetryWait}
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return true, nil
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return true, nil
	}
	return false, nil
}

// backoff honours Retry-After on 429 and 503 (seconds or an HTTP date), and
// otherwise waits exponentially longer with jitter, so clients that failed
// together do not retry together. A Retry-After pauses the whole client.
func (c *Client) backoff(minWait, maxWait time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if wait, ok := retryAfter(resp); ok {
			wait = min(wait, c.cfg.MaxRetryWait) // retryPolicy refused longer waits
			c.pause.extend(now().Add(wait))
			c.cfg.Logger.Debug(resp.Request.Context(), "server asked to wait (Retry-After); pausing all requests", map[string]any{
				"url": resp.Request.URL.String(), "status": resp.StatusCode, "wait": wait.String(),
			})
			return wait
		}
	}
	wait := exponentialJitter(minWait, maxWait, attempt)
	if resp != nil {
		c.cfg.Logger.Debug(resp.Request.Context(), "request failed; backing off", map[string]any{
			"url": resp.Request.URL.String(), "status": resp.StatusCode, "wait": wait.String(),
		})
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
