package client

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"
)

// pauseGate holds every request of a client until a time the server asked
// for with Retry-After. One worker's 429 thus pauses all of them, instead
// of the others running into the same limit.
type pauseGate struct {
	mu    sync.Mutex
	until time.Time
}

// extend moves the pause end to t if that is later.
func (g *pauseGate) extend(t time.Time) {
	g.mu.Lock()
	if t.After(g.until) {
		g.until = t
	}
	g.mu.Unlock()
}

// wait blocks until the pause ends or ctx is done; it returns how long it waited.
func (g *pauseGate) wait(ctx context.Context) (time.Duration, error) {
	g.mu.Lock()
	d := time.Until(g.until)
	g.mu.Unlock()
	if d <= 0 {
		return 0, nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-t.C:
		return d, nil
	}
}

// sendTransport is where every attempt of every read of a client goes
// out: it takes a place in the shared send window, waits at the gate for
// any Retry-After pause (holding its place; when the pause ends, only the
// window's worth of requests go out, not all of them at once), sends, and
// tells the window how the server answered. The place is held until
// the body is closed: a body still arriving is a request in flight.
type sendTransport struct {
	gate   *pauseGate
	window *sendWindow
	base   http.RoundTripper
	logger Logger
	trace  func(*attemptLog, TraceMoment)
}

func (t *sendTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	log, _ := req.Context().Value(attemptsKey{}).(*attemptLog)
	t.note(log, TraceQueued)
	if err := t.window.acquire(req.Context()); err != nil {
		return nil, err
	}
	for {
		waited, err := t.gate.wait(req.Context())
		if err != nil {
			t.window.release()
			return nil, err
		}
		if waited == 0 {
			break
		}
		t.logger.Debug(req.Context(), "waited for the server's Retry-After before sending", log.fields(map[string]any{
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
	t.note(log, TraceSent)
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		t.window.release()
		return nil, err
	}
	t.note(log, TraceAnswered)
	switch {
	case isRateLimit(resp):
		t.window.limited(ticket)
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

// attemptTimeout bounds one attempt, its body included, by request_timeout.
// It is the innermost transport, so that time spent waiting for a place in
// the send window or for a Retry-After pause is not taken from the attempt.
type attemptTimeout struct {
	limit time.Duration
	base  http.RoundTripper
}

func (t *attemptTimeout) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithTimeoutCause(req.Context(), t.limit, &attemptTimeoutError{limit: t.limit})
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil {
		timedOut := ctx.Err() != nil && req.Context().Err() == nil
		cause := context.Cause(ctx)
		cancel()
		if timedOut {
			return nil, cause
		}
		return nil, err
	}
	resp.Body = &cancelingBody{ReadCloser: resp.Body, ctx: ctx, parent: req.Context(), cancel: cancel}
	return resp, nil
}

// cancelingBody ends the attempt's timer when the body is closed, and says
// that the timeout, not the server, cut a body short.
type cancelingBody struct {
	io.ReadCloser
	ctx, parent context.Context
	cancel      context.CancelFunc
}

func (b *cancelingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.parent.Err() == nil && b.ctx.Err() != nil {
		return n, context.Cause(b.ctx)
	}
	return n, err
}

func (b *cancelingBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// attemptTimeoutError is an attempt that passed request_timeout.
type attemptTimeoutError struct{ limit time.Duration }

func (e *attemptTimeoutError) Error() string { return e.wordWith(ConfigNames) }

func (e *attemptTimeoutError) wordWith(name Namer) string {
	return fmt.Sprintf("no complete answer within %s (%s)", name(SettingTimeout), e.limit)
}

// note reports a moment of the request to the client's trace, if any.
func (t *sendTransport) note(log *attemptLog, what TraceMoment) {
	if t.trace != nil {
		t.trace(log, what)
	}
}
