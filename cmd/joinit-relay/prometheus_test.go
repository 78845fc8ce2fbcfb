//go:build prometheus

package main

// make alert-check runs this test (go test -tags prometheus), after
// promtool: a real Prometheus (Debian's package, /usr/bin/prometheus)
// scrapes a running relay and loads examples/relay-alerts' rules file as
// it is, and each alert's expression, as that Prometheus parsed it (from
// /api/v1/rules), is evaluated on it (/api/v1/query) before and after the
// relay is driven into the alert's condition. A rule naming a metric the
// relay does not export, or selecting another job, never comes true, and
// the test fails. The `for` of each alert is not waited for: promtool's
// tests (joinit-relay.rules.test.yml) cover it.

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

const rulesFile = "../../examples/relay-alerts/joinit-relay.rules.yml"

func TestAlertsOnARealPrometheus(t *testing.T) {
	promBinary, err := exec.LookPath("prometheus")
	if err != nil {
		t.Fatal("prometheus is missing; install it with: sudo bash scripts/install-alert-tools.sh")
	}
	rules, err := filepath.Abs(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	// A failing backend (false), its retries 100 ms apart (testWaits).
	r := startRelay(t, relayOptions{}, "-metrics-listen", "127.0.0.1:0", "-quiet-period", "50ms", "-run-command", "false")
	m := regexp.MustCompile(`msg="serving /metrics and /healthz" addr=(\S+)`).FindStringSubmatch(r.log.String())
	if m == nil {
		t.Fatalf("no line names -metrics-listen's address:\n%s", r.log)
	}
	p := startPrometheus(t, promBinary, rules, m[1])

	exprs := p.alertExpressions(t)
	for _, name := range []string{"JoinitRelayRunOwedTooLong", "JoinitRelayNotScraped", "JoinitRelayStartsFailing", "JoinitRelayWrongSecret"} {
		if exprs[name] == "" {
			t.Fatalf("Prometheus loaded no alert %s from %s (it has %v)", name, rulesFile, exprs)
		}
	}
	// JoinitRelayRunOwedTooLong's threshold (600 s) is queried as 0: the
	// expression as written, its number replaced, so its metric and job
	// are the file's, and true as soon as a run is owed.
	owed := regexp.MustCompile(`>\s*[0-9.]+\s*$`)
	if !owed.MatchString(exprs["JoinitRelayRunOwedTooLong"]) {
		t.Fatalf("JoinitRelayRunOwedTooLong's expression ends in no `> N` to replace: %s", exprs["JoinitRelayRunOwedTooLong"])
	}
	exprs["JoinitRelayRunOwedTooLong"] = owed.ReplaceAllString(exprs["JoinitRelayRunOwedTooLong"], "> 0")

	// Before: a few scrapes of the running, idle relay (its counters at 0,
	// so an increase() has a sample before the condition), no alert true.
	p.eventually(t, "two scrapes of the relay's counters", func() bool {
		return len(p.query(t, `count_over_time(joinit_relay_wrong_secret_total{job="joinit-relay"}[1m]) >= 2`)) > 0
	})
	for name, expr := range exprs {
		if got := p.query(t, expr); len(got) != 0 {
			t.Errorf("%s is true before its condition: %s gives %s", name, expr, got)
		}
	}
	if t.Failed() {
		t.FailNow()
	}

	// A wrong secret.
	if status, _ := post(t, r.url+hookPrefix+"not-the-secret", membership("m1", "memberships.updated")); status != http.StatusNotFound {
		t.Fatalf("a wrong secret answered %d, want 404", status)
	}
	p.waitTrue(t, "JoinitRelayWrongSecret", exprs["JoinitRelayWrongSecret"])

	// A webhook with the right secret: a run is owed, and its starts fail.
	if status, _ := post(t, r.hookURL, membership("m1", "memberships.updated")); status != http.StatusAccepted {
		t.Fatalf("the webhook answered %d, want 202", status)
	}
	p.waitTrue(t, "JoinitRelayRunOwedTooLong (threshold 0)", exprs["JoinitRelayRunOwedTooLong"])
	p.waitTrue(t, "JoinitRelayStartsFailing", exprs["JoinitRelayStartsFailing"])
	if got := p.query(t, exprs["JoinitRelayNotScraped"]); len(got) != 0 {
		t.Errorf("JoinitRelayNotScraped is true while the relay runs: %s", got)
	}

	// The relay stopped.
	r.signal(syscall.SIGTERM)
	select {
	case <-r.exited:
	case <-time.After(hang):
		t.Fatalf("joinit-relay did not stop within %s of SIGTERM", hang)
	}
	p.waitTrue(t, "JoinitRelayNotScraped", exprs["JoinitRelayNotScraped"])
}

// promServer is one running Prometheus server.
type promServer struct {
	url    string // http://127.0.0.1:PORT
	log    *testutil.SyncBuffer
	exited chan struct{}
}

// startPrometheus starts binary on a free loopback port, scraping target
// every second as job joinit-relay and loading rules, and waits until the
// target is up. It is stopped at cleanup, and its log shown if the test
// failed.
func startPrometheus(t *testing.T, binary, rules, target string) *promServer {
	t.Helper()
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, fmt.Appendf(nil, `global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - %q
scrape_configs:
  - job_name: joinit-relay
    static_configs:
      - targets: [%q]
`, rules, target), 0o600); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0") // a free port, for Prometheus to take
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	p := &promServer{url: "http://" + addr, log: &testutil.SyncBuffer{}, exited: make(chan struct{})}
	cmd := exec.Command(binary, "--config.file="+config, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address="+addr, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = p.log, p.log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-p.exited:
		case <-time.After(hang):
			_ = cmd.Process.Kill()
			<-p.exited
		}
		if t.Failed() {
			t.Logf("prometheus's log:\n%s", p.log)
		}
	})
	p.eventually(t, "Prometheus's target joinit-relay up", func() bool {
		var targets struct {
			ActiveTargets []struct {
				Labels map[string]string `json:"labels"`
				Health string            `json:"health"`
			} `json:"activeTargets"`
		}
		if !p.get("/api/v1/targets", &targets) {
			return false
		}
		for _, tg := range targets.ActiveTargets {
			if tg.Labels["job"] == "joinit-relay" && tg.Health == "up" {
				return true
			}
		}
		return false
	})
	return p
}

// get reads path's data into v; false when Prometheus does not answer
// (yet) or answers an error.
func (p *promServer) get(path string, v any) bool {
	resp, err := http.Get(p.url + path)
	if err != nil {
		return false
	}
	defer resp.Body.Close()
	var answer struct {
		Status string          `json:"status"`
		Data   json.RawMessage `json:"data"`
	}
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&answer) != nil || answer.Status != "success" {
		return false
	}
	return json.Unmarshal(answer.Data, v) == nil
}

// alertExpressions are the loaded rules' alerts' expressions, by name.
func (p *promServer) alertExpressions(t *testing.T) map[string]string {
	t.Helper()
	var rules struct {
		Groups []struct {
			Rules []struct {
				Type  string `json:"type"`
				Name  string `json:"name"`
				Query string `json:"query"`
			} `json:"rules"`
		} `json:"groups"`
	}
	if !p.get("/api/v1/rules", &rules) {
		t.Fatal("GET /api/v1/rules failed")
	}
	exprs := map[string]string{}
	for _, g := range rules.Groups {
		for _, r := range g.Rules {
			if r.Type == "alerting" {
				exprs[r.Name] = r.Query
			}
		}
	}
	return exprs
}

// query evaluates expr now and returns its series, as JSON ("[]" empty).
func (p *promServer) query(t *testing.T, expr string) string {
	t.Helper()
	var data struct {
		Result []json.RawMessage `json:"result"`
	}
	if !p.get("/api/v1/query?query="+url.QueryEscape(expr), &data) {
		t.Fatalf("Prometheus did not evaluate %s", expr)
	}
	if len(data.Result) == 0 {
		return ""
	}
	return "[" + strings.Join(func() []string {
		var s []string
		for _, r := range data.Result {
			s = append(s, string(r))
		}
		return s
	}(), ",") + "]"
}

// waitTrue waits until expr gives a series: the alert's condition holds.
func (p *promServer) waitTrue(t *testing.T, name, expr string) {
	t.Helper()
	start := time.Now()
	p.eventually(t, name+"'s expression true ("+expr+")", func() bool { return p.query(t, expr) != "" })
	t.Logf("%s true after %v: %s", name, time.Since(start).Round(time.Millisecond), expr)
}

// eventually polls cond every 100 ms until it holds; hang is a limit on
// hangs, not a claim about speed (scrapes and evaluations are a second
// apart).
func (p *promServer) eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(hang)
	for !cond() {
		select {
		case <-p.exited:
			t.Fatalf("%s: prometheus exited:\n%s", what, p.log)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %s", what, hang)
		}
	}
}
