package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

const usageText = `joinit-token gets a Join It API access token for you with the OAuth 2.0
authorization-code flow (API specification §5), and prints it.

The operator of the service issues an application key: a client id and a
client secret, registered with a redirect URI. This command:

 1. listens on the redirect URI, which must be http on a loopback address
    with a port (http://127.0.0.1:PORT/callback);
 2. prints the authorize URL ({auth-url}/oauth2/authorize with
    response_type=code, client_id, redirect_uri and a random state) on its
    own line of standard error, and opens a browser on it (not with
    -no-browser: then open it yourself, or follow it with curl -L);
 3. when the service redirects back, checks the state, then exchanges the
    code for a token (grant_type=authorization_code) at
    {auth-url}/oauth2/token, or at {auth-url}/oauth/token if that answers
    404, with the client credentials in the Authorization header or, if
    refused, as form fields (the API documentation shows both); it says
    which endpoint and style worked;
 4. writes the access token to -out (mode 0600, replaced atomically) or,
    without -out, to standard output alone:

        export JOINIT_ACCESS_TOKEN=$(joinit-token -auth-url ... )

Token type and scope go to standard error, with the subject and e-mail of
the id_token (decoded, NOT verified). The tokens do not expire: this is done
once per integration.

The client secret is read from JOINIT_CLIENT_SECRET or, when that is unset,
from a prompt that does not echo (or the first line of standard input when
it is not a terminal). It is never a flag: flags land in shell history and
process lists. The secret and the code are never printed.

The browser is xdg-open (open on macOS), or the command named by
JOINIT_BROWSER, run with the URL as its one argument.

Exit codes:
  0  the token was written
  1  any other failure (the code was refused, a redirect from the token endpoint, interrupted)
  2  usage: bad flags (an -out that cannot be written is found before the flow starts), or no client secret
  3  the token endpoint refused the client id or secret (401 invalid_client)
  4  the authorization was denied (the callback carried error=...)
  5  state mismatch: the callback was not for this run
  6  no callback arrived within -timeout
  7  cannot listen on the redirect URI (its port is already in use)
  8  the auth URL or its token endpoint cannot be reached (DNS, refused, TLS)

Usage: joinit-token -auth-url URL -client-id ID -redirect-uri http://127.0.0.1:PORT/callback [-out FILE] [-no-browser] [-timeout 5m]

Flags:
`

// config is the parsed, checked command line.
type config struct {
	authURL     string // no trailing slash
	clientID    string
	redirect    *url.URL // http, loopback, with a port
	out         string
	noBrowser   bool
	timeout     time.Duration
	redirectRaw string // exactly as given: it must match the registered one
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("joinit-token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	fs.StringVar(&c.authURL, "auth-url", "", "the service's auth `URL`; /oauth2/authorize and the token endpoints are under it (https, or http on a loopback host)")
	fs.StringVar(&c.clientID, "client-id", "", "the application key (client `id`) the operator issued")
	fs.StringVar(&c.redirectRaw, "redirect-uri", "", "the registered redirect `URI`, http://127.0.0.1:PORT/callback: this command listens there")
	fs.StringVar(&c.out, "out", "", "write the access token to this `file` (mode 0600, replaced atomically) instead of standard output")
	fs.BoolVar(&c.noBrowser, "no-browser", false, "do not open a browser; open the printed authorize URL yourself")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "give up when no callback arrives within this `duration`")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected argument %q (see -h)", fs.Arg(0))
	}
	if c.clientID == "" {
		return nil, errors.New("-client-id is required (see -h)")
	}
	if c.timeout <= 0 {
		return nil, errors.New("-timeout must be positive")
	}
	var err error
	if c.authURL, err = checkAuthURL(c.authURL); err != nil {
		return nil, err
	}
	if c.redirect, err = checkRedirectURI(c.redirectRaw); err != nil {
		return nil, err
	}
	return c, nil
}

// checkAuthURL wants https, or http on a loopback host only, like the
// provider's base_url: the token endpoint receives the client secret.
func checkAuthURL(raw string) (string, error) {
	if raw == "" {
		return "", errors.New("-auth-url is required (see -h)")
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return "", fmt.Errorf("-auth-url: %w", err)
	case u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return "", fmt.Errorf("-auth-url %q must be an absolute https URL", raw)
	case u.Scheme == "http" && !client.IsLoopbackHost(u.Hostname()):
		return "", fmt.Errorf("-auth-url %q uses http: only https is allowed, except on a loopback host, so the client secret never crosses a network in clear text", raw)
	case u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("-auth-url %q must not carry credentials, a query or a fragment", u.Redacted())
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// checkRedirectURI wants http on a loopback host with an explicit port: the
// command must be able to listen there, and nothing off this machine may
// receive the code.
func checkRedirectURI(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New("-redirect-uri is required (see -h)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("-redirect-uri: %w", err)
	}
	if u.Scheme != "http" || !client.IsLoopbackHost(u.Hostname()) {
		return nil, fmt.Errorf("-redirect-uri %q must be http on a loopback host (127.0.0.1, [::1] or localhost): this command listens there", raw)
	}
	if p, err := strconv.Atoi(u.Port()); err != nil || p < 1 || p > 65535 {
		return nil, fmt.Errorf("-redirect-uri %q needs an explicit port, like http://127.0.0.1:8910/callback", raw)
	}
	if u.User != nil || u.Fragment != "" {
		return nil, fmt.Errorf("-redirect-uri %q must not carry credentials or a fragment", raw)
	}
	return u, nil
}
