package client

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// Defaults chosen from the specification: the largest page sizes the API
// allows, so a read takes the fewest requests.
const (
	DefaultTimeout        = 60 * time.Second
	DefaultMaxRetries     = 5
	DefaultMaxConcurrency = 4
	DefaultMaxPages       = 100_000
	DefaultMaxBodyBytes   = 64 << 20
	DefaultMaxRetryWait   = 60 * time.Second

	// MaxCount is the largest `count` the count-style endpoints accept.
	MaxCount = apispec.MaxCount
	// DefaultCount is the page size of a count-style endpoint that is not
	// given one: what a server that ignores count serves.
	DefaultCount = apispec.DefaultCount
	// MaxLimit is the largest `limit` the metadata endpoints accept.
	MaxLimit = apispec.MaxLimit
)

// Paths are the endpoint paths, relative to the base URL; the defaults and
// how empty fields take them are in package apispec, shared with the
// sandbox.
type Paths = apispec.Paths

// DefaultPaths returns the paths used when none are configured.
func DefaultPaths() Paths { return apispec.DefaultPaths() }

// Config configures a Client. Zero values take the documented defaults.
type Config struct {
	// BaseURL is the API address; it may carry a path prefix. It must be
	// https unless its host is a loopback address.
	BaseURL string
	// Token is the OAuth 2.0 access token, sent as a Bearer token.
	Token string
	// Timeout bounds each HTTP attempt, including reading its body.
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt is retried. Use
	// NoRetries for none (zero means the default). A refusal for the rate
	// while other requests get through is not counted (see retryPolicy).
	MaxRetries int
	// MaxConcurrency bounds the requests in flight at once, across every
	// read of the client (see window.go).
	MaxConcurrency int
	// UserAgent is sent on every request.
	UserAgent string
	// Paths overrides endpoint paths; empty fields keep the defaults.
	Paths Paths
	// Logger receives request and paging events; nil discards them.
	Logger Logger

	// MaxPages ends runaway paging with an error.
	MaxPages int
	// MaxBodyBytes caps the size of one response body.
	MaxBodyBytes int64
	// RetryWaitMin and RetryWaitMax bound the exponential backoff.
	RetryWaitMin, RetryWaitMax time.Duration
	// MaxRetryWait is the longest the client waits before a retry. A server
	// that asks for a longer wait (Retry-After) fails the read at once with
	// a *RetryWaitError; backoff waits are capped at it.
	MaxRetryWait time.Duration
}

// NoRetries as Config.MaxRetries disables retries.
const NoRetries = -1

func (c Config) withDefaults() Config {
	if c.Timeout <= 0 {
		c.Timeout = DefaultTimeout
	}
	switch {
	case c.MaxRetries == NoRetries:
		c.MaxRetries = 0
	case c.MaxRetries <= 0:
		c.MaxRetries = DefaultMaxRetries
	}
	if c.MaxConcurrency <= 0 {
		c.MaxConcurrency = DefaultMaxConcurrency
	}
	if c.MaxPages <= 0 {
		c.MaxPages = DefaultMaxPages
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if c.RetryWaitMin <= 0 {
		c.RetryWaitMin = 500 * time.Millisecond
	}
	if c.MaxRetryWait <= 0 {
		c.MaxRetryWait = DefaultMaxRetryWait
	}
	if c.RetryWaitMax <= 0 {
		c.RetryWaitMax = 30 * time.Second
	}
	c.RetryWaitMax = min(c.RetryWaitMax, c.MaxRetryWait)
	c.RetryWaitMin = min(c.RetryWaitMin, c.RetryWaitMax)
	if c.Logger == nil {
		c.Logger = discardLogger{}
	}
	c.Paths = c.Paths.WithDefaults()
	return c
}

// ParseBaseURL checks that raw is an absolute http(s) URL that is safe to
// send a token to: https, or http to a loopback host only. The returned URL
// has no trailing slash in its path, so endpoint paths join cleanly.
func ParseBaseURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, errors.New("the base URL is empty")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the base URL is not a valid URL: %w", err)
	}
	if u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("the base URL %q must be absolute, like https://api.example.com", raw)
	}
	if u.User != nil {
		return nil, errors.New("the base URL must not carry credentials; use the access token")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("the base URL %q must not have a query or fragment", u.Redacted())
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !IsLoopbackHost(u.Hostname()) {
			return nil, fmt.Errorf("the base URL %q uses http: only https is allowed, except for loopback hosts (127.0.0.0/8, ::1, localhost), so the token never crosses a network in clear text", u.String())
		}
	default:
		return nil, fmt.Errorf("the base URL %q has scheme %q: use https", u.String(), u.Scheme)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// IsLoopbackHost reports whether host names this machine only.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validatePath checks an endpoint path override.
func validatePath(name, p string) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("the %s endpoint path %q must start with /", name, p)
	}
	if strings.ContainsAny(p, "?#") {
		return fmt.Errorf("the %s endpoint path %q must not contain a query or fragment", name, p)
	}
	if strings.Contains(p, "://") {
		return fmt.Errorf("the %s endpoint path %q must be a path, not a URL: set base_url for the host", name, p)
	}
	return nil
}
