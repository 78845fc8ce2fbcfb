package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// The tests run the real binary, built once by TestMain with the
// joinit_relay_test tag: it then reads the JOINIT_RELAY_TEST_* variables
// that shorten its waits (waits_testbuild.go), which a release never reads.
var relayBinary string

const (
	testSecret = "tEst-relay-secret_0123456789-abcdefghij"
	testOrg    = "org-7f3a"
	// testEmail is in every membership the tests send; no log line may hold it.
	testEmail = "ada.lovelace@example.org"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "joinit-relay-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	relayBinary = filepath.Join(dir, "joinit-relay")
	if out, err := exec.Command("go", "build", "-tags", "joinit_relay_test", "-o", relayBinary, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building joinit-relay: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// relay is one running joinit-relay process.
type relay struct {
	t        testing.TB
	url      string // http://127.0.0.1:PORT
	hookURL  string
	stateDir string
	runs     string // the file the test command appends a line to per run
	cmd      *exec.Cmd
	log      *testutil.SyncBuffer
	exited   chan struct{}
	exitErr  error
	secrets  []string // values no log line may hold, beside the secret and testEmail
}

// relayOptions are what a test changes of a relay's start.
type relayOptions struct {
	stateDir string   // "" for a new one
	env      []string // added to the environment
	secrets  []string // further values the log must not hold
}

// testWaits are the tests' relays' waits (waits.go): a backoff, a poll of
// owed.json and of the run lock take milliseconds, not seconds, and a test
// that asserts one of them sets it again (relayOptions.env comes after
// these, and the last of a variable counts). A request's read timeout is
// longer than any test instead: a connection a test stalls is held until
// the test lets go of it, never closed by the relay mid-test.
var testWaits = []string{
	"JOINIT_RELAY_TEST_POLL_INTERVAL=50ms",
	"JOINIT_RELAY_TEST_RETRY_MIN=100ms",
	"JOINIT_RELAY_TEST_RUN_LOCK_POLL=20ms",
	"JOINIT_RELAY_TEST_DISPATCH_WAIT_MIN=10ms",
	"JOINIT_RELAY_TEST_READ_TIMEOUT=1h",
}

// startRelay starts joinit-relay on a free loopback port with args, the
// test secret, testWaits and RELAY_TEST_RUNS (for run commands to append
// to), and waits until it listens. At cleanup it is stopped, and its log
// is checked for every secret and the test e-mail (and shown if the test
// failed).
func startRelay(t testing.TB, o relayOptions, args ...string) *relay {
	t.Helper()
	r := &relay{t: t, stateDir: o.stateDir, log: &testutil.SyncBuffer{}, exited: make(chan struct{}), secrets: o.secrets}
	if r.stateDir == "" {
		r.stateDir = t.TempDir()
	}
	r.runs = filepath.Join(t.TempDir(), "runs")
	r.cmd = exec.Command(relayBinary, append([]string{"-listen", "127.0.0.1:0", "-state-dir", r.stateDir}, args...)...)
	r.cmd.Env = append(environWithout(os.Environ(), envSecret, envPort, envGitHubToken, envTFEToken),
		envSecret+"="+testSecret, "RELAY_TEST_RUNS="+r.runs)
	r.cmd.Env = append(append(r.cmd.Env, testWaits...), o.env...)
	r.cmd.Stdout, r.cmd.Stderr = r.log, r.log
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.exitErr = r.cmd.Wait(); close(r.exited) }()
	t.Cleanup(r.stopAndCheckLog)
	addr := regexp.MustCompile(`msg=listening addr=(\S+)`)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m := addr.FindStringSubmatch(r.log.String()); m != nil {
			r.url = "http://" + m[1]
			r.hookURL = r.url + hookPrefix + testSecret
			return r
		}
		select {
		case <-r.exited:
			t.Fatalf("joinit-relay exited before listening: %v\n%s", r.exitErr, r.log)
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("joinit-relay did not listen within 60s:\n%s", r.log)
	return nil
}

// stopAndCheckLog sends SIGTERM unless it exited, then fails the test if a
// log line holds a secret or an e-mail.
func (r *relay) stopAndCheckLog() {
	r.signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(60 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.exited
		r.t.Errorf("joinit-relay did not stop within 60s of SIGTERM")
	}
	assertLogClean(r.t, r.log.String(), append([]string{testSecret, testEmail}, r.secrets...))
	if r.t.Failed() {
		r.t.Logf("joinit-relay's log (%s):\n%s", r.url, r.log)
	}
}

func assertLogClean(t testing.TB, log string, secrets []string) {
	t.Helper()
	for _, line := range strings.Split(log, "\n") {
		for _, s := range secrets {
			if s != "" && strings.Contains(line, s) {
				t.Errorf("a log line holds %q: %s", s, line)
			}
		}
		if strings.Contains(line, "@") {
			t.Errorf("a log line holds an @ (an e-mail?): %s", line)
		}
	}
}

func (r *relay) signal(sig syscall.Signal) {
	select {
	case <-r.exited:
	default:
		_ = r.cmd.Process.Signal(sig)
	}
}

// post sends body to url and returns the status and body.
func post(t testing.TB, url, body string) (int, string) {
	t.Helper()
	return request(t, http.MethodPost, url, body)
}

// postTimed is post, and when the webhook was sent and answered.
func postTimed(t testing.TB, url, body string) (int, string, hookTiming) {
	t.Helper()
	sent := time.Now()
	status, answer := post(t, url, body)
	return status, answer, hookTiming{sent, time.Now()}
}

func request(t testing.TB, method, url, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// membership is a webhook body as API.md#the-request shapes it: the record's fields
// plus the two webhook fields (none when event is "": the bare object of
// the service's public page).
func membership(id, event string) string {
	m := map[string]any{"_id": id, "organization_id": testOrg, "email": testEmail, "display_name": "Ada Lovelace",
		"status": 350, "profile": map[string]any{"first_name": "Ada", "phone": "+44 20 7946 0000"}}
	if event != "" {
		m["webhook_object_type"], m["webhook_event_type"] = "memberships", event
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// health reads GET /healthz.
func (r *relay) health() healthAnswer {
	r.t.Helper()
	status, body := request(r.t, http.MethodGet, r.url+"/healthz", "")
	if status != http.StatusOK {
		r.t.Fatalf("/healthz answered %d: %s", status, body)
	}
	var h healthAnswer
	if err := json.Unmarshal([]byte(body), &h); err != nil {
		r.t.Fatalf("/healthz: %v: %s", err, body)
	}
	return h
}

// readFile is name's content; "" when it cannot be read (not written yet).
func readFile(name string) string {
	b, _ := os.ReadFile(name)
	return string(b)
}

// runCount is how many runs the test command recorded.
func (r *relay) runCount() int {
	b, err := os.ReadFile(r.runs)
	if err != nil {
		return 0
	}
	return bytes.Count(b, []byte("\n"))
}

// waitIdle waits until r owes no run and is starting none: /healthz says
// so (the scheduler's own state, in memory) and owed.json is gone (what it
// reads again every poll). From then on no run starts without a new
// webhook, so a test that counts runs after it has counted every one,
// with no wait for a run that might still come.
func (r *relay) waitIdle() {
	r.t.Helper()
	testutil.Eventually(r.t, "no run owed or starting, and no owed.json", func() bool {
		h := r.health()
		_, err := os.Stat(filepath.Join(r.stateDir, owedFile))
		return !h.RunOwed && !h.Starting && errors.Is(err, fs.ErrNotExist)
	})
}

// hang is how long a test waits for an answer before it calls the wait a
// hang, as testutil.Eventually does: a limit on hangs, not a claim about
// speed.
const hang = 60 * time.Second

// hookTiming is when a webhook was sent and when its answer came: the
// relay noted its time (ledger.record) between the two.
type hookTiming struct{ sent, answered time.Time }

func (h hookTiming) latency() time.Duration { return h.answered.Sub(h.sent) }

// burst posts n valid webhooks from senders concurrent senders and returns
// each one's timing; every answer must be 202.
func burst(t testing.TB, url string, n, senders int) []hookTiming {
	var mu sync.Mutex
	var hooks []hookTiming
	var wg sync.WaitGroup
	next := make(chan int)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: senders}}
	defer client.CloseIdleConnections()
	for range senders {
		wg.Go(func() {
			for i := range next {
				req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(membership(fmt.Sprintf("m%05d", i), "memberships.updated")))
				sent := time.Now()
				resp, err := client.Do(req)
				answered := time.Now()
				if err != nil {
					t.Errorf("webhook %d: %v", i, err)
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusAccepted {
					t.Errorf("webhook %d answered %d", i, resp.StatusCode)
				}
				mu.Lock()
				hooks = append(hooks, hookTiming{sent, answered})
				mu.Unlock()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	return hooks
}

// appendRun is the run command of most tests: one line per run.
const appendRun = `echo run >> "$RELAY_TEST_RUNS"`

// hookPath is the request target of r's webhooks: /hooks/<secret>.
func hookPath(r *relay) string { return strings.TrimPrefix(r.hookURL, r.url) }

func webhookHeaders(r *relay, contentLength int) string {
	return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: relay\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", hookPath(r), contentLength)
}

// dial opens a connection to r, closed at the test's end (before the
// relay is stopped: cleanups run last first).
func dial(t *testing.T, r *relay) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(r.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}
