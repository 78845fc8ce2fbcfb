package transport

import (
	"io"
	"net/http"
	"sync"
)

// sendStage is where every attempt of a client goes out: it takes one of
// the client's places in flight (a fixed limit shared by every data
// source), waits out any Retry-After pause, sends, and counts a success; a
// refusal for the rate pauses the whole client. The place is held until
// the body is closed.
type sendStage struct {
	t    *Transport
	a    *attempts
	base http.RoundTripper
}

func (s *sendStage) RoundTrip(req *http.Request) (*http.Response, error) {
	t, a := s.t, s.a
	if err := t.inFlight.Acquire(req.Context(), 1); err != nil {
		return nil, err
	}
	release := func() { t.inFlight.Release(1) }
	for {
		waited, err := t.pause.wait(req.Context())
		if err != nil {
			release()
			return nil, err
		}
		if waited == 0 {
			break // no pause, or none begun while this one was waited out
		}
		t.cfg.Logger.Debug(req.Context(), "waited for the server's Retry-After before sending", a.fields(map[string]any{
			"url": t.shownURL(req.URL), "waited": waited.String(),
		}))
	}
	resp, err := s.base.RoundTrip(req)
	a.pausedFor = 0
	if err != nil {
		release()
		return nil, err
	}
	switch {
	case isRateLimit(resp):
		t.pauseFor(a, req, resp)
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		t.successes.Add(1)
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: release}
	return resp, nil
}

// pauseFor pauses the client for the wait a refusal for the rate asks, and
// notes it as the request's backoff.
func (t *Transport) pauseFor(a *attempts, req *http.Request, resp *http.Response) {
	wait, ok := t.rateLimitPause(a, resp)
	if !ok {
		return
	}
	t.pause.extend(now().Add(wait))
	a.pausedFor = wait
	msg := "rate limited without a Retry-After; pausing all requests for the backoff"
	if _, named := retryAfter(resp); named {
		msg = "server asked to wait (Retry-After); pausing all requests"
	}
	t.cfg.Logger.Debug(req.Context(), msg, a.fields(map[string]any{
		"url": t.shownURL(req.URL), "status": resp.StatusCode, "wait": wait.String(),
	}))
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

// releasingBody gives the place back once, when the body is closed.
type releasingBody struct {
	io.ReadCloser
	once    sync.Once
	release func()
}

func (b *releasingBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(b.release)
	return err
}
