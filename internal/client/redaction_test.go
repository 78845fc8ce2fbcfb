package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// echoToken is a token with the characters JSON and URLs escape, so each
// spelling of it differs from the others.
const echoToken = "tok/9+Zq%x-SECRET-b71c"

// echoes are the ways a hostile or careless server sends the token back.
var echoes = map[string]func(string) string{
	"raw":                    func(s string) string { return s },
	"JSON-escaped":           func(s string) string { return strings.ReplaceAll(s, "/", `\/`) },
	"percent-encoded, upper": url.QueryEscape,
	"percent-encoded, lower": func(s string) string {
		return regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(url.QueryEscape(s), strings.ToLower)
	},
}

// leaksToken reports any 6 bytes of the token, raw or in any echo, in msg.
func leaksToken(msg string) bool {
	for _, echo := range echoes {
		e := echo(echoToken)
		for i := 0; i+6 <= len(e); i++ {
			if strings.Contains(msg, e[i:i+6]) {
				return true
			}
		}
	}
	return false
}

// TestNonJSONBodyEchoingTheTokenIsRedacted: a 2xx page whose body is not
// JSON but the request echoed back says so, and quotes nothing of it.
func TestNonJSONBodyEchoingTheTokenIsRedacted(t *testing.T) {
	t.Parallel()
	for name, echo := range echoes {
		for _, pad := range []int{0, 20, 30, 38} {
			body := strings.Repeat("-", pad) + "Bearer " + echo(echoToken) + " is not allowed here"
			api := newFakeAPI(t, func(w http.ResponseWriter, _ *http.Request, _ arrival) {
				w.Header().Set("Content-Type", "text/plain")
				_, _ = w.Write([]byte(body))
			})
			c := newClient(t, Config{BaseURL: api.URL, Token: echoToken})
			for ep, read := range map[string]func() error{
				"memberships": func() error { _, err := c.Memberships(context.Background(), MembershipQuery{}); return err },
				"org_metrics": func() error { _, err := c.OrgMetrics(context.Background(), ListOptions{}); return err },
			} {
				err := read()
				if err == nil || !strings.Contains(err.Error(), "not JSON") {
					t.Fatalf("%s, %s, pad %d: error %v, want one saying the body is not JSON", name, ep, pad, err)
				}
				if leaksToken(err.Error()) {
					t.Errorf("%s, %s, pad %d: the token is in the error: %v", name, ep, pad, err)
				}
				var pe *failure.PageError
				if !errors.As(err, &pe) {
					t.Errorf("%s, %s: error %T lost its *failure.PageError", name, ep, err)
				}
			}
		}
	}
}

// TestAPIMessageRedactsEveryEcho: what a failing page's JSON body said
// drops the token in each spelling; a body that is not JSON (here, text
// before it) is not quoted; a refusal (401, 403) carries nothing of it.
func TestAPIMessageRedactsEveryEcho(t *testing.T) {
	t.Parallel()
	for name, echo := range echoes {
		for _, pad := range []int{0, 190} {
			for _, status := range []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden} {
				body := strings.Repeat("x", pad) + `{"error":"Bearer ` + echo(echoToken) + ` is not allowed here"}`
				api := newFakeAPI(t, func(w http.ResponseWriter, _ *http.Request, _ arrival) {
					w.WriteHeader(status)
					_, _ = w.Write([]byte(body))
				})
				c := newClient(t, Config{BaseURL: api.URL, Token: echoToken, MaxRetries: NoRetries})
				_, err := c.Groups(context.Background(), ListOptions{})
				ae := requireAPIError(t, err, status)
				if leaksToken(err.Error()) {
					t.Errorf("%s, pad %d, HTTP %d: the token is in the error: %v", name, pad, status, err)
				}
				if said := ae.Message != ""; said != (status == http.StatusBadRequest && pad == 0) {
					t.Errorf("%s, pad %d, HTTP %d: the API said %q", name, pad, status, ae.Message)
				}
			}
		}
	}
}

// TestBaseURLErrorsShowSchemeAndHostOnly: whatever is wrong with a base
// URL, its error never repeats a password or a query.
func TestBaseURLErrorsShowSchemeAndHostOnly(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"https://user:SEKRET@api.example.com/%zz",        // not a valid URL
		"https://user:SE/KRET@api.example.com:443/",      // the password's / makes a bad port
		"user:SEKRET@api.example.com",                    // not absolute
		"https://api.example.com/?access_token=SEKRET",   // a query
		"https://api.example.com/#access_token=SEKRET",   // a fragment
		"http://user:SEKRET@api.example.com/",            // credentials
		"ftp://api.example.com/SEKRET",                   // another scheme
		"http://api.example.com/SEKRET?access_token=abc", // http off loopback
	} {
		_, err := ParseBaseURL(in)
		if err == nil {
			t.Errorf("ParseBaseURL(%q) succeeded", in)
			continue
		}
		for _, secret := range []string{"SEKRET", "KRET", "access_token"} {
			if strings.Contains(err.Error(), secret) {
				t.Errorf("ParseBaseURL(%q): error repeats %q: %v", in, secret, err)
			}
		}
	}
}

// TestLocalhostIsTrustedForWhatItResolvesTo: localhost earns the http
// exception only when every address it resolves to is loopback.
func TestLocalhostIsTrustedForWhatItResolvesTo(t *testing.T) {
	t.Parallel()
	resolvesTo := func(addrs ...string) func(context.Context, string) ([]net.IPAddr, error) {
		return func(context.Context, string) ([]net.IPAddr, error) {
			var out []net.IPAddr
			for _, a := range addrs {
				out = append(out, net.IPAddr{IP: net.ParseIP(a)})
			}
			return out, nil
		}
	}
	failing := func(context.Context, string) ([]net.IPAddr, error) { return nil, errors.New("no such host") }
	for _, tc := range []struct {
		name   string
		lookup func(context.Context, string) ([]net.IPAddr, error)
		want   bool
	}{
		{"loopback only", resolvesTo("127.0.0.1", "::1"), true},
		{"one address elsewhere", resolvesTo("127.0.0.1", "192.0.2.7"), false},
		{"elsewhere only", resolvesTo("192.0.2.7"), false},
		{"nothing", resolvesTo(), false},
		{"lookup fails", failing, false},
	} {
		if got := isLoopbackHost(t.Context(), "localhost", tc.lookup); got != tc.want {
			t.Errorf("localhost, %s: %v, want %v", tc.name, got, tc.want)
		}
	}
	if isLoopbackHost(t.Context(), "127.0.0.1.nip.io", resolvesTo("127.0.0.1")) {
		t.Error("a name other than localhost earned the exception by resolving to loopback")
	}
}

// TestHTTPReadOfLoopback: an http base URL on loopback reads (the dialer
// refuses any other address: transport's TestHTTPDialReachesLoopbackOnly).
func TestHTTPReadOfLoopback(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, serveList(syntheticIDs(3)))
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	if _, err := c.Groups(context.Background(), ListOptions{}); err != nil {
		t.Fatalf("a read over http to loopback failed: %v", err)
	}
}
