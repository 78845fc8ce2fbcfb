package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// version is set by the release build and make build (ldflags); -version prints it.
var version = "dev"

// Token endpoint paths, in the order tried: the API documentation's
// description says /oauth2/token, its sample /oauth/token.
const (
	authorizePath   = "/oauth2/authorize"
	tokenPath       = "/oauth2/token"
	legacyTokenPath = "/oauth/token"
)

const usageText = `Usage: joinit-token -client-id ID -redirect-uri http://127.0.0.1:PORT/callback [flags]

joinit-token gets a Join It API access token with the OAuth 2.0
authorization-code flow, and prints it: it opens your browser on Join It's
authorize page, waits on the redirect URI for the way back, and exchanges the
code for the token. Tokens do not expire: this is done once.

Example:

    export JOINIT_ACCESS_TOKEN=$(JOINIT_CLIENT_SECRET=... joinit-token \
      -client-id APP_KEY -redirect-uri http://127.0.0.1:8910/callback)

Required:
  -client-id      the application key Join It's operator issued
  -redirect-uri   the redirect URI registered with it: http on a loopback IP
                  with a port (127.0.0.1 or [::1]; localhost is refused)
  the client secret, from JOINIT_CLIENT_SECRET or a prompt that does not echo
                  (never a flag: flags land in shell history)

The token goes to standard output alone, or to -out (mode 0600); everything
else goes to standard error. The secret and the code are never printed. The
browser is xdg-open (open on macOS), or the command JOINIT_BROWSER names.

Exit codes: 0 written; 1 another failure; 2 usage, or no client secret;
3 the client id or secret was refused; 4 the authorization was denied;
5 only callbacks of another state arrived; 6 no callback within -timeout;
7 the redirect URI's port is in use; 8 Join It cannot be reached.

Every step, flag and exit code: the guide "Getting an access token" (the
provider's documentation on the Terraform and OpenTofu registries, or
docs/guides/access-token.md in its repository).

Flags:
`

// config is the parsed, checked command line.
type config struct {
	// authorizeURL is the authorize page; tokenURLs the token endpoints,
	// tried in order while one answers 404 (two under -auth-url).
	authorizeURL string
	tokenURLs    []string
	clientID     string
	redirect     *url.URL // http, loopback, with a port
	out          string
	noBrowser    bool
	timeout      time.Duration
	redirectRaw  string // exactly as given: it must match the registered one
	version      bool   // print the version and exit
}

func parseFlags(args []string, stderr io.Writer) (*config, error) {
	c := &config{}
	fs := flag.NewFlagSet("joinit-token", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), usageText)
		fs.PrintDefaults()
	}
	authURL := fs.String("auth-url", "", "one `URL` serving both (a sandbox): {URL}/oauth2/authorize, and {URL}/oauth2/token or, if that answers 404, {URL}/oauth/token; in place of -authorize-url and -token-url")
	fs.StringVar(&c.authorizeURL, "authorize-url", defaultAuthorizeURL, "the service's authorize page `URL` (the service authorizes on another host than it issues tokens)")
	token := fs.String("token-url", defaultTokenURL, "the service's token endpoint `URL`")
	fs.StringVar(&c.clientID, "client-id", "", "required: the application key (client `id`) the operator issued")
	fs.StringVar(&c.redirectRaw, "redirect-uri", "", "required: the registered redirect `URI`, http://127.0.0.1:PORT/callback (or http://[::1]:PORT/...; not localhost): this command listens there")
	fs.StringVar(&c.out, "out", "", "write the access token to this `file` (mode 0600, replaced atomically) instead of standard output")
	fs.BoolVar(&c.noBrowser, "no-browser", false, "do not open a browser; open the printed authorize URL yourself")
	fs.DurationVar(&c.timeout, "timeout", 5*time.Minute, "give up when no callback arrives within this `duration`")
	fs.BoolVar(&c.version, "version", false, "print the version, and exit")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if c.version {
		return c, nil
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
	if err := c.endpoints(fs, *authURL, *token); err != nil {
		return nil, err
	}
	var err error
	if c.redirect, err = checkRedirectURI(c.redirectRaw); err != nil {
		return nil, err
	}
	return c, nil
}

// The service's two hosts (API.md#authentication): it
// authorizes at app.joinit.com and issues tokens at app.joinitapi.com.
const (
	defaultAuthorizeURL = "https://app.joinit.com/oauth2/authorize"
	defaultTokenURL     = "https://app.joinitapi.com/oauth2/token"
)

// endpoints sets the authorize and token URLs: from -auth-url when given
// (one host serving both), else from -authorize-url and -token-url.
func (c *config) endpoints(fs *flag.FlagSet, authURL, tokenURL string) error {
	var err error
	if authURL != "" {
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "authorize-url" || f.Name == "token-url" {
				err = fmt.Errorf("-auth-url stands for -authorize-url and -token-url: give it, or them, not both")
			}
		})
		if err != nil {
			return err
		}
		if authURL, err = checkAuthURL("-auth-url", authURL); err != nil {
			return err
		}
		c.authorizeURL = authURL + authorizePath
		c.tokenURLs = []string{authURL + tokenPath, authURL + legacyTokenPath}
		return nil
	}
	if c.authorizeURL, err = checkAuthURL("-authorize-url", c.authorizeURL); err != nil {
		return err
	}
	if tokenURL, err = checkAuthURL("-token-url", tokenURL); err != nil {
		return err
	}
	c.tokenURLs = []string{tokenURL}
	return nil
}

// checkAuthURL wants https, or http on a loopback host only, like the
// provider's base_url: the token endpoint receives the client secret. Its
// errors name the flag, and the URL by scheme and host only.
func checkAuthURL(flagName, raw string) (string, error) {
	u, err := url.Parse(raw)
	switch {
	case raw == "":
		return "", fmt.Errorf("%s is empty (see -h)", flagName)
	case err != nil:
		return "", fmt.Errorf("%s is not a valid URL", flagName)
	case u.Host == "" || (u.Scheme != "https" && u.Scheme != "http"):
		return "", fmt.Errorf("%s must be an absolute https URL", flagName)
	case u.Scheme == "http" && !client.IsLoopbackHost(u.Hostname()):
		return "", fmt.Errorf("%s %s://%s %s", flagName, u.Scheme, u.Host, client.PlainHTTPRefused(u.Hostname(), "the client secret"))
	case u.User != nil || u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("%s %s://%s must not carry credentials, a query or a fragment", flagName, u.Scheme, u.Host)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

// checkRedirectURI wants http on a loopback IP address with an explicit
// port: the command must be able to listen there, and nothing off this
// machine may receive the code. Not localhost (RFC 8252 §8.3): a browser may
// resolve it to ::1 or to 127.0.0.1, this command listens on one of them,
// and another local user listening on the other would receive the code.
func checkRedirectURI(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New("-redirect-uri is required (see -h)")
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("-redirect-uri: %w", err)
	}
	if u.Scheme == "http" && strings.EqualFold(u.Hostname(), "localhost") {
		return nil, fmt.Errorf("-redirect-uri %q: use http://127.0.0.1:%s%s instead of localhost, and register that URI (RFC 8252 §8.3): "+
			"localhost may resolve to ::1 as well as 127.0.0.1, and another user of this machine listening on the address this command does not would receive the code",
			raw, u.Port(), u.EscapedPath())
	}
	if ip := net.ParseIP(u.Hostname()); u.Scheme != "http" || ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("-redirect-uri %q must be http on a loopback IP address (127.0.0.1 or [::1]): this command listens there", raw)
	}
	if p, err := strconv.Atoi(u.Port()); err != nil || p < 1 || p > 65535 {
		return nil, fmt.Errorf("-redirect-uri %q needs an explicit port, like http://127.0.0.1:8910/callback", raw)
	}
	if u.User != nil || u.Fragment != "" {
		return nil, fmt.Errorf("-redirect-uri %q must not carry credentials or a fragment", raw)
	}
	return u, nil
}
