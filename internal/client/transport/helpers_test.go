package transport

import (
	"context"
	"net/http"
	"net/url"
	"time"
)

// testToken is unusual enough that finding it anywhere in an error or a
// log line is a leak.
const testToken = "tok-3f9a-SECRET-b71c-e2d0"

// newTestTransport is a Transport for https://api.example.com with fast
// retries; fields set in cfg win.
func newTestTransport(cfg Config) *Transport {
	if cfg.Base == nil {
		cfg.Base, _ = url.Parse("https://api.example.com")
	}
	if cfg.Token == "" {
		cfg.Token = testToken
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.MaxConcurrency == 0 {
		cfg.MaxConcurrency = 4
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	if cfg.RetryWaitMin == 0 {
		cfg.RetryWaitMin = time.Millisecond
	}
	if cfg.RetryWaitMax == 0 {
		cfg.RetryWaitMax = 10 * time.Millisecond
	}
	if cfg.MaxRetryWait == 0 {
		cfg.MaxRetryWait = time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = discard{}
	}
	return New(cfg)
}

type discard struct{}

func (discard) Debug(context.Context, string, map[string]any) {}
func (discard) Warn(context.Context, string, map[string]any)  {}

// answering is a network that answers every request with the status it
// holds, and no body.
type answering struct{ status *int }

func (n answering) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: *n.status, Header: http.Header{}, Body: http.NoBody, Request: req}, nil
}
