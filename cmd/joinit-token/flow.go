package main

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	"golang.org/x/oauth2"

	"github.com/joinit-community/terraform-provider-joinit/internal/buildinfo"
)

// env is what run takes from the process beyond its arguments; tests swap
// it so they run in parallel without touching the real environment or
// opening a browser.
type env struct {
	getenv func(string) string
	browse func(url string) error
}

var processEnv = env{getenv: os.Getenv, browse: func(u string) error { return openBrowser(os.Getenv, u) }}

// httpTimeout bounds each request to the auth server.
const httpTimeout = 30 * time.Second

func (e env) run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintln(stderr, "joinit-token:", err)
		return exitUsage
	}
	if c.version {
		fmt.Fprintln(stdout, buildinfo.Line("joinit-token", version))
		return exitOK
	}
	secret, err := readSecret(e.getenv, stdin, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "joinit-token:", err)
		return exitUsage
	}
	err = e.flow(ctx, c, secret, stdout, stderr)
	var f *failure
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &f):
		fmt.Fprintln(stderr, "joinit-token:", err)
		return f.code
	default:
		fmt.Fprintln(stderr, "joinit-token:", err)
		return exitFailure
	}
}

// flow runs the authorization-code flow once the inputs are known.
func (e env) flow(ctx context.Context, c *config, secret string, stdout, stderr io.Writer) error {
	note := func(format string, args ...any) { fmt.Fprintf(stderr, "joinit-token: "+format+"\n", args...) }
	if c.out != "" {
		if err := checkWritable(c.out); err != nil {
			return &failure{exitUsage, fmt.Errorf("-out %s: the token could not be written there: %w", c.out, err)}
		}
	}
	hc := &http.Client{Timeout: httpTimeout}
	if err := checkReachable(ctx, hc, c.authorizeURL); err != nil {
		return err
	}
	ln, err := listenRedirect(c)
	if err != nil {
		return err
	}
	state := randomState()
	// PKCE (RFC 7636, S256) on every run: a code caught on its way to the
	// callback is useless without the verifier, which never leaves this
	// process but to the token endpoint. Servers that do not know PKCE
	// ignore the challenge.
	verifier := oauth2.GenerateVerifier()
	rescueDir := e.getenv("TMPDIR")
	if rescueDir == "" {
		rescueDir = os.TempDir()
	}
	cb := &callback{
		path:    c.redirect.Path,
		state:   state,
		secrets: flowSecrets(c.clientID, secret, "", verifier),
		// The exchange runs under the run's context, not the browser
		// request's: an interrupt stops it at once.
		finish: func(_ context.Context, code string) error {
			return finish(ctx, hc, c, secret, code, verifier, rescueDir, stdout, note)
		},
		refused: func() {
			note("refused a request to the redirect URI with a wrong or missing state (not for this run); still waiting")
		},
		arrived: make(chan struct{}),
		result:  make(chan error, 1),
	}
	srv := &http.Server{Handler: cb, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer func() {
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx) // lets the browser's page finish
	}()

	authorizeURL := oauthConfig(c, secret, "").AuthCodeURL(state, oauth2.S256ChallengeOption(verifier))
	note("listening on %s for the authorization response", c.redirectRaw)
	note("open this URL in a browser and approve the access:")
	fmt.Fprintln(stderr, authorizeURL)
	if !c.noBrowser {
		if err := e.browse(authorizeURL); err != nil {
			note("could not open a browser (%v): open the URL above yourself", err)
		}
	}

	timer := time.NewTimer(c.timeout)
	defer timer.Stop()
	select {
	case <-cb.arrived:
	case <-timer.C:
		if n := cb.mismatches.Load(); n > 0 {
			return &failure{exitStateMismatch, fmt.Errorf("within %s (-timeout), only authorization responses for another run arrived at %s (%d with a wrong or missing state, refused): "+
				"open the authorize URL this run printed, in a fresh tab", c.timeout, c.redirectRaw, n)}
		}
		return &failure{exitTimeout, fmt.Errorf("no authorization response arrived at %s within %s (-timeout): was the authorize URL opened?", c.redirectRaw, c.timeout)}
	case <-ctx.Done():
		return fmt.Errorf("interrupted while waiting for the authorization response: %w", ctx.Err())
	}
	// The callback arrived: the exchange has its own HTTP timeout, and stops
	// with the run's context.
	select {
	case err := <-cb.result:
		return err
	case <-ctx.Done():
		return fmt.Errorf("interrupted while exchanging the code: %w", ctx.Err())
	}
}

// finish exchanges the code and stores the token; the callback page shows
// its outcome.
func finish(ctx context.Context, hc *http.Client, c *config, secret, code, verifier, rescueDir string, stdout io.Writer, note func(string, ...any)) error {
	ex, err := exchangeCode(ctx, hc, c, secret, code, verifier, note)
	if err != nil {
		return err
	}
	secrets := flowSecrets(c.clientID, secret, code, verifier)
	if err := usableToken(ex.token.TokenType, ex.token.AccessToken); err != nil {
		return err
	}
	note("token endpoint %s accepted the code; client credentials sent in %s", ex.endpoint, ex.style)
	note("token_type %q, scope %q", serverWords(ex.token.TokenType, secrets), serverWords(fmt.Sprint(ex.token.Extra("scope")), secrets))
	if idt, _ := ex.token.Extra("id_token").(string); idt != "" {
		if cl, err := decodeIDToken(idt); err != nil {
			note("id_token not decodable: %v", err)
		} else {
			note("id_token (decoded, NOT verified): subject %q, e-mail %q", serverWords(cl.Subject, secrets), serverWords(cl.Email, secrets))
		}
	}
	if c.out == "" {
		_, err = fmt.Fprintln(stdout, ex.token.AccessToken)
		return err
	}
	if err := writeTokenFile(c.out, ex.token.AccessToken); err != nil {
		return rescueToken(ex.token.AccessToken, c.out, err, rescueDir, stdout)
	}
	note("access token written to %s (mode 0600)", c.out)
	return nil
}

// checkReachable fails early, before the user is sent to a browser, when
// the auth server cannot be reached at all. Any HTTP answer will do: only
// DNS, connection and TLS failures count.
func checkReachable(ctx context.Context, hc *http.Client, u string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodHead, u, nil)
	if err == nil {
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return &failure{exitUnreachable, fmt.Errorf("the auth URL cannot be reached: %w", err)}
}

// listenRedirect listens where the browser will be redirected.
func listenRedirect(c *config) (net.Listener, error) {
	addr := net.JoinHostPort(c.redirect.Hostname(), c.redirect.Port())
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, &failure{exitPortInUse, fmt.Errorf("cannot listen on %s for -redirect-uri: the port is already in use (another joinit-token still running?)", addr)}
	}
	if err != nil {
		return nil, &failure{exitPortInUse, fmt.Errorf("cannot listen on %s for -redirect-uri: %w", addr, err)}
	}
	return ln, nil
}

// randomState is the CSRF guard of RFC 6749 §10.12: 256 random bits.
func randomState() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return base64.RawURLEncoding.EncodeToString(b)
}
