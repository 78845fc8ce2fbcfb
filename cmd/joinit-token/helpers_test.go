package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

const (
	testClientID = "app-key-7"
	testSecret   = "s3cr-Zq9v-Kx7w-M2p"
)

// hangLimit is how long a test waits for a run to end, or for a browser's
// answer: a limit on hangs, not a claim about speed.
const hangLimit = time.Minute

// startSandbox serves the fake API and its OAuth flow (this test's client)
// on a free loopback port until the test ends; the auth URL is the
// returned base URL.
func startSandbox(t *testing.T, o sandbox.OAuthOptions) string {
	t.Helper()
	o.ClientID, o.ClientSecret = testClientID, testSecret
	_, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 2, OAuth: o})
	return base
}

// freePort returns a loopback port nobody listens on right now. Another
// process could take it before joinit-token does; on a test machine that
// is rare enough, and the failure would be a clear exit 7.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func redirectURI(port int) string {
	return "http://127.0.0.1:" + strconv.Itoa(port) + "/callback"
}

// testEnv gives run the secret through the environment and fails the test
// if it tries to open a browser.
func testEnv(t *testing.T, secret string) env {
	return env{
		getenv: func(k string) string {
			if k == secretEnv {
				return secret
			}
			return ""
		},
		browse: func(string) error { t.Error("run opened a browser"); return nil },
	}
}

// running is one joinit-token run in the background.
type running struct {
	stdout, stderr *testutil.SyncBuffer
	done           chan int
}

func start(t *testing.T, e env, args ...string) *running {
	t.Helper()
	r := &running{stdout: &testutil.SyncBuffer{}, stderr: &testutil.SyncBuffer{}, done: make(chan int, 1)}
	go func() { r.done <- e.run(t.Context(), args, strings.NewReader(""), r.stdout, r.stderr) }()
	r.logOnFailure(t)
	return r
}

// logOnFailure shows the run's stderr when the test fails, whatever failed
// it (a wait that hung says only what it waited for).
func (r *running) logOnFailure(t *testing.T) {
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("joinit-token's stderr:\n%s", r.stderr.String())
		}
	})
}

// exitCode waits for the run to end.
func (r *running) exitCode(t *testing.T) int {
	t.Helper()
	select {
	case code := <-r.done:
		return code
	case <-time.After(hangLimit):
		t.Fatalf("joinit-token did not end within %s; stderr:\n%s", hangLimit, r.stderr.String())
		return -1
	}
}

// authorizeURL waits for the authorize URL's own line on stderr, or for
// the run to end without one.
func (r *running) authorizeURL(t *testing.T, authURL string) string {
	t.Helper()
	prefix := authURL + "/oauth2/authorize?"
	found, ended := "", false
	testutil.Eventually(t, "the authorize URL's line on stderr", func() bool {
		// Whether it ended first: then stderr is whole when read below.
		select {
		case code := <-r.done:
			r.done <- code
			ended = true
		default:
		}
		for line := range strings.Lines(r.stderr.String()) {
			if strings.HasPrefix(line, prefix) {
				found = strings.TrimSpace(line)
				return true
			}
		}
		return ended
	})
	if found == "" {
		t.Fatalf("joinit-token ended (exit %d) before printing the authorize URL; stderr:\n%s", r.exitCode(t), r.stderr.String())
	}
	return found
}

// browsed is what the test's browser saw.
type browsed struct {
	code   string // the authorization code in the redirect, to check it is never printed
	status int    // the callback page's status
	page   string
}

// browse plays the browser, like curl -L: it follows the authorize URL
// through the redirect to joinit-token's callback page.
func browse(t *testing.T, authorizeURL string) browsed {
	t.Helper()
	b, err := browseErr(authorizeURL)
	if err != nil {
		t.Fatalf("browser: %v", err)
	}
	return b
}

// browseErr is browse for goroutines, which must not call t.Fatal.
func browseErr(authorizeURL string) (browsed, error) {
	var b browsed
	hc := &http.Client{
		Timeout: hangLimit,
		CheckRedirect: func(req *http.Request, _ []*http.Request) error {
			b.code = req.URL.Query().Get("code")
			return nil
		},
	}
	resp, err := hc.Get(authorizeURL)
	if err != nil {
		return b, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	b.status, b.page = resp.StatusCode, string(body)
	return b, err
}

// apiStatus is the sandbox memberships endpoint's answer to a token.
func apiStatus(t *testing.T, base, token string) int {
	t.Helper()
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, base+sandbox.DefaultPaths()[sandbox.EndpointMemberships], nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// withState replaces the state parameter of an authorize URL.
func withState(t *testing.T, authorizeURL, state string) string {
	t.Helper()
	u, err := url.Parse(authorizeURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("state", state)
	u.RawQuery = q.Encode()
	return u.String()
}
