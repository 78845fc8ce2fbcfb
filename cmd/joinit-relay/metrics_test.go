package main

import (
	"net/http"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// scrape reads GET /metrics.
func (r *relay) scrape(t *testing.T) string {
	t.Helper()
	status, body := request(t, http.MethodGet, r.url+"/metrics", "")
	if status != http.StatusOK {
		t.Fatalf("GET /metrics: %d", status)
	}
	return body
}

// metricValue is the value of the sample whose name and labels are
// exactly series; -1 when it is absent.
func metricValue(body, series string) float64 {
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err == nil {
				return f
			}
		}
	}
	return -1
}

func TestMetricsCountWebhooksAndRunsWithoutASendersText(t *testing.T) {
	t.Parallel()
	const quiet = 400 * time.Millisecond
	r := startRelay(t, relayOptions{}, "-quiet-period", quiet.String(), "-run-command", appendRun)
	m := r.scrape(t)
	if v := metricValue(m, "joinit_relay_run_owed_seconds"); v != 0 {
		t.Errorf("owed seconds before any webhook: %v, want 0", v)
	}
	if v := metricValue(m, `joinit_relay_run_starts_total{outcome="started"}`); v != 0 {
		t.Errorf("starts before any: %v, want 0", v)
	}
	// The three webhooks owe one run, or one more per pause between them
	// as long as the quiet period (a loaded machine's; pauses).
	var owing []hookTiming
	for _, body := range []string{membership("m1", "memberships.inactive"), membership("m2", "memberships.inactive"), membership("m3", "ada@example.org\"} 1\nforged")} {
		_, _, h := postTimed(t, r.hookURL, body)
		owing = append(owing, h)
	}
	post(t, r.hookURL, "not json")
	testutil.Eventually(t, "the run starts", func() bool { return r.runCount() >= 1 })
	r.waitIdle()
	runs, p := r.runCount(), pauses(owing, quiet)
	if runs < 1 || runs > 1+p {
		t.Errorf("three webhooks started %d runs, want 1 (to %d, with %d pauses)", runs, 1+p, p)
	}
	m = r.scrape(t)
	for series, want := range map[string]float64{
		`joinit_relay_webhooks_total{code="202",event="memberships.inactive"}`: 2,
		`joinit_relay_webhooks_total{code="202",event="other"}`:                1,
		`joinit_relay_webhooks_total{code="400",event="none"}`:                 1,
		`joinit_relay_run_starts_total{outcome="started"}`:                     float64(runs),
		`joinit_relay_run_starts_total{outcome="failed"}`:                      0,
		`joinit_relay_run_owed_seconds`:                                        0,
	} {
		if got := metricValue(m, series); got != want {
			t.Errorf("%s: %v, want %v", series, got, want)
		}
	}
	if v := metricValue(m, "joinit_relay_last_start_timestamp_seconds"); v < float64(time.Now().Add(-time.Minute).Unix()) {
		t.Errorf("last start: %v, want about now", v)
	}
	// Every label value is a trigger's name, other, none, or a number.
	for _, lv := range regexp.MustCompile(`(?m)^joinit_relay_\w+\{[^}]*event="([^"]*)"`).FindAllStringSubmatch(m, -1) {
		if lv[1] != "other" && lv[1] != "none" && eventForLog(lv[1]) != lv[1] {
			t.Errorf("a label holds a sender's text: %s", lv[0])
		}
	}
	if strings.Contains(m, "ada@") || strings.Contains(m, "forged") {
		t.Errorf("/metrics holds a sender's text")
	}
}

// While starts fail, the owed seconds count from the webhook: no less
// than the time since its 202 (the relay noted it before), read before the
// scrape, so a slow machine only adds to the relay's figure.
func TestMetricsCountAFailedStartAndTheOwedTime(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-quiet-period", "50ms", "-run-command", "exit 3")
	post(t, r.hookURL, membership("m1", "memberships.inactive"))
	answered := time.Now()
	testutil.Eventually(t, "a failed start is counted", func() bool {
		return metricValue(r.scrape(t), `joinit_relay_run_starts_total{outcome="failed"}`) >= 1
	})
	floor := time.Since(answered)
	if v := metricValue(r.scrape(t), "joinit_relay_run_owed_seconds"); v < floor.Seconds() {
		t.Errorf("owed seconds while starts fail: %v, want the time since the webhook (%v or more)", v, floor.Seconds())
	}
}

// The alert rules (examples/relay-alerts, the one source of the
// PrometheusRule too) and their promtool tests name only metrics this
// relay registers: each joinit_relay_* name in them is a family of a
// started relay's /metrics (# TYPE). A misspelt name would make a rule
// that never fires; promtool's tests, whose series use the real names,
// catch it in the rules, and this in the tests' series too.
func TestAlertRulesUseTheRelaysMetrics(t *testing.T) {
	t.Parallel()
	r := startRelay(t, relayOptions{}, "-run-command", appendRun)
	post(t, r.hookURL, "not json") // joinit_relay_webhooks_total shows from its first request
	var families []string
	for _, m := range regexp.MustCompile(`(?m)^# TYPE (\S+) `).FindAllStringSubmatch(r.scrape(t), -1) {
		families = append(families, m[1])
	}
	name := regexp.MustCompile(`\bjoinit_relay_\w+`)
	for _, file := range []string{"../../examples/relay-alerts/joinit-relay.rules.yml", "../../examples/relay-alerts/joinit-relay.rules.test.yml"} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		used := name.FindAllString(string(data), -1)
		if len(used) == 0 {
			t.Errorf("%s names no joinit_relay_ metric", file)
		}
		for _, n := range used {
			if !slices.Contains(families, n) {
				t.Errorf("%s: %s is not a metric the relay registers (%s)", file, n, strings.Join(slices.DeleteFunc(slices.Clone(families), func(f string) bool { return !strings.HasPrefix(f, "joinit_relay_") }), ", "))
			}
		}
	}
}
