package client

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
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
	// DefaultMaxValues lets the full read of 100,000 memberships through
	// (about 3.4 million values, 2.7 GB of Terraform's memory to plan) and
	// the lean read of a million (2-3 million), and refuses a full read of
	// a million, which no CI runner could plan (DESIGN.md, "Bounds").
	DefaultMaxValues = 5_000_000
)

// Paths are the endpoint paths, relative to the base URL; the defaults and
// how empty fields take them are in package apispec, shared with the
// sandbox.
type Paths = apispec.Paths

// Config configures a Client. Zero values take the documented defaults.
type Config struct {
	// BaseURL is the API address; it may carry a path prefix. It must be
	// https unless its host is a loopback address. Empty is the service's
	// (DefaultBaseURL).
	BaseURL string
	// Token is the OAuth 2.0 access token, sent as a Bearer token.
	Token string
	// Timeout bounds each HTTP attempt, including reading its body.
	Timeout time.Duration
	// MaxRetries is how many times a failed attempt is retried. Use
	// NoRetries for none (zero means the default). A refusal for the rate
	// while other requests get through is not counted (transport.policy).
	MaxRetries int
	// MaxConcurrency bounds the requests in flight at once, across every
	// read of the client (transport/send.go).
	MaxConcurrency int
	// UserAgent is sent on every request.
	UserAgent string
	// Paths overrides endpoint paths; empty fields keep the defaults.
	Paths Paths
	// Logger receives request and paging events; nil discards them.
	Logger Logger
	// CACertPEM, when set, holds PEM certificates of authorities trusted
	// for the API's TLS besides the system's: a private CA, or a proxy
	// that intercepts TLS.
	CACertPEM []byte
	// OrganizationID, when set, is the organization every record must
	// belong to: a record whose organization_id is set and differs fails
	// the read (an *OrganizationError). Records without one pass.
	OrganizationID string

	// MaxPages ends runaway paging with an error.
	MaxPages int
	// MaxBodyBytes caps the size of one response body.
	MaxBodyBytes int64
	// MaxValues bounds the values one read may hold (weight.go): a read
	// fails with a *BudgetError as soon as the records it kept pass it.
	MaxValues int64
	// MaxBytes bounds the text one read may hold (weight.go), the same
	// way; 0 is no bound. The provider sets it to Terraform's message
	// ceiling.
	MaxBytes int64
	// RetryWaitMin and RetryWaitMax bound the exponential backoff.
	RetryWaitMin, RetryWaitMax time.Duration
	// MaxRetryWait is the longest the client waits before a retry. A server
	// that asks for a longer wait (Retry-After) fails the read at once with
	// a *transport.RetryWaitError; backoff waits are capped at it.
	MaxRetryWait time.Duration

	// network replaces the connections in the client's own tests (an
	// in-memory API, a network that fails as they need); nil in use.
	network http.RoundTripper
}

// NoRetries as Config.MaxRetries disables retries.
const NoRetries = -1

// DefaultBaseURL is the service's API host, the BaseURL of a zero Config.
const DefaultBaseURL = apispec.DefaultBaseURL

func (c Config) withDefaults() Config {
	if c.BaseURL == "" {
		c.BaseURL = DefaultBaseURL
	}
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
	if c.MaxValues <= 0 {
		c.MaxValues = DefaultMaxValues
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
// has no trailing slash in its path, so endpoint paths join cleanly. Its
// errors name the URL by scheme and host only: the rest may hold a password
// or a token (?access_token=…) the user meant to keep out of logs.
func ParseBaseURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, errors.New("the base URL is empty")
	}
	if !strings.Contains(raw, "://") {
		// "127.0.0.1:8080" would otherwise fail url.Parse with words of
		// its own ("first path segment in URL cannot contain colon"), and
		// "api.example.com" parse as a bare path: the scheme is missing.
		return nil, errors.New("the base URL must be absolute, like https://api.example.com: it has no scheme")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("the base URL is not a valid URL: %s", describeURLError(err))
	}
	if u.Scheme == "" || u.Host == "" {
		return nil, errors.New("the base URL must be absolute, like https://api.example.com")
	}
	if u.User != nil {
		return nil, fmt.Errorf("the base URL %s must not carry credentials (user:password@); use the access token", transport.Origin(u))
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("the base URL %s must not have a query or fragment", transport.Origin(u))
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !IsLoopbackHost(u.Hostname()) {
			return nil, fmt.Errorf("the base URL %s uses http: only https is allowed, except for loopback hosts (127.0.0.0/8, ::1, localhost when it resolves to loopback addresses only), so the token never crosses a network in clear text", transport.Origin(u))
		}
	default:
		return nil, fmt.Errorf("the base URL %s has scheme %q: use https", transport.Origin(u), u.Scheme)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// describeURLError says why url.Parse failed without repeating the URL,
// nor the piece of it the error quotes (a port or an escape can be part of
// a password when the URL is malformed).
func describeURLError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var esc url.EscapeError
	var host url.InvalidHostError
	switch {
	case errors.As(err, &esc):
		return "it has an invalid %-escape"
	case errors.As(err, &host):
		return "its host has an invalid character"
	}
	return quoted.ReplaceAllString(err.Error(), "")
}

var quoted = regexp.MustCompile(`\s*"[^"]*"`)

// IsLoopbackHost reports whether host names this machine only: a loopback
// IP address, or localhost when it resolves to loopback addresses and
// nothing else. localhost is trusted for what it resolves to, not for its
// name: a hosts file or resolver can send it anywhere.
func IsLoopbackHost(host string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return isLoopbackHost(ctx, host, net.DefaultResolver.LookupIPAddr)
}

// isLoopbackHost is IsLoopbackHost with the resolver given, for tests.
func isLoopbackHost(ctx context.Context, host string, lookup func(context.Context, string) ([]net.IPAddr, error)) bool {
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback()
	}
	if !strings.EqualFold(host, "localhost") {
		return false
	}
	addrs, err := lookup(ctx, host)
	if err != nil || len(addrs) == 0 {
		return false
	}
	for _, a := range addrs {
		if !a.IP.IsLoopback() {
			return false
		}
	}
	return true
}

// ValidatePath checks an endpoint path override; the provider validates
// endpoint_paths with it too.
func ValidatePath(name, p string) error {
	if !strings.HasPrefix(p, "/") {
		return fmt.Errorf("the %s endpoint path %q must start with /", name, p)
	}
	if strings.ContainsAny(p, "?#") {
		return fmt.Errorf("the %s endpoint path %q must not contain a query or fragment", name, p)
	}
	if strings.Contains(p, "://") {
		return &urlAsPathError{endpoint: name, path: p}
	}
	return nil
}

// urlAsPathError is an endpoint path that is a URL: the host belongs in the
// base URL.
type urlAsPathError struct{ endpoint, path string }

func (e *urlAsPathError) Error() string { return e.WordWith(ConfigNames) }

// WordWith words the base URL setting.
func (e *urlAsPathError) WordWith(name failure.Namer) string {
	return fmt.Sprintf("the %s endpoint path %q must be a path, not a URL: set %s for the host", e.endpoint, e.path, name(SettingBaseURL))
}

// Logger receives the client's events. The provider bridges it to tflog;
// fields never hold the token or request headers.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

type discardLogger struct{}

func (discardLogger) Debug(context.Context, string, map[string]any) {}
func (discardLogger) Warn(context.Context, string, map[string]any)  {}
