// Package client reads the Join It API (DESIGN.md, "Packages"). An error
// whose fix is a setting names it as a Setting, which the provider words
// with its own names (Word).
//
// Its files, bottom up (each uses only those above it): cache, config (and
// the settings' names), client, organization; records (shared value types,
// what a read needs of a record), guard, list (one list read); then one file
// an API area (each record type with its weight).
package client

import (
	"crypto/x509"
	"errors"
	"net/url"
	"strings"
	"unicode"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/paging"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// Client reads one organization's data, concurrently; identical reads are
// fetched once (cache.go).
type Client struct {
	cfg       Config
	base      *url.URL
	transport *transport.Transport
	cache     *cache
	answers   *paging.Answers
}

// New checks the configuration and builds a client. No request is sent.
func New(cfg Config) (*Client, error) {
	cfg = cfg.withDefaults()
	base, err := ParseBaseURL(cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	if cfg.Token == "" {
		return nil, errors.New("the access token is empty")
	}
	// A token read from a file often ends in a newline.
	if strings.ContainsFunc(cfg.Token, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) {
		return nil, errors.New("the access token contains white space or control characters (a trailing newline?)")
	}
	for name, p := range cfg.Paths {
		if err := ValidatePath(name, p); err != nil {
			return nil, err
		}
	}
	roots, err := rootCAs(cfg.CACertPEM)
	if err != nil {
		return nil, err
	}
	return &Client{
		cfg: cfg, base: base,
		transport: transport.New(transport.Config{
			Base: base, Token: cfg.Token, UserAgent: cfg.UserAgent, Timeout: cfg.Timeout,
			MaxRetries: cfg.MaxRetries, MaxConcurrency: cfg.MaxConcurrency, MaxBodyBytes: cfg.MaxBodyBytes,
			RetryWaitMin: cfg.RetryWaitMin, RetryWaitMax: cfg.RetryWaitMax, MaxRetryWait: cfg.MaxRetryWait,
			Logger: cfg.Logger, Network: cfg.network, RootCAs: roots,
		}),
		cache: newCache(defaultRetainUpTo), answers: paging.NewAnswers(),
	}, nil
}

// rootCAs is the system's pool with pem added; nil when pem is empty.
func rootCAs(pem []byte) (*x509.CertPool, error) {
	if len(pem) == 0 {
		return nil, nil
	}
	pool, err := x509.SystemCertPool()
	if err != nil {
		pool = x509.NewCertPool()
	}
	if !pool.AppendCertsFromPEM(pem) {
		return nil, errors.New("the CA certificates hold no PEM certificate (a file of \"-----BEGIN CERTIFICATE-----\" blocks)")
	}
	return pool, nil
}

// ServerText makes a value the server sent fit for a message (redact.Text).
func (c *Client) ServerText(s string, limit int) string {
	return redact.Text(s, limit, redact.Secret{Value: c.cfg.Token})
}
