package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// Retries of one start's request, inside go-retryablehttp: a longer wait
// than dispatchWaitMax (a rate limit's reset an hour away) ends the start
// instead, and the scheduler waits it out between starts.
const (
	dispatchRetries = 4 // the first wait between them is waits.dispatchWaitMin
	dispatchWaitMax = time.Minute
	dispatchTimeout = 30 * time.Second // one request's
	// dispatchLongest bounds one start: every try timed out, every wait
	// at its longest.
	dispatchLongest = (dispatchRetries+1)*dispatchTimeout + dispatchRetries*dispatchWaitMax
)

// dispatcher sends the one POST that starts a run in GitHub or HCP
// Terraform, retried on connection errors, 429 and 5xx by go-retryablehttp,
// waiting as Retry-After or the rate-limit reset headers say.
type dispatcher struct {
	client *retryablehttp.Client
	token  string
	name   string         // the service, in errors: "GitHub"
	hints  map[int]string // what to check, by a refusal's status
}

func newDispatcher(name, token string, hints map[int]string) *dispatcher {
	c := retryablehttp.NewClient()
	c.Logger = nil // the scheduler logs each start's outcome
	c.RetryMax = dispatchRetries
	c.RetryWaitMin, c.RetryWaitMax = waits.dispatchWaitMin, dispatchWaitMax
	c.Backoff = rateLimitBackoff
	c.CheckRetry = retryPolicy
	c.ErrorHandler = retryablehttp.PassthroughErrorHandler
	// A redirect would carry the token to another place; the service's
	// advice for receivers (avoid redirects, API.md#delivery) holds for the
	// relay's own requests.
	c.HTTPClient.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	c.HTTPClient.Timeout = dispatchTimeout
	return &dispatcher{client: c, token: token, name: name, hints: hints}
}

// post sends body to url with the token; any 2xx is a start.
func (d *dispatcher) post(ctx context.Context, url, contentType string, body []byte, header http.Header) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, url, body)
	if err != nil {
		return err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Authorization", "Bearer "+d.token)
	req.Header.Set("User-Agent", "joinit-relay/"+version)
	resp, err := d.client.Do(req)
	if err != nil {
		return fmt.Errorf("%s: POST %s: %s", d.name, url, redact.Text(err.Error(), 300, redact.Secret{Value: d.token}))
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return nil
	}
	text, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	e := &startError{service: d.name, status: resp.StatusCode, message: redact.Text(serverMessage(text), 300, redact.Secret{Value: d.token}), hint: d.hints[resp.StatusCode]}
	e.wait, _ = rateLimitWait(resp, time.Now())
	return e
}

// startError is a backend's refusal: its status, its own words, and the
// wait it asked for.
type startError struct {
	service string
	status  int
	message string
	hint    string // what to check, for statuses that mean a setting is wrong
	wait    time.Duration
}

func (e *startError) Error() string {
	s := e.service + " answered " + strconv.Itoa(e.status) + " " + http.StatusText(e.status)
	if e.message != "" {
		s += ": " + e.message
	}
	if e.hint != "" {
		s += " (" + e.hint + ")"
	}
	return s
}

func (e *startError) RetryAfter() time.Duration { return e.wait }

// serverMessage is the text of GitHub's {"message"} or JSON:API's
// {"errors":[{"title","detail"}]}; "" for anything else.
func serverMessage(body []byte) string {
	var v struct {
		Message string `json:"message"`
		Errors  []struct {
			Title  string `json:"title"`
			Detail string `json:"detail"`
		} `json:"errors"`
	}
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	if v.Message == "" && len(v.Errors) > 0 {
		v.Message = v.Errors[0].Title
		if v.Errors[0].Detail != "" {
			v.Message += ": " + v.Errors[0].Detail
		}
	}
	return v.Message
}

// retryPolicy is go-retryablehttp's default, plus GitHub's rate-limit 403s;
// a wait longer than dispatchWaitMax ends the start (the scheduler waits).
func retryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if wait, ok := rateLimitWait(resp, time.Now()); ok {
		return wait <= dispatchWaitMax, nil
	}
	return retryablehttp.DefaultRetryPolicy(ctx, resp, err)
}

// rateLimitBackoff waits as the server asked, else go-retryablehttp's
// exponential backoff.
func rateLimitBackoff(lo, hi time.Duration, attempt int, resp *http.Response) time.Duration {
	if wait, ok := rateLimitWait(resp, time.Now()); ok {
		return wait
	}
	return retryablehttp.DefaultBackoff(lo, hi, attempt, resp)
}

// rateLimitWait reads the wait a refusal asks for: Retry-After (read as the
// provider's client reads it, client.ParseRetryAfter, on 429, 503 and
// GitHub's secondary-limit 403), or, with
// X-RateLimit-Remaining 0, X-RateLimit-Reset (GitHub: a Unix time; HCP
// Terraform: seconds).
func rateLimitWait(resp *http.Response, now time.Time) (time.Duration, bool) {
	if resp == nil || (resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable && resp.StatusCode != http.StatusForbidden) {
		return 0, false
	}
	if wait, ok := client.ParseRetryAfter(resp.Header.Get("Retry-After"), now); ok {
		return wait, true
	}
	if resp.Header.Get("X-RateLimit-Remaining") != "0" {
		return 0, false
	}
	reset, err := strconv.ParseFloat(resp.Header.Get("X-RateLimit-Reset"), 64)
	if err != nil || reset < 0 {
		return 0, false
	}
	if reset > 1e9 { // a Unix time
		return max(time.Unix(int64(reset), 0).Sub(now), 0), true
	}
	return time.Duration(reset * float64(time.Second)), true
}

// checkBaseURL refuses a backend URL that is not an absolute https URL (or
// http on a loopback address, for a local test server): the token goes there.
func checkBaseURL(flagName, v string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimRight(v, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return nil, fmt.Errorf("-%s %q is not an https URL (plain http only on a loopback address): the token is sent there", flagName, v)
	}
	if u.Scheme == "http" && !client.IsLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("-%s %s://%s %s", flagName, u.Scheme, u.Host, client.PlainHTTPRefused(u.Hostname(), "the token"))
	}
	return u, nil
}
