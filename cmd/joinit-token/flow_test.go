package main

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// TestFlowGetsAcceptedToken runs the whole flow against the sandbox on each
// token endpoint and credential style the documentation allows.
func TestFlowGetsAcceptedToken(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		oauth     sandbox.OAuthOptions
		endpoint  string
		style     string
		fellBack  bool // /oauth2/token answered 404 first
		toFile    bool
		wantNoURL bool
	}{
		{"oauth2 path, header", sandbox.OAuthOptions{}, "/oauth2/token", "Authorization header", false, false, false},
		{"oauth2 path, form", sandbox.OAuthOptions{FormCredentialsOnly: true}, "/oauth2/token", "form fields", false, true, false},
		{"legacy path, header", sandbox.OAuthOptions{LegacyTokenPathOnly: true}, "/oauth/token", "Authorization header", true, true, false},
		{"legacy path, form", sandbox.OAuthOptions{LegacyTokenPathOnly: true, FormCredentialsOnly: true}, "/oauth/token", "form fields", true, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := startSandbox(t, tc.oauth)
			args := []string{"-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser"}
			out := filepath.Join(t.TempDir(), "token")
			if tc.toFile {
				// An older, world-readable file is replaced, not rewritten in place.
				if err := os.WriteFile(out, []byte("old\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-out", out)
			}
			r := start(t, testEnv(t, testSecret), args...)
			b := browse(t, r.authorizeURL(t, base))
			if code := r.exitCode(t); code != exitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, r.stderr.String())
			}
			if b.status != http.StatusOK || !strings.Contains(b.page, "You can close this window") {
				t.Errorf("browser page %d %q", b.status, b.page)
			}

			token := r.stdout.String()
			if tc.toFile {
				if token != "" {
					t.Errorf("stdout %q with -out: want nothing", token)
				}
				fi, err := os.Stat(out)
				if err != nil || fi.Mode().Perm() != 0o600 {
					t.Fatalf("-out file: %v, %v; want mode 0600", fi, err)
				}
				raw, _ := os.ReadFile(out)
				token = string(raw)
				if left, _ := filepath.Glob(filepath.Join(filepath.Dir(out), ".joinit-token-*")); len(left) > 0 {
					t.Errorf("temporary files left: %v", left)
				}
			}
			if !strings.HasSuffix(token, "\n") || strings.Count(token, "\n") != 1 {
				t.Fatalf("token output %q: want the token alone on one line", token)
			}
			token = strings.TrimSpace(token)
			if s := apiStatus(t, base, token); s != http.StatusOK {
				t.Errorf("the sandbox answered %d to the token", s)
			}

			stderr := r.stderr.String()
			for _, want := range []string{base + tc.endpoint + " accepted the code", tc.style, `token_type "Bearer"`, `scope "all"`,
				"NOT verified", `subject "sandbox-user-1"`, `e-mail "sandbox.user@example.com"`} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if got := strings.Contains(stderr, "/oauth2/token answered 404"); got != tc.fellBack {
				t.Errorf("fallback noted: %v, want %v:\n%s", got, tc.fellBack, stderr)
			}
			for name, secret := range map[string]string{"client secret": testSecret, "code": b.code} {
				if secret == "" || strings.Contains(stderr+r.stdout.String(), secret) {
					t.Errorf("the %s %q is printed (or was not seen)", name, secret)
				}
			}
		})
	}
}

// TestFlowOpensBrowser checks that without -no-browser the authorize URL
// goes to the browser; the test's browser follows it.
func TestFlowOpensBrowser(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	e := testEnv(t, testSecret)
	opened := make(chan string, 1)
	e.browse = func(u string) error {
		opened <- u
		go func() {
			if _, err := browseErr(u); err != nil {
				t.Errorf("browser: %v", err)
			}
		}()
		return nil
	}
	r := start(t, e, "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)))
	if code := r.exitCode(t); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, r.stderr.String())
	}
	if u := <-opened; !strings.Contains(r.stderr.String(), u+"\n") {
		t.Errorf("opened %q, which is not the printed URL", u)
	}
}

func TestFlowWrongSecret(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	r := start(t, testEnv(t, "not-the-secret"), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser")
	b := browse(t, r.authorizeURL(t, base))
	if code := r.exitCode(t); code != exitBadClient {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitBadClient, r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), "refused the client credentials (HTTP 401 invalid_client") || strings.Contains(r.stderr.String(), "not-the-secret") {
		t.Errorf("stderr:\n%s", r.stderr.String())
	}
	if b.status != http.StatusBadRequest || !strings.Contains(b.page, "refused the client credentials") {
		t.Errorf("browser page %d %q", b.status, b.page)
	}
	if r.stdout.String() != "" {
		t.Errorf("stdout %q", r.stdout.String())
	}
}

func TestFlowDenied(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{Deny: true})
	r := start(t, testEnv(t, testSecret), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser")
	b := browse(t, r.authorizeURL(t, base))
	if code := r.exitCode(t); code != exitDenied {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitDenied, r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), "denied: access_denied") || !strings.Contains(b.page, "denied: access_denied") {
		t.Errorf("stderr:\n%s\npage %q", r.stderr.String(), b.page)
	}
}

// TestFlowWrongStateKeepsWaiting: a callback with a wrong or missing
// state (any local process, or a web page loading an image from 127.0.0.1,
// can send one) is answered 400 and does not end the run; the right one
// still gets the token.
func TestFlowWrongStateKeepsWaiting(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	port := freePort(t)
	r := start(t, testEnv(t, testSecret), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(port), "-no-browser")
	authorize := r.authorizeURL(t, base)
	if b := browse(t, withState(t, authorize, "forged")); b.status != http.StatusBadRequest || !strings.Contains(b.page, "still waiting") {
		t.Errorf("forged state: page %d %q", b.status, b.page)
	}
	for _, query := range []string{"?code=stolen", "?error=access_denied", "?state=&code=x"} {
		b, err := browseErr(redirectURI(port) + query)
		if err != nil || b.status != http.StatusBadRequest {
			t.Errorf("callback %s: %d, %v; want 400", query, b.status, err)
		}
	}
	select {
	case code := <-r.done:
		t.Fatalf("a callback that was not for this run ended it (exit %d); stderr:\n%s", code, r.stderr.String())
	default:
	}
	if b := browse(t, authorize); b.status != http.StatusOK {
		t.Errorf("the run's own callback: page %d %q", b.status, b.page)
	}
	if code := r.exitCode(t); code != exitOK || strings.TrimSpace(r.stdout.String()) == "" {
		t.Fatalf("exit %d, stdout %q; stderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), "wrong or missing state") {
		t.Errorf("the refused callbacks were not noted:\n%s", r.stderr.String())
	}
}

// TestFlowOnlyWrongStatesEndsInMismatch: when the timeout comes and only
// callbacks for another run arrived, the exit code says so. The forged
// callback must come within the run's -timeout, which starts when the
// authorize URL is printed: a loaded machine can be slower than that, and a
// run that timed out with nothing counted is tried again with twice the
// time (1 s, then up to 8 s), so the test waits on the callback's arrival,
// not on the machine's speed.
func TestFlowOnlyWrongStatesEndsInMismatch(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	for timeout := time.Second; ; timeout *= 2 {
		r := start(t, testEnv(t, testSecret), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser", "-timeout", timeout.String())
		b, err := browseErr(withState(t, r.authorizeURL(t, base), "forged"))
		code := r.exitCode(t)
		if code == exitTimeout && timeout < 8*time.Second {
			t.Logf("the forged callback came after the %s timeout (page %q, %v): again with twice the time", timeout, b.page, err)
			continue
		}
		if err != nil {
			t.Fatalf("browser: %v", err)
		}
		if code != exitStateMismatch {
			t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitStateMismatch, r.stderr.String())
		}
		if !strings.Contains(b.page, "Not for this run") || r.stdout.String() != "" || !strings.Contains(r.stderr.String(), "another run") {
			t.Errorf("page %q, stdout %q, stderr:\n%s", b.page, r.stdout.String(), r.stderr.String())
		}
		return
	}
}

func TestFlowTimeout(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	r := start(t, testEnv(t, testSecret), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser", "-timeout", "100ms")
	if code := r.exitCode(t); code != exitTimeout {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitTimeout, r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), "within 100ms") {
		t.Errorf("stderr:\n%s", r.stderr.String())
	}
}

func TestFlowPortInUse(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	port := taken.Addr().(*net.TCPAddr).Port
	r := start(t, testEnv(t, testSecret), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(port), "-no-browser")
	if code := r.exitCode(t); code != exitPortInUse {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitPortInUse, r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), "already in use") {
		t.Errorf("stderr:\n%s", r.stderr.String())
	}
}

// TestFlowUnreachable covers an https auth URL where nothing listens and
// one whose certificate is not trusted: both fail before any browser.
func TestFlowUnreachable(t *testing.T) {
	t.Parallel()
	untrusted := httptest.NewTLSServer(http.NotFoundHandler())
	t.Cleanup(untrusted.Close)
	for name, authURL := range map[string]string{
		"nothing listens": "https://127.0.0.1:" + strconv.Itoa(freePort(t)),
		"untrusted TLS":   untrusted.URL,
	} {
		r := start(t, testEnv(t, testSecret), "-auth-url", authURL, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser")
		if code := r.exitCode(t); code != exitUnreachable {
			t.Errorf("%s: exit %d, want %d; stderr:\n%s", name, code, exitUnreachable, r.stderr.String())
		}
		if strings.Contains(r.stderr.String(), "/oauth2/authorize?") {
			t.Errorf("%s: the authorize URL was printed for an unreachable server", name)
		}
	}
}

// An interrupt while the code is being exchanged stops the run at once,
// with no token printed, however long the token endpoint would take: here
// it never answers, so only the interrupt can end the run.
func TestFlowInterruptDuringExchange(t *testing.T) {
	t.Parallel()
	exchanging := make(chan struct{})
	var once sync.Once
	testEnded := make(chan struct{})
	auth := approvingAuthServer(t, func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm() // read the body, so the server notices the client leaving
		once.Do(func() { close(exchanging) })
		select { // a token endpoint that does not answer
		case <-r.Context().Done():
		case <-testEnded:
		}
	})
	t.Cleanup(func() { close(testEnded) }) // before auth.Close, which waits for the handler
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var stdout, stderr testutil.SyncBuffer
	done := make(chan int, 1)
	e := testEnv(t, testSecret)
	go func() {
		done <- e.run(ctx, []string{"-auth-url", auth.URL, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser"},
			strings.NewReader(""), &stdout, &stderr)
	}()
	r := &running{stdout: &stdout, stderr: &stderr, done: done}
	r.logOnFailure(t)
	browsed := make(chan error, 1)
	u := r.authorizeURL(t, auth.URL) // on the test's goroutine: it may fail the test
	go func() {
		_, err := browseErr(u)
		browsed <- err
	}()
	select {
	case <-exchanging:
	case <-time.After(hangLimit):
		t.Fatalf("the code was never exchanged; stderr:\n%s", stderr.String())
	}
	cancel()
	select {
	case code := <-done:
		if code != exitFailure || !strings.Contains(stderr.String(), "interrupted") || stdout.String() != "" {
			t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout.String(), stderr.String())
		}
	case <-time.After(hangLimit): // the token endpoint never answers: only the interrupt ends the run
		t.Fatalf("the run went on after the interrupt; stderr:\n%s", stderr.String())
	}
	// The browser waiting on the callback page gets an answer too.
	if err := <-browsed; err != nil {
		t.Errorf("the browser got no page after the interrupt: %v", err)
	}
}

// An -out that cannot be written is found before the flow starts, so the
// single-use code is not spent; a token endpoint that redirects is not
// followed, so the client secret goes nowhere else.
func TestFlowRefusesUnwritableOutAndTokenRedirects(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	r := start(t, testEnv(t, testSecret), "-auth-url", base, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)),
		"-no-browser", "-out", filepath.Join(t.TempDir(), "no-such-dir", "token"))
	if code := r.exitCode(t); code != exitUsage || !strings.Contains(r.stderr.String(), "could not be written") {
		t.Fatalf("unwritable -out: exit %d; stderr:\n%s", code, r.stderr.String())
	}
	if strings.Contains(r.stderr.String(), "/oauth2/authorize?") {
		t.Fatalf("the flow started despite the unwritable -out:\n%s", r.stderr.String())
	}

	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the token request followed the redirect to %s", r.URL)
	}))
	defer elsewhere.Close()
	auth := approvingAuthServer(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/steal", http.StatusTemporaryRedirect)
	})
	r = start(t, testEnv(t, testSecret), "-auth-url", auth.URL, "-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser")
	u := r.authorizeURL(t, auth.URL) // on the test's goroutine: it may fail the test
	go func() { _, _ = browseErr(u) }()
	if code := r.exitCode(t); code != exitFailure || !strings.Contains(r.stderr.String(), "redirect") || strings.Contains(r.stderr.String(), testSecret) {
		t.Fatalf("token redirect: exit %d; stderr:\n%s", code, r.stderr.String())
	}
}

// approvingAuthServer is an auth server whose authorize endpoint approves at
// once (code c0de) and whose token endpoint is the test's.
func approvingAuthServer(t *testing.T, token http.HandlerFunc) *httptest.Server {
	t.Helper()
	auth := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/oauth2/authorize":
			q := r.URL.Query()
			http.Redirect(w, r, q.Get("redirect_uri")+"?code=c0de&state="+url.QueryEscape(q.Get("state")), http.StatusFound)
		case "/oauth2/token":
			token(w, r)
		}
	}))
	t.Cleanup(auth.Close)
	return auth
}

// The service authorizes on one host and issues tokens on another
// (app.joinit.com, app.joinitapi.com): with -authorize-url and -token-url
// on two addresses, the code got at the first is exchanged at the second,
// and the second only. Here the token address is a proxy of its own
// before the sandbox, which counts what it is asked.
func TestFlowAuthorizeAndTokenOnTwoAddresses(t *testing.T) {
	t.Parallel()
	base := startSandbox(t, sandbox.OAuthOptions{})
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var asked []string
	proxy := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) }} // Host too: the sandbox answers only its own
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.Method+" "+r.URL.Path)
		mu.Unlock()
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(tokens.Close)
	r := start(t, testEnv(t, testSecret), "-authorize-url", base+"/oauth2/authorize", "-token-url", tokens.URL+"/oauth2/token",
		"-client-id", testClientID, "-redirect-uri", redirectURI(freePort(t)), "-no-browser")
	browse(t, r.authorizeURL(t, base))
	if code := r.exitCode(t); code != exitOK {
		t.Fatalf("exit %d; stderr:\n%s", code, r.stderr.String())
	}
	if s := apiStatus(t, base, strings.TrimSpace(r.stdout.String())); s != http.StatusOK {
		t.Errorf("the sandbox answered %d to the token", s)
	}
	if !strings.Contains(r.stderr.String(), tokens.URL+"/oauth2/token accepted the code") {
		t.Errorf("stderr does not name the token address:\n%s", r.stderr.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if len(asked) != 1 || asked[0] != "POST /oauth2/token" {
		t.Errorf("the token address was asked %v, want one POST /oauth2/token", asked)
	}
}
