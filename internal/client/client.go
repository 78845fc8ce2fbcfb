// Package client reads the Join It API: authentication, paging, retries and
// decoding. It imports nothing of Terraform and speaks of the API and of
// its own Config only: an error whose fix is a setting names it as a value
// (a Setting, settings.go), and the provider words it with its attribute
// and environment variable names (Word).
package client

import (
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
	"unicode"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
	"golang.org/x/oauth2"
)

// Client reads one organization's data. It is safe for concurrent use, and
// identical reads made while it lives are fetched once (see cache.go).
type Client struct {
	cfg    Config
	base   *url.URL
	http   *retryablehttp.Client
	pause  *pauseGate
	window *sendWindow
	cache  *cache
	// answers are the run's believed answers, page by page (answers.go).
	answers *answerBook
	// requests numbers page requests, for the trace.
	requests atomic.Uint64
	// paths are the endpoints' paths, and the alternates of those the
	// specification does not show in full (pathfallback.go).
	paths *pathChoice
	// decoders bounds the pages decoded at once (decodegate.go).
	decoders *decodeGate
}

// New checks the configuration and builds a client. No request is sent.
func New(cfg Config) (*Client, error) {
	alternates := alternatePaths(cfg.Paths)
	cfg = cfg.withDefaults()
	base, err := ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.Token == "" {
		return nil, errors.New("the access token is empty")
	}
	// A token read from a file often ends in a newline; net/http would
	// refuse the header on every attempt, and each refusal would be retried.
	if strings.ContainsFunc(cfg.Token, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return nil, errors.New("the access token contains white space or control characters (a trailing newline?)")
	}
	for name, p := range cfg.Paths {
		if err := ValidatePath(name, p); err != nil {
			return nil, err
		}
	}

	c := &Client{
		cfg: cfg, base: base, pause: &pauseGate{}, window: newSendWindow(cfg.MaxConcurrency),
		cache: newCache(defaultRetainUpTo), answers: newAnswerBook(),
		decoders: newDecodeGate(),
		paths:    newPathChoice(cfg.Paths, alternates),
	}
	c.http = c.newRetryingClient()
	return c, nil
}

// newRetryingClient stacks the transports, outermost first:
// token (only for the base URL's origin) → the shared send window and
// Retry-After pause → the attempt's time limit → network.
func (c *Client) newRetryingClient() *retryablehttp.Client {
	network := cleanhttp.DefaultPooledTransport()
	network.MaxIdleConnsPerHost = c.cfg.MaxConcurrency + 1
	if c.base.Scheme == "http" {
		// http was allowed because the host is loopback; hold the dial to it.
		network.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: refuseNonLoopback}).DialContext
	}

	tokens := oauth2.StaticTokenSource(&oauth2.Token{AccessToken: c.cfg.Token, TokenType: "Bearer"})
	timed := &attemptTimeout{limit: c.cfg.Timeout, base: network}
	gated := &sendTransport{gate: c.pause, window: c.window, base: timed, logger: c.cfg.Logger, trace: c.trace}
	authed := &originTransport{
		origin:   origin(c.base),
		withAuth: &oauth2.Transport{Source: tokens, Base: gated},
		without:  gated,
	}

	rc := retryablehttp.NewClient()
	rc.HTTPClient = &http.Client{
		Transport:     authed, // attemptTimeout bounds each attempt
		CheckRedirect: sameOriginRedirects,
	}
	rc.Logger = nil // we log ourselves, without headers
	// retryPolicy charges retries against MaxRetries itself: a request
	// refused for the rate while other requests of the client get through
	// is bounded by time, not by a count (see retryPolicy).
	rc.RetryMax = math.MaxInt32
	rc.RetryWaitMin = c.cfg.RetryWaitMin
	rc.RetryWaitMax = c.cfg.RetryWaitMax
	rc.CheckRetry = c.retryPolicy
	rc.Backoff = c.backoff
	rc.ErrorHandler = retryablehttp.PassthroughErrorHandler
	rc.RequestLogHook = c.logAttempt
	return rc
}

// origin is scheme://host[:port], the unit a token is bound to.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// originTransport attaches the token only to requests for the API's own
// origin, so a redirect elsewhere can never carry it.
type originTransport struct {
	origin   string
	withAuth http.RoundTripper
	without  http.RoundTripper
}

func (t *originTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if origin(req.URL) == t.origin {
		return t.withAuth.RoundTrip(req)
	}
	return t.without.RoundTrip(req)
}

// sameOriginRedirects refuses redirects to another origin: following them
// could hand the token to a host the user never configured.
func sameOriginRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errTooManyRedirects
	}
	if origin(req.URL) != origin(via[0].URL) {
		return &redirectError{to: req.URL.Scheme + "://" + req.URL.Host}
	}
	return nil
}

type redirectError struct{ to string }

func (e *redirectError) Error() string { return e.wordWith(ConfigNames) }

func (e *redirectError) wordWith(name Namer) string {
	return fmt.Sprintf("the API redirected to another host (%s); refusing to follow it so the token is not sent there: set %s to the final address",
		e.to, name(SettingBaseURL))
}

var errTooManyRedirects = errors.New("the API redirected more than 10 times")

func (c *Client) logAttempt(_ retryablehttp.Logger, req *http.Request, attempt int) {
	a, _ := req.Context().Value(attemptsKey{}).(*attemptLog)
	if a != nil {
		a.count.Add(1)
	}
	if attempt == 0 {
		return
	}
	c.cfg.Logger.Debug(req.Context(), "retrying request", a.fields(map[string]any{
		"method": req.Method, "url": withoutQuery(req.URL), "attempt": attempt + 1,
	}))
}

// now is replaced in tests.
var now = time.Now
