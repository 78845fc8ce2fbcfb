package transport

import (
	"context"
	"io"
	"net/http"
	"sync"
	"time"
)

// sender is where every attempt of a client goes out, in one step: it
// takes one of the client's places in flight (a fixed limit shared by
// every data source), waits out any Retry-After pause, adds the token when
// the URL is the API's own origin, and sends under the attempt's time
// limit, started only then: waiting for a place or a pause is not taken
// from it. It counts a success; a refusal for the rate pauses the whole
// client. The place and the time limit are held until the body is closed.
type sender struct{ t *Transport }

func (s sender) RoundTrip(req *http.Request) (*http.Response, error) {
	t, a, parent := s.t, attemptsOf(req.Context()), req.Context()
	if err := t.inFlight.Acquire(parent, 1); err != nil {
		return nil, err
	}
	release := func() { t.inFlight.Release(1) }
	if err := t.waitForPause(req, a); err != nil {
		release()
		return nil, err
	}
	ctx, cancel := context.WithTimeoutCause(parent, t.cfg.Timeout, &attemptTimeoutError{limit: t.cfg.Timeout})
	req = req.Clone(ctx) // a RoundTripper leaves the request it was given as it was
	if req.URL.Scheme == t.cfg.Base.Scheme && req.URL.Host == t.cfg.Base.Host {
		t.token.SetAuthHeader(req) // the API's origin: Origin(req.URL) is the base URL's
	}
	resp, err := t.network.RoundTrip(req)
	a.pausedFor = 0
	if err != nil {
		timedOut := ctx.Err() != nil && parent.Err() == nil
		cause := context.Cause(ctx)
		cancel()
		release()
		if timedOut {
			return nil, cause
		}
		return nil, err
	}
	switch {
	case isRateLimit(resp):
		t.pauseFor(a, req, resp)
	case resp.StatusCode >= 200 && resp.StatusCode <= 299:
		t.successes.Add(1)
	}
	resp.Body = &sentBody{ReadCloser: resp.Body, ctx: ctx, parent: parent, cancel: cancel, release: release}
	return resp, nil
}

// sentBody ends the attempt's time limit and gives its place back when
// closed, and says when the time limit cut the body short.
type sentBody struct {
	io.ReadCloser
	ctx, parent context.Context
	cancel      context.CancelFunc
	once        sync.Once
	release     func()
}

func (b *sentBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.parent.Err() == nil && b.ctx.Err() != nil {
		return n, context.Cause(b.ctx)
	}
	return n, err
}

func (b *sentBody) Close() error {
	err := b.ReadCloser.Close()
	b.once.Do(func() {
		b.cancel()
		b.release()
	})
	return err
}

// waitForPause waits out the client's pause, and any begun while it
// waited, or until the request is cancelled.
func (t *Transport) waitForPause(req *http.Request, a *attempts) error {
	for {
		t.pause.mu.Lock()
		d := time.Until(t.pause.until)
		t.pause.mu.Unlock()
		if d <= 0 {
			return nil
		}
		timer := time.NewTimer(d)
		select {
		case <-req.Context().Done():
			timer.Stop()
			return req.Context().Err()
		case <-timer.C:
		}
		t.cfg.Logger.Debug(req.Context(), "waited for the server's Retry-After before sending", a.fields(map[string]any{
			"url": t.shownURL(req.URL), "waited": d.String(),
		}))
	}
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
