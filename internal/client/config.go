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

	"github.com/agext/levenshtein"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
)

// Defaults of Config.
const (
	DefaultTimeout        = 60 * time.Second
	DefaultMaxRetries     = 5
	DefaultMaxConcurrency = 4
	DefaultMaxPages       = 100_000
	DefaultMaxBodyBytes   = 64 << 20
	DefaultMaxRetryWait   = 60 * time.Second
	// DefaultMaxValues lets a full read of 100,000 memberships and a lean
	// one of a million through, not a full one of a million (DESIGN.md,
	// "Bounds").
	DefaultMaxValues = 5_000_000
)

// Paths are the endpoint paths, relative to the base URL (apispec).
type Paths = apispec.Paths

// Config configures a Client. Zero values take the documented defaults.
type Config struct {
	// BaseURL is the API address, which may carry a path prefix: https
	// unless its host is loopback. Empty is DefaultBaseURL.
	BaseURL string
	Token   string        // the OAuth 2.0 access token, sent as a Bearer token
	Timeout time.Duration // each attempt, its body included
	// MaxRetries is how many times a failed attempt is retried (NoRetries:
	// none); a refusal for the rate while others get through is not
	// counted.
	MaxRetries     int
	MaxConcurrency int // requests in flight at once, across the client
	UserAgent      string
	Paths          Paths  // empty fields keep the defaults
	Logger         Logger // nil discards
	// CACertPEM holds authorities trusted besides the system's.
	CACertPEM []byte
	// OrganizationID, when set, fails a read with a record of another
	// organization (*OrganizationError); records without one pass.
	OrganizationID string

	MaxPages     int   // ends runaway paging with an error
	MaxBodyBytes int64 // one response body
	// MaxValues (0: the default) and MaxBytes (0: none) bound what one
	// read holds (records.go, weigh); past them it fails with a *BudgetError.
	MaxValues, MaxBytes        int64
	RetryWaitMin, RetryWaitMax time.Duration // the exponential backoff
	// MaxRetryWait is the longest wait before a retry; a longer
	// Retry-After fails at once (*transport.RetryWaitError).
	MaxRetryWait time.Duration

	network http.RoundTripper // the client's tests' network; nil in use
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

// ParseBaseURL checks that raw is an absolute URL safe to send a token to
// (https, or http to loopback), without a trailing slash. Its errors name
// scheme and host only: the rest may hold a secret.
func ParseBaseURL(raw string) (*url.URL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, errors.New("the base URL is empty")
	}
	if mistake := PastedMistake(raw); mistake != "" {
		return nil, errors.New("the base URL " + mistake)
	}
	if !strings.Contains(raw, "://") {
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
			return nil, errors.New("the base URL " + transport.Origin(u) + " " + PlainHTTPRefused(u.Hostname(), "the token"))
		}
	default:
		return nil, fmt.Errorf("the base URL %s has scheme %q: use https", transport.Origin(u), u.Scheme)
	}
	u.Path = strings.TrimRight(u.Path, "/")
	u.RawPath = ""
	return u, nil
}

// PastedMistake names how a value was pasted with more than the value:
// the quotes of a .env file, a trailing newline of a file or a CI secret,
// white space around it (SurroundingSpace). "" when none. The value itself
// is never part of it: a token's must not be shown.
func PastedMistake(v string) string {
	t := strings.TrimSpace(v)
	switch {
	case len(t) >= 2 && (t[0] == '"' && t[len(t)-1] == '"' || t[0] == '\'' && t[len(t)-1] == '\''):
		return "is in quotes, as a .env file or a copied shell line can leave them: remove the quotes"
	case strings.ContainsAny(v, "\r\n"):
		return "contains a newline: a trailing newline, as a value read from a file or a CI secret often has? Remove it"
	case t != v:
		return SurroundingSpace
	}
	return ""
}

// SurroundingSpace is PastedMistake's words for white space around a value.
const SurroundingSpace = "has white space around it: remove it"

// describeURLError says why url.Parse failed without quoting the URL.
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

// ParseRetryAfter reads a Retry-After value as the client does
// (transport.ParseRetryAfter): delay-seconds or an HTTP date, measured
// from now; false when it names no wait. joinit-relay reads its backends'
// refusals with it, so the two never differ in what they accept.
func ParseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	return transport.ParseRetryAfter(v, now)
}

// PlainHTTPRefused says why http to host, which IsLoopbackHost refused,
// is refused, naming the host: the mistake is often the host (locahost),
// not the scheme, and then it suggests the loopback name that host is a
// typo of. secret is what would cross the network ("the token"). It
// follows the URL's scheme and host: "<what> http://h:1 " + this. One
// wording for the provider's base URL and the companions' URLs alike.
func PlainHTTPRefused(host, secret string) string {
	const rule = ": only https is allowed off loopback, so that %s never crosses a network in clear text."
	if strings.EqualFold(host, "localhost") {
		return fmt.Sprintf(`uses http on %q, which resolves here to addresses that are not all loopback ones`+rule+" Use 127.0.0.1 or [::1].", host, secret)
	}
	return fmt.Sprintf("uses http on %q, which is not a loopback host (127.0.0.0/8, ::1, localhost)"+rule, host, secret) + loopbackTypo(host)
}

// loopbackNames are the loopback hosts a mistyped one is compared with.
var loopbackNames = []string{"localhost", "127.0.0.1", "::1"}

// loopbackTypo is ` Did you mean "localhost"?` when host is a typo of a
// loopback name: the name with a trailing dot, or at an edit distance under
// max(2, a third of host's length), the rule of the provider's suggestions
// (internal/provider/suggest.go). "" for an IP address: that is a host of
// its own, not a typo.
func loopbackTypo(host string) string {
	h := strings.ToLower(host)
	if net.ParseIP(h) != nil {
		return ""
	}
	for _, name := range loopbackNames {
		if h == name+"." {
			return fmt.Sprintf(" Did you mean %q, without the trailing dot?", name)
		}
	}
	for _, name := range loopbackNames {
		if levenshtein.Distance(h, name, nil) < max(2, len([]rune(h))/3) {
			return fmt.Sprintf(" Did you mean %q?", name)
		}
	}
	return ""
}

// IsLoopbackHost reports whether host names this machine only: a loopback
// IP, or localhost resolving to loopback addresses only.
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

// urlAsPathError is an endpoint path that is a URL.
type urlAsPathError struct{ endpoint, path string }

func (e *urlAsPathError) Error() string { return e.WordWith(ConfigNames) }

// WordWith words the base URL setting.
func (e *urlAsPathError) WordWith(name failure.Namer) string {
	return fmt.Sprintf("the %s endpoint path %q must be a path, not a URL: set %s for the host", e.endpoint, e.path, name(SettingBaseURL))
}

// Logger receives the client's events; fields never hold the token.
type Logger interface {
	Debug(ctx context.Context, msg string, fields map[string]any)
	Warn(ctx context.Context, msg string, fields map[string]any)
}

type discardLogger struct{}

func (discardLogger) Debug(context.Context, string, map[string]any) {}
func (discardLogger) Warn(context.Context, string, map[string]any)  {}

// The names of the packages below that the provider and the commands use.
type (
	// Setting is a part of Config an error concerns.
	Setting     = failure.Setting
	BudgetError = failure.BudgetError
)

// The settings errors name.
var (
	SettingBaseURL        = failure.SettingBaseURL
	SettingToken          = failure.SettingToken
	SettingOrganizationID = failure.SettingOrganizationID
	SettingMaxConcurrency = failure.SettingMaxConcurrency
	SettingMaxRetries     = failure.SettingMaxRetries
	SettingMaxRetryWait   = failure.SettingMaxRetryWait
	SettingTimeout        = failure.SettingTimeout
	SettingCACerts        = failure.SettingCACerts
	SettingMaxValues      = failure.SettingMaxValues
	SettingPaths          = failure.SettingPaths
)

// The bounds a BudgetError names.
const (
	OverValues = failure.OverValues
	OverPage   = failure.OverPage
)

// SettingPath is the path of one endpoint, Config.Paths[endpoint].
func SettingPath(endpoint string) Setting { return failure.SettingPath(endpoint) }

// ConfigNames names a setting as the Config field it is.
func ConfigNames(s Setting) string { return failure.ConfigNames(s) }

// Word returns err's message with every setting it names worded by name,
// wherever in the chain the error that names it stands.
func Word(err error, name failure.Namer) string { return failure.Word(err, name) }
