package main

import (
	"bytes"
	"errors"
	"log/slog"
	"math"
	"strings"
	"testing"
	"time"
)

func TestBackoffDoublesToItsCapAndHonoursTheServersWait(t *testing.T) {
	t.Parallel()
	s := &scheduler{retryMin: time.Second, retryMax: 5 * time.Minute}
	for n, want := range map[int]time.Duration{1: time.Second, 2: 2 * time.Second, 4: 8 * time.Second, 9: 256 * time.Second, 10: 5 * time.Minute, 60: 5 * time.Minute} {
		if got := s.backoff(n, errors.New("x")); got != want {
			t.Errorf("failure %d: %v, want %v", n, got, want)
		}
	}
	asked := &startError{status: 429, wait: 20 * time.Minute}
	if got := s.backoff(1, errors.Join(errors.New("GitHub"), asked)); got != 20*time.Minute {
		t.Errorf("with Retry-After 20m: %v", got)
	}
	// A server's wait is bounded: an hour at most, however far it asks.
	for _, far := range []time.Duration{time.Hour + time.Second, 24 * time.Hour, math.MaxInt64} {
		if got := s.backoff(1, &startError{status: 429, wait: far}); got != time.Hour {
			t.Errorf("with Retry-After %v: %v, want an hour", far, got)
		}
	}
}

func TestDueIsTheQuietPeriodOrTheMaxDelayWhicheverIsFirst(t *testing.T) {
	t.Parallel()
	s := &scheduler{quietPeriod: 30 * time.Second, maxDelay: 5 * time.Minute}
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	if _, owed := s.due(ledgerState{}, time.Time{}); owed {
		t.Error("due with nothing owed")
	}
	if got, _ := s.due(ledgerState{owedSince: t0, lastEvent: t0.Add(time.Minute)}, time.Time{}); !got.Equal(t0.Add(90 * time.Second)) {
		t.Errorf("quiet period: %v", got)
	}
	if got, _ := s.due(ledgerState{owedSince: t0, lastEvent: t0.Add(299 * time.Second)}, time.Time{}); !got.Equal(t0.Add(5 * time.Minute)) {
		t.Errorf("max delay: %v", got)
	}
	retry := t0.Add(time.Hour)
	if got, _ := s.due(ledgerState{owedSince: t0, lastEvent: t0}, retry); !got.Equal(retry) {
		t.Errorf("retry: %v", got)
	}
}

// A retry is due at the later of this relay's and the record's (another
// relay's start failed since), whichever is set.
func TestDueIsTheLaterOfTheRelaysRetryAndTheRecords(t *testing.T) {
	t.Parallel()
	s := &scheduler{quietPeriod: 30 * time.Second, maxDelay: 5 * time.Minute}
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	own, recorded := t0.Add(time.Minute), t0.Add(2*time.Minute)
	for _, c := range []struct {
		name          string
		own, recorded time.Time
		want          time.Time
	}{
		{"the relay's alone", own, time.Time{}, own},
		{"the record's alone", time.Time{}, recorded, recorded},
		{"the record's later", own, recorded, recorded},
		{"the relay's later", recorded, own, recorded},
	} {
		if got, _ := s.due(ledgerState{owedSince: t0, lastEvent: t0, retryAt: c.recorded}, c.own); !got.Equal(c.want) {
			t.Errorf("%s: due %v, want %v", c.name, got, c.want)
		}
	}
}

func TestStartRefusesBadSettingsWithoutQuotingTheSecret(t *testing.T) {
	t.Parallel()
	good := map[string]string{envSecret: testSecret, envGitHubToken: gitHubToken}
	cases := []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"no secret", map[string]string{}, []string{"-state-dir", "d", "-run-command", "true"}, "JOINIT_RELAY_SECRET is not set"},
		{"short secret", map[string]string{envSecret: "short-secret-1234"}, []string{"-state-dir", "d", "-run-command", "true"}, "17 characters; it must be 32 or more"},
		{"secret with a newline", map[string]string{envSecret: testSecret + "\n"}, []string{"-state-dir", "d", "-run-command", "true"}, "a trailing newline?"},
		{"no state dir", good, []string{"-run-command", "true"}, "-state-dir is required"},
		{"no backend", good, []string{"-state-dir", "d"}, "exactly one backend"},
		{"two backends", good, []string{"-state-dir", "d", "-run-command", "true", "-tfe-workspace", "ws-1"}, "exactly one backend"},
		{"bad workflow", good, []string{"-state-dir", "d", "-github-workflow", "acme/sync.yml"}, "is not OWNER/REPO/WORKFLOW_FILE@REF"},
		{"no GitHub token", map[string]string{envSecret: testSecret}, []string{"-state-dir", "d", "-github-workflow", "a/b/c.yml@main"}, "needs GITHUB_TOKEN"},
		{"bad workspace", good, []string{"-state-dir", "d", "-tfe-workspace", "my-workspace"}, "is not a workspace id"},
		{"GitHub API over http", good, []string{"-state-dir", "d", "-github-workflow", "a/b/c.yml@main", "-github-api-url", "http://ghe.example.com/api/v3"}, `-github-api-url http://ghe.example.com uses http on \"ghe.example.com\", which is not a loopback host (127.0.0.0/8, ::1, localhost): only https is allowed off loopback, so that the token never crosses a network in clear text.`},
		{"GitHub API over http to a typo of localhost", good, []string{"-state-dir", "d", "-github-workflow", "a/b/c.yml@main", "-github-api-url", "http://localhots:8080/api/v3"}, `-github-api-url http://localhots:8080 uses http on \"localhots\", which is not a loopback host (127.0.0.0/8, ::1, localhost): only https is allowed off loopback, so that the token never crosses a network in clear text. Did you mean \"localhost\"?`},
		{"GitHub API not a URL", good, []string{"-state-dir", "d", "-github-workflow", "a/b/c.yml@main", "-github-api-url", "ftp://ghe.example.com"}, "not an https URL"},
		{"no TFE token", good, []string{"-state-dir", "d", "-tfe-workspace", "ws-abc"}, "needs TFE_TOKEN"},
		{"no events", good, []string{"-state-dir", "d", "-run-command", "true", "-events", ","}, "-events names no event type"},
		{"quiet period 0", good, []string{"-state-dir", "d", "-run-command", "true", "-quiet-period", "0s"}, "must be above 0"},
		{"quiet period without a unit", good, []string{"-state-dir", "d", "-run-command", "true", "-quiet-period", "5"}, "5 has no unit: write 5s (seconds) or 5m (minutes)"},
		{"run timeout not a duration", good, []string{"-state-dir", "d", "-run-command", "true", "-run-timeout", "soon"}, `\"soon\" is not a duration`},
		{"listen not an address", good, []string{"-state-dir", "d", "-run-command", "true", "-listen", "nonsense"}, `-listen \"nonsense\" is not HOST:PORT`},
		{"PORT not a number", map[string]string{envSecret: testSecret, envPort: "abc"}, []string{"-state-dir", "d", "-run-command", "true"}, `PORT \"abc\" is not a port number`},
		{"no membership trigger", good, []string{"-state-dir", "d", "-run-command", "true", "-events", "check_ins.created"}, "-events names no membership trigger, so every cancellation would be ignored: add memberships.inactive"},
		{"quiet period past the max delay", good, []string{"-state-dir", "d", "-run-command", "true", "-quiet-period", "10m"}, "-quiet-period 10m0s is longer than -max-delay 5m0s"},
		{"metrics-listen not an address", good, []string{"-state-dir", "d", "-run-command", "true", "-metrics-listen", "9090"}, `-metrics-listen \"9090\" is not HOST:PORT`},
		{"an event no trigger sends", good, []string{"-state-dir", "d", "-run-command", "true", "-events", "memberships.cancelled"}, `did you mean \"memberships.inactive\"?`},
	}
	for _, c := range cases {
		var out, errOut bytes.Buffer
		code := run(t.Context(), c.args, func(k string) string { return c.env[k] }, &out, &errOut)
		if code != exitUsage || !strings.Contains(errOut.String(), c.want) {
			t.Errorf("%s: exit %d, %q; want %d and %q", c.name, code, errOut.String(), exitUsage, c.want)
		}
		if strings.Contains(errOut.String(), testSecret) || strings.Contains(errOut.String(), gitHubToken) {
			t.Errorf("%s: the message quotes a secret: %s", c.name, errOut.String())
		}
	}
}

func TestHelpGoesToStandardOutput(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	code := run(t.Context(), []string{"-h"}, func(string) string { return "" }, &out, &errOut)
	if code != exitOK || !strings.Contains(out.String(), "joinit-relay receives") || !strings.Contains(out.String(), "-quiet-period duration") || errOut.Len() != 0 {
		t.Errorf("-h: exit %d, standard output %d bytes, standard error %q; want 0, the usage on standard output only", code, out.Len(), errOut.String())
	}
}

func TestListenDefaultsToPORT(t *testing.T) {
	t.Parallel()
	env := map[string]string{envSecret: testSecret, envPort: "9123"}
	c, err := parseConfig([]string{"-state-dir", "d", "-run-command", "true"}, func(k string) string { return env[k] }, nil)
	if err != nil || c.listen != ":9123" {
		t.Fatalf("listen %v, %v; want :9123", c, err)
	}
	delete(env, envPort)
	if c, _ := parseConfig([]string{"-state-dir", "d", "-run-command", "true"}, func(k string) string { return env[k] }, nil); c.listen != ":8080" {
		t.Errorf("listen without PORT: %s", c.listen)
	}
}

func TestOnlyTriggersAndIDShapedIDsReachALogLine(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"memberships.inactive":                         "memberships.inactive",
		"memberships.inactive\nlevel=ERROR msg=forged": "(other)",
		"ada@example.org":                              "(other)",
		"":                                             "(none)",
	} {
		if got := eventForLog(in); got != want {
			t.Errorf("event %q logged as %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"5f1b2c3d4e5f60718293a4b5": "5f1b2c3d4e5f60718293a4b5",
		"m_42-x":                   "m_42-x",
		"ada@example.org":          "(not an id)",
		"alice.example.com":        "(not an id)",
		"Ada Lovelace":             "(not an id)",
		strings.Repeat("a", 65):    "(not an id)",
		"":                         "(none)",
	} {
		if got := idForLog(in); got != want {
			t.Errorf("_id %q logged as %q, want %q", in, got, want)
		}
	}
}

func TestEventsRefusesANameNoTriggerHasAndNamesTheClosest(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"memberships.cancelled": "memberships.inactive",
		"memberships.expired":   "memberships.inactive",
		"memberships.renewed":   "memberships.renewal",
		"membership.created":    "memberships.created",
		"check_ins.checkedout":  "check_ins.checked_out",
		"payment.created":       "payments.created",
	} {
		_, err := eventSet("memberships.all," + name)
		if err == nil || !strings.Contains(err.Error(), `did you mean "`+want+`"`) {
			t.Errorf("-events %s: %v; want it refused, naming %s", name, err, want)
		}
	}
	set, err := eventSet(" memberships.inactive , check_ins.checked_out,")
	if err != nil || len(set) != 2 || !set["memberships.inactive"] || !set["check_ins.checked_out"] {
		t.Errorf("two triggers: %v, %v", set, err)
	}
}

func TestStartsFailingForAnHourAreLoggedAsErrors(t *testing.T) {
	t.Parallel()
	l, err := openLedger(t.TempDir(), time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	s := &scheduler{ledger: l, backend: &commandBackend{}, log: slog.New(slog.NewTextHandler(&log, nil))}
	for _, c := range []struct {
		failingFor time.Duration
		want       string
	}{{time.Minute, "level=WARN"}, {59 * time.Minute, "level=WARN"}, {time.Hour, "level=ERROR"}, {5 * time.Hour, "level=ERROR"}} {
		log.Reset()
		l.setRecord(owedRecord{OwedSince: time.Now().Add(-2 * c.failingFor), FailingSince: time.Now().Add(-c.failingFor)}, true)
		s.logFailure(errors.New("answered 500"), "1s", time.Now())
		if !strings.HasPrefix(strings.SplitN(log.String(), " ", 2)[1], c.want) {
			t.Errorf("failing for %v: %s, want %s", c.failingFor, log.String(), c.want)
		}
	}
}
