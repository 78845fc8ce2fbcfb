package transport

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// attemptTimeout bounds one attempt, its body included; innermost, so the
// wait for a place or a pause is not taken from it.
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
// when the timeout cut a body short.
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

func (e *attemptTimeoutError) Error() string { return e.WordWith(failure.ConfigNames) }

// WordWith words the timeout setting.
func (e *attemptTimeoutError) WordWith(name failure.Namer) string {
	return fmt.Sprintf("no complete answer within %s (%s)", name(failure.SettingTimeout), e.limit)
}
