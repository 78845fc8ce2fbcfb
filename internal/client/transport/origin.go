package transport

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"syscall"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// Origin is scheme://host[:port]: what a token is bound to, and how an
// error names a URL.
func Origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

// sameOriginRedirects refuses redirects to another origin (a host the user
// never configured); the origin, server text, is redacted.
func (t *Transport) sameOriginRedirects(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errTooManyRedirects
	}
	if Origin(req.URL) != Origin(via[0].URL) {
		return &RedirectError{To: redact.Text(Origin(req.URL), 0, redact.Secret{Value: t.cfg.Token})}
	}
	return nil
}

// RedirectError is a redirect to another origin, refused.
type RedirectError struct {
	To string // the origin it led to
}

func (e *RedirectError) Error() string { return e.WordWith(failure.ConfigNames) }

// WordWith words the base URL setting.
func (e *RedirectError) WordWith(name failure.Namer) string {
	return fmt.Sprintf("the API redirected to another host (%s); refusing to follow it so the token is not sent there: set %s to the final address",
		e.To, name(failure.SettingBaseURL))
}

var errTooManyRedirects = errors.New("the API redirected more than 10 times")

// refuseNonLoopback is the dialer's check for an http base URL: only a
// loopback address, whatever the name resolved to before.
func refuseNonLoopback(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("refusing to send the token over http to %s, which is not a loopback address", host)
	}
	return nil
}
