package manifests

import (
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	k8sjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

var update = flag.Bool("update", false, "write prometheusrule.yaml's spec again from the rules file")

// The relay's alerts: a Prometheus rules file, their one source, and the
// PrometheusRule that holds the same groups.
const (
	rulesFile          = "../../examples/relay-alerts/joinit-relay.rules.yml"
	prometheusRuleFile = "prometheusrule.yaml"
)

// rulesFileGroups decodes the rules file strictly into the Prometheus
// Operator's RuleGroup, the type of a PrometheusRule's spec.groups, whose
// fields are the rules file's.
func rulesFileGroups(t *testing.T, data []byte) []monitoringv1.RuleGroup {
	t.Helper()
	j, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	var f struct {
		Groups []monitoringv1.RuleGroup `json:"groups"`
	}
	strictErrs, err := k8sjson.UnmarshalStrict(j, &f)
	if err != nil {
		t.Fatalf("%s: %v", rulesFile, err)
	}
	for _, e := range strictErrs {
		t.Errorf("%s: %v", rulesFile, e)
	}
	if len(f.Groups) == 0 {
		t.Fatalf("%s: no group", rulesFile)
	}
	return f.Groups
}

// prometheusRuleText is prometheusrule.yaml as the rules file makes it:
// its own lines up to "spec:", then the rules file from "groups:" on,
// indented under it.
func prometheusRuleText(t *testing.T, current, rules string) string {
	t.Helper()
	head, _, ok := strings.Cut(current, "\nspec:\n")
	if !ok {
		t.Fatalf("%s: no line \"spec:\"", prometheusRuleFile)
	}
	i := strings.Index(rules, "\ngroups:\n")
	if i < 0 {
		t.Fatalf("%s: no line \"groups:\"", rulesFile)
	}
	var b strings.Builder
	b.WriteString(head + "\nspec:\n")
	for _, line := range strings.SplitAfter(rules[i+1:], "\n") {
		if strings.TrimSpace(line) != "" {
			b.WriteString("  ")
		}
		b.WriteString(line)
	}
	return b.String()
}

// TestPrometheusRuleIsTheRulesFile holds the alerts in one source:
// prometheusrule.yaml's spec is the rules file, indented (run with -update
// to write it so), and what each decodes to strictly (the rules file into
// the operator's RuleGroup, prometheusrule.yaml as a PrometheusRule) is
// equal.
func TestPrometheusRuleIsTheRulesFile(t *testing.T) {
	rules, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, prometheusRuleFile)
	current, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := prometheusRuleText(t, string(current), string(rules))
	if *update && want != string(current) {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		current = []byte(want)
	}
	if want != string(current) {
		t.Errorf("%s: its spec is not %s indented: change the rules there, then run go test -run TestPrometheusRuleIsTheRulesFile -update", prometheusRuleFile, rulesFile)
	}
	obj, err := decodeStrict(current)
	if err != nil {
		t.Fatalf("%s: %v", prometheusRuleFile, err)
	}
	pr, ok := obj.(*monitoringv1.PrometheusRule)
	if !ok {
		t.Fatalf("%s: a %T, not a PrometheusRule", prometheusRuleFile, obj)
	}
	groups := rulesFileGroups(t, rules)
	if reflect.DeepEqual(pr.Spec.Groups, groups) {
		return
	}
	if len(pr.Spec.Groups) != len(groups) {
		t.Fatalf("%s: %d groups, %s %d", prometheusRuleFile, len(pr.Spec.Groups), rulesFile, len(groups))
	}
	for i, g := range groups {
		got := pr.Spec.Groups[i]
		if len(got.Rules) != len(g.Rules) {
			t.Errorf("%s: group %s: %d rules, %s %d", prometheusRuleFile, got.Name, len(got.Rules), rulesFile, len(g.Rules))
			continue
		}
		for j, r := range g.Rules {
			if !reflect.DeepEqual(got.Rules[j], r) {
				t.Errorf("%s: group %s, rule %d (%s): differs from %s's:\n%+v\n%+v", prometheusRuleFile, got.Name, j+1, got.Rules[j].Alert, rulesFile, got.Rules[j], r)
			}
		}
		got.Rules, g.Rules = nil, nil
		if !reflect.DeepEqual(got, g) {
			t.Errorf("%s: group %s differs from %s's: %+v, %+v", prometheusRuleFile, got.Name, rulesFile, got, g)
		}
	}
}

// jobSelector is a rule's selection of the relay's scrape.
var jobSelector = regexp.MustCompile(`job="([^"]*)"`)

// TestPodMonitorGivesTheRulesJob: the rules select job="joinit-relay";
// podmonitor.yaml's jobLabel names the pod's label whose value becomes the
// job, and the Deployment's pod must carry it with that value (without
// jobLabel the job would be <namespace>/<PodMonitor's name>, and the
// alerts would say the relay is absent).
func TestPodMonitorGivesTheRulesJob(t *testing.T) {
	rules, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	var jobs []string
	for _, g := range rulesFileGroups(t, rules) {
		for _, r := range g.Rules {
			for _, m := range jobSelector.FindAllStringSubmatch(r.Expr.String(), -1) {
				if !slices.Contains(jobs, m[1]) {
					jobs = append(jobs, m[1])
				}
			}
			if !strings.Contains(r.Expr.String(), "job=") {
				t.Errorf("%s: %s selects no job: it would read every target's series", rulesFile, r.Alert)
			}
		}
	}
	if len(jobs) != 1 {
		t.Fatalf("%s: the rules select the jobs %q; want one", rulesFile, jobs)
	}
	files := fileObjects(t)
	pm, where := only[*monitoringv1.PodMonitor](t, files, "PodMonitor")
	d, _ := only[*appsv1.Deployment](t, build(t), "Deployment")
	if pm.Spec.JobLabel == "" {
		t.Fatalf("%s: no jobLabel: the scrape's job would be <namespace>/%s, not %q, which the rules select", where, pm.Name, jobs[0])
	}
	if got := d.Spec.Template.Labels[pm.Spec.JobLabel]; got != jobs[0] {
		t.Errorf("%s: jobLabel %s: the pod's value is %q, the rules select job %q", where, pm.Spec.JobLabel, got, jobs[0])
	}
}
