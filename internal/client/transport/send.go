package transport

import (
	"io"
	"net/http"
	"sync"
)

// sendStage is where every attempt of every read of a client goes out: it
// takes a place in the shared send window, waits at the gate for any
// Retry-After pause (holding its place; when the pause ends, only the
// window's worth of requests go out, not all of them at once), sends, and
// tells the window how the server answered. A refusal for the rate pauses
// the whole client here (rateLimitPause), for the wait the request then
// backs off by. The place is held until the body is closed: a body still
// arriving is a request in flight.
type sendStage struct {
	t    *Transport
	a    *attempts
	base http.RoundTripper
}

func (s *sendStage) RoundTrip(req *http.Request) (*http.Response, error) {
	t, a := s.t, s.a
	t.trace(a, TraceQueued)
	if err := t.window.acquire(req.Context()); err != nil {
		return nil, err
	}
	for {
		waited, err := t.pause.wait(req.Context())
		if err != nil {
			t.window.release()
			return nil, err
		}
		if waited == 0 {
			break
		}
		t.cfg.Logger.Debug(req.Context(), "waited for the server's Retry-After before sending", a.fields(map[string]any{
			"url": withoutQuery(req.URL), "waited": waited.String(),
		}))
		// The pause came with a cut of the window: only the window's
		// worth goes out now, the rest in turn (and at a pause begun
		// meanwhile, the gate again).
		if err := t.window.yieldIfOver(req.Context()); err != nil {
			return nil, err
		}
	}
	ticket := t.window.send()
	t.trace(a, TraceSent)
	resp, err := s.base.RoundTrip(req)
	a.paused(0)
	if err != nil {
		t.window.release()
		return nil, err
	}
	t.trace(a, TraceAnswered)
	switch {
	case isRateLimit(resp):
		t.window.limited(ticket)
		if wait, ok := t.rateLimitPause(a, resp); ok {
			t.pause.extend(now().Add(wait))
			a.paused(wait)
			msg := "rate limited without a Retry-After; pausing all requests for the backoff"
			if _, named := retryAfter(resp); named {
				msg = "server asked to wait (Retry-After); pausing all requests"
			}
			t.cfg.Logger.Debug(req.Context(), msg, a.fields(map[string]any{
				"url": withoutQuery(req.URL), "status": resp.StatusCode, "wait": wait.String(),
			}))
		}
	case resp.StatusCode < 500:
		t.window.answered(resp.StatusCode >= 200 && resp.StatusCode <= 299)
	}
	resp.Body = &releasingBody{ReadCloser: resp.Body, release: t.window.release}
	return resp, nil
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

// releasingBody gives the request's place in the window back once, when the
// body is closed.
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
