package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"

	"golang.org/x/oauth2"

	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// oauthConfig is the x/oauth2 configuration for one token endpoint.
// AuthStyleAutoDetect sends the client credentials in the Authorization
// header first and, if that is refused, as form fields: the documentation
// shows both.
func oauthConfig(c *config, secret, tokenURL string) *oauth2.Config {
	return &oauth2.Config{
		ClientID:     c.clientID,
		ClientSecret: secret,
		RedirectURL:  c.redirectRaw,
		Endpoint: oauth2.Endpoint{
			AuthURL:   c.authorizeURL,
			TokenURL:  tokenURL,
			AuthStyle: oauth2.AuthStyleAutoDetect,
		},
	}
}

// exchanged is a token and how it was obtained.
type exchanged struct {
	token    *oauth2.Token
	endpoint string // the token URL that answered
	style    string // how the client credentials were sent in the accepted request
}

// exchangeCode trades the code, with the PKCE verifier its challenge was
// made from, for a token at the first of c.tokenURLs, and at the next when
// one answers 404. note receives progress lines.
func exchangeCode(ctx context.Context, hc *http.Client, c *config, secret, code, verifier string, note func(string, ...any)) (exchanged, error) {
	var err error
	for i, tokenURL := range c.tokenURLs {
		rec := &styleRecorder{base: hc.Transport}
		ctx := context.WithValue(ctx, oauth2.HTTPClient, &http.Client{Transport: rec, Timeout: hc.Timeout, CheckRedirect: refuseTokenRedirect})
		var tok *oauth2.Token
		tok, err = oauthConfig(c, secret, tokenURL).Exchange(ctx, code, oauth2.VerifierOption(verifier))
		if err == nil {
			return exchanged{token: tok, endpoint: tokenURL, style: rec.accepted()}, nil
		}
		if problem := rec.answerProblem(); problem != "" {
			err = &unusableAnswer{problem: problem}
		}
		if statusOf(err) != http.StatusNotFound || i+1 == len(c.tokenURLs) {
			break
		}
		note("%s answered 404; trying %s", tokenURL, c.tokenURLs[i+1])
	}
	return exchanged{}, exchangeFailure(ctx, err, flowSecrets(c.clientID, secret, code, verifier))
}

// errTokenRedirect is a token endpoint that answered with a redirect.
var errTokenRedirect = errors.New("the token endpoint answered with a redirect; it is not followed, since following it would send the client secret and the code to another address: use the final address as -token-url")

// refuseTokenRedirect keeps a token request, which carries the client
// secret, from being sent on to wherever a redirect points.
func refuseTokenRedirect(*http.Request, []*http.Request) error { return errTokenRedirect }

// statusOf is the HTTP status of a token endpoint's refusal, 0 if none.
func statusOf(err error) int {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) && re.Response != nil {
		return re.Response.StatusCode
	}
	return 0
}

// exchangeFailure turns an x/oauth2 error into the command's failure. Its
// message is built from the status and the RFC 6749 error fields only, not
// the raw body, and the secrets are removed from it anyway, in every form
// a server may echo them in (package redact): a server may echo what it
// was sent.
func exchangeFailure(ctx context.Context, err error, secrets []redact.Secret) error {
	var re *oauth2.RetrieveError
	var ue *url.Error
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("interrupted while exchanging the code: %w", ctx.Err())
	case errors.Is(err, errTokenRedirect):
		return &failure{exitFailure, errTokenRedirect}
	case errors.As(err, new(*unusableAnswer)):
		// Named by its fields and JSON types only: x/oauth2's own error
		// would quote the value it could not read, and a server may put
		// the client secret there.
		return &failure{exitFailure, fmt.Errorf("the token endpoint's answer is not a usable token response: %v", err)} //nolint:errorlint // described, not wrapped: no caller may reach the decoding error's value through the chain
	case errors.As(err, &re):
	case errors.As(err, &ue):
		return &failure{exitUnreachable, errors.New(redact.Text(
			"the token endpoint cannot be reached: "+err.Error(), maxMessage, secrets...))}
	default:
		// It answered, with something that is not a token response.
		return &failure{exitFailure, errors.New(redact.Text(
			"the token endpoint's answer is not a usable token response: "+err.Error(), maxMessage, secrets...))}
	}
	detail := fmt.Sprintf("HTTP %d", statusOf(err))
	if re.ErrorCode != "" {
		detail += " " + serverWords(re.ErrorCode, secrets)
	}
	if re.ErrorDescription != "" {
		detail += ": " + serverWords(re.ErrorDescription, secrets)
	}
	if statusOf(err) == http.StatusUnauthorized || re.ErrorCode == "invalid_client" {
		return &failure{exitBadClient, fmt.Errorf("the token endpoint refused the client credentials (%s): check -client-id and the client secret (%s)", detail, secretEnv)}
	}
	return &failure{exitFailure, fmt.Errorf("the token endpoint refused the code (%s)", detail)}
}

// styleRecorder notes how the client credentials travelled in the request
// the token endpoint accepted: x/oauth2's auto-detection does not say.
// It looks at headers only and keeps nothing of them.
type styleRecorder struct {
	base http.RoundTripper

	mu    sync.Mutex
	style string
	body  []byte // the last 2xx answer, until answerProblem looks at it
}

func (s *styleRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	base := s.base
	if base == nil {
		base = http.DefaultTransport
	}
	inHeader := req.Header.Get("Authorization") != ""
	resp, err := base.RoundTrip(req)
	if err == nil && resp.StatusCode/100 == 2 {
		s.mu.Lock()
		s.style = "form fields (client_id, client_secret)"
		if inHeader {
			s.style = "the Authorization header (HTTP Basic)"
		}
		// The answer is read here, once, to say what is wrong with it
		// should x/oauth2 refuse it (answerProblem); x/oauth2 reads the
		// same bytes.
		body, readErr := io.ReadAll(io.LimitReader(resp.Body, maxTokenAnswer))
		resp.Body.Close()
		s.body = body
		s.mu.Unlock()
		if readErr != nil {
			return nil, readErr
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
	}
	return resp, err
}

// maxTokenAnswer bounds the token answer kept: a token response is a few
// hundred bytes.
const maxTokenAnswer = 1 << 20

// answerProblem says what makes the last 2xx answer not a token response,
// by field name and JSON type only; "" when it is one (or there was none).
// The answer is forgotten once looked at: it holds the token.
func (s *styleRecorder) answerProblem() string {
	s.mu.Lock()
	body := s.body
	s.body = nil
	s.mu.Unlock()
	if body == nil {
		return ""
	}
	defer clear(body)
	return tokenAnswerProblem(body)
}

func (s *styleRecorder) accepted() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.style
}
