package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The sync modules of examples/modules: member-sync, the guarded core, and
// one module per downstream system on it. Each is tested by its own
// terraform test directories on the real terraform, with the downstream
// provider on its real schema: built from the module proxy where it is
// served (GitHub, OpenStack), else recorded from the real provider
// (tools/recorded-provider/schemas, scripts/record-schema.sh) and served by
// a stand-in, so Terraform validates and mocks it offline.

// modulesSource is how a root configuration of examples/use-cases calls a
// module, as a user copies it; the tests read it from a copy of examples/.
const modulesSource = "github.com/joinit-community/terraform-provider-joinit//examples/modules/"

// downstreams are the providers the modules keep groups in, by registry
// address (lower case, as Terraform compares them): a stand-in serving a
// recorded schema (its file's name), or a provider built from its tools
// module.
var downstreams = map[string]struct {
	recorded string
	built    *toolProvider
}{
	"okta/okta":                              {recorded: "okta"},
	"hashicorp/azuread":                      {recorded: "azuread"},
	"samuzad/googleworkspace":                {recorded: "googleworkspace"},
	"pablovarela/slack":                      {recorded: "slack"},
	"integrations/github":                    {built: gitHubProvider},
	"terraform-provider-openstack/openstack": {built: openStackProvider},
}

// recordedSchema is what the tests read of a recorded schema's file.
type recordedSchema struct {
	Address string `json:"address"` // registry.terraform.io/okta/okta
	Version string `json:"version"`
}

func readRecordedSchema(t *testing.T, name string) recordedSchema {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "tools", "recorded-provider", "schemas", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var s recordedSchema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("schemas/%s.json: %v", name, err)
	}
	return s
}

// recordedProvider is the stand-in, built once per test binary.
var recordedProvider = &toolProvider{name: "recorded-provider", pkg: "."}

// requiredProviders are the required_providers entries of the .tf files in
// dir: address (lower case) to version constraint.
func requiredProviders(t *testing.T, dir string) map[string]string {
	t.Helper()
	entry := regexp.MustCompile(`(?s)source\s*=\s*"([^"]+)"\s*(?:#[^\n]*\n\s*)*version\s*=\s*"([^"]*)"`)
	files, _ := filepath.Glob(filepath.Join(dir, "*.tf"))
	found := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range entry.FindAllSubmatch(b, -1) {
			found[strings.ToLower(string(m[1]))] = string(m[2])
		}
	}
	return found
}

// downstreamOverrides returns the dev_overrides that serve the downstream
// providers a configuration of dir requires: the built provider, or a
// directory of the test's own holding the stand-in under the name that
// picks the recorded schema.
func downstreamOverrides(t *testing.T, dir string) map[string]string {
	t.Helper()
	overrides := map[string]string{}
	for address := range requiredProviders(t, dir) {
		if strings.HasSuffix(address, "joinit-community/joinit") { // examples/demo names the registry
			continue
		}
		d, ok := downstreams[address]
		if !ok {
			t.Fatalf("%s requires %s, which no test serves: add it to downstreams", dir, address)
		}
		bin := ""
		if d.built != nil {
			bin = d.built.providerDir(t)
		} else {
			bin = t.TempDir()
			standIn := filepath.Join(recordedProvider.providerDir(t), "terraform-provider-recorded")
			if err := os.Symlink(standIn, filepath.Join(bin, "terraform-provider-"+d.recorded)); err != nil {
				t.Fatal(err)
			}
		}
		overrides["registry.terraform.io/"+address] = bin
		overrides["registry.opentofu.org/"+address] = bin
	}
	return overrides
}

// copyExamples copies examples/ to a directory of the test's own, with each
// root configuration's module source (as a user copies it) made the local
// path of the module beside it, and returns the copy's path.
func copyExamples(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, p := range []string{"modules", "use-cases"} {
		if err := os.CopyFS(filepath.Join(dir, p), os.DirFS(filepath.Join("..", "..", "examples", p))); err != nil {
			t.Fatal(err)
		}
	}
	roots, _ := filepath.Glob(filepath.Join(dir, "use-cases", "*", "*.tf"))
	source := regexp.MustCompile(`"` + regexp.QuoteMeta(modulesSource) + `([a-z0-9-]+)\?ref=[^"]+"`)
	for _, f := range roots {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, f, string(source.ReplaceAll(b, []byte(`"../../modules/$1"`))))
	}
	return dir
}

// moduleNames are the directories of examples/modules.
func moduleNames(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join("..", "..", "examples", "modules"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	return names
}

// Each module's own tests pass under terraform test, every run of them:
// tests/ with the providers mocked (the base URL a closed port, no token:
// a read that escaped the mock would fail), sandbox-tests/ against a
// sandbox, email-change-tests/ against sandboxes before and after a member
// changes their address (startEmailChange). A downstream module's
// guard-tests/ are TestAccModules_guardTests.
func TestAccModules_tests(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	for _, name := range moduleNames(t) {
		for _, tests := range []string{"tests", "sandbox-tests", "email-change-tests"} {
			if _, err := os.Stat(filepath.Join("..", "..", "examples", "modules", name, tests)); err != nil {
				continue
			}
			t.Run(name+"/"+tests, func(t *testing.T) {
				t.Parallel()
				env := map[string]string{envBaseURL: "http://127.0.0.1:9", envAccessToken: ""}
				var tfvars string
				switch tests {
				case "sandbox-tests":
					s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 63, Memberships: 60})
					env = map[string]string{envBaseURL: url, envAccessToken: sandbox.DefaultToken, envOrganization: s.OrganizationID()}
				case "email-change-tests":
					var s *sandbox.Server
					var url string
					s, url, tfvars = startEmailChange(t)
					env = map[string]string{envBaseURL: url, envAccessToken: sandbox.DefaultToken, envOrganization: s.OrganizationID()}
				}
				out, summary, want, err := runModuleTests(t, name, tests, env, tfvars)
				if err != nil || summary.Status != "pass" || summary.Passed != want {
					t.Fatalf("examples/modules/%s/%s: terraform test: %v; %+v, want %d runs passed; failed: %s\n%s", name, tests, err, summary, want, strings.Join(failedRuns(out), "; "), out)
				}
			})
		}
	}
}

// runModuleTests runs terraform test on a copy of the module with the
// files of its directory tests (and tfvars beside them), and returns what
// terraform printed, its summary and the run blocks it should pass.
func runModuleTests(t *testing.T, name, tests string, env map[string]string, tfvars string) (string, terraformTestSummary, int, error) {
	t.Helper()
	dir := filepath.Join(copyExamples(t), "modules", name)
	useTestsDir(t, dir, tests)
	if tfvars != "" {
		writeFile(t, filepath.Join(dir, "tests", "terraform.tfvars"), tfvars)
	}
	want := runBlocks(t, filepath.Join(dir, "tests"))
	tf := newCLITerraformWith(t, dir, env, downstreamOverrides(t, dir))
	// terraform test installs no module: member-sync, beside it, is one.
	if err := tf.Get(context.Background()); err != nil {
		return tf.output(), terraformTestSummary{Status: "no summary"}, want, fmt.Errorf("terraform get: %w", err)
	}
	var out bytes.Buffer
	err := tf.Test(context.Background(), &out)
	return out.String() + tf.output(), testSummary(t, out.Bytes()), want, err
}

// guardStops are the files of a downstream module's guard-tests/ and what
// member-sync says when the guard each names stops the plan.
var guardStops = map[string]string{
	"min-members.tftest.hcl":  "fewer than min_members",
	"max-removals.tftest.hcl": "more than max_removals allows",
	"organization.tftest.hcl": "of another organization than",
}

// A downstream module hands member-sync its guard settings, its current
// members and what its lookups found: each file of its guard-tests/ holds
// one run that the guard the file names must stop, with member-sync's
// message, so a guard weakened in member-sync, or a setting the module
// does not pass on, fails here, named. (expect_failures names only the
// root module's objects, and member-sync is a child of the module.)
func TestAccModules_guardTests(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	for _, name := range moduleNames(t) {
		if name == "member-sync" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			guards := filepath.Join("..", "..", "examples", "modules", name, "guard-tests")
			for file := range guardStops {
				if _, err := os.Stat(filepath.Join(guards, file)); err != nil {
					t.Errorf("examples/modules/%s/guard-tests/%s: missing: each downstream module shows each of member-sync's guards stopping its plan", name, file)
				}
			}
			if t.Failed() {
				return
			}
			env := map[string]string{envBaseURL: "http://127.0.0.1:9", envAccessToken: ""}
			out, _, want, err := runModuleTests(t, name, "guard-tests", env, "")
			if err == nil && want > 0 && !strings.Contains(out, `"@testrun"`) {
				t.Fatalf("examples/modules/%s/guard-tests: terraform test ran nothing\n%s", name, out)
			}
			stopped := guardRuns(out)
			if len(stopped) != want {
				t.Errorf("examples/modules/%s/guard-tests: %d runs reported, want %d (one a file)\n%s", name, len(stopped), want, out)
			}
			for file, r := range stopped {
				wantSaid, ok := guardStops[file]
				switch {
				case !ok:
					t.Errorf("examples/modules/%s/guard-tests/%s: not a guard's file (%v)", name, file, slices.Sorted(maps.Keys(guardStops)))
				case r.status == "pass":
					t.Errorf("examples/modules/%s/guard-tests/%s: run %q passed: member-sync's guard did not stop the plan (weakened, or the module does not pass its setting on)", name, file, r.run)
				case !slices.ContainsFunc(r.said, func(d string) bool { return strings.Contains(d, wantSaid) }):
					t.Errorf("examples/modules/%s/guard-tests/%s: run %q stopped, but not saying %q: %q", name, file, r.run, wantSaid, r.said)
				}
			}
		})
	}
}

// guardRun is one run of terraform test -json: its status and what its
// diagnostics said.
type guardRun struct {
	run, status string
	said        []string
}

// guardRuns reads terraform test -json's lines into the runs of each file.
func guardRuns(out string) map[string]*guardRun {
	runs := map[string]*guardRun{}
	for _, line := range strings.Split(out, "\n") {
		var l struct {
			File       string                            `json:"@testfile"`
			Run        string                            `json:"@testrun"`
			Diagnostic struct{ Summary, Detail string }  `json:"diagnostic"`
			TestRun    struct{ Progress, Status string } `json:"test_run"`
		}
		if json.Unmarshal([]byte(line), &l) != nil || l.Run == "" {
			continue
		}
		file := filepath.Base(l.File)
		r := runs[file]
		if r == nil {
			r = &guardRun{run: l.Run}
			runs[file] = r
		}
		if l.TestRun.Progress == "complete" {
			r.status = l.TestRun.Status
		}
		if l.Diagnostic.Detail != "" {
			r.said = append(r.said, l.Diagnostic.Detail)
		}
	}
	return runs
}

// Each root configuration of examples/use-cases, the module calls a user
// copies, is valid on the real terraform with the downstream providers'
// real schemas: a misspelt input of a module or attribute of a provider
// fails here, named.
func TestAccExample_useCasesValidate(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	entries, err := os.ReadDir(filepath.Join("..", "..", "examples", "use-cases"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(copyExamples(t), "use-cases", e.Name())
			tf := newCLITerraformWith(t, dir, nil, downstreamOverrides(t, dir))
			ctx := context.Background()
			if err := tf.Get(ctx); err != nil {
				t.Fatalf("terraform get: %v\n%s", err, tf.output())
			}
			v, err := tf.Validate(ctx)
			if err != nil {
				t.Fatalf("terraform validate: %v\n%s", err, tf.output())
			}
			for _, d := range v.Diagnostics {
				// The overrides' own warning, which every run of this harness has.
				if d.Summary == "Provider development overrides are in effect" {
					continue
				}
				at := ""
				if d.Range != nil {
					at = fmt.Sprintf(" (%s:%d)", d.Range.Filename, d.Range.Start.Line)
				}
				t.Errorf("examples/use-cases/%s: terraform validate: %s: %s: %s%s", e.Name(), d.Severity, d.Summary, d.Detail, at)
			}
			if !v.Valid {
				t.Errorf("examples/use-cases/%s: terraform validate: not valid", e.Name())
			}
		})
	}
}

// Every configuration that requires a recorded provider allows the version
// whose schema is recorded, and no other major version: a moved
// constraint needs the schema recorded again (scripts/record-schema.sh).
func TestModulesAllowTheRecordedVersion(t *testing.T) {
	t.Parallel()
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "examples", "*", "*"))
	for _, dir := range dirs {
		for address, constraint := range requiredProviders(t, dir) {
			d, ok := downstreams[address]
			if !ok || d.recorded == "" {
				continue
			}
			recorded := readRecordedSchema(t, d.recorded).Version
			if !allows(constraint, recorded) {
				t.Errorf("%s requires %s at %q, which does not allow %s, the version its schema is recorded at: record it again (scripts/record-schema.sh) or keep the constraint", dir, address, constraint, recorded)
			}
		}
	}
}

// allows reports whether constraint, an exact version or "~> X.Y", allows
// version X.Y.Z; any other form allows nothing, so that it is looked at.
func allows(constraint, version string) bool {
	if constraint == version {
		return true
	}
	want, ok := strings.CutPrefix(constraint, "~> ")
	if !ok {
		return false
	}
	w, v := strings.Split(want, "."), strings.Split(version, ".")
	if len(w) != 2 || len(v) != 3 || w[0] != v[0] {
		return false
	}
	wm, err1 := strconv.Atoi(w[1])
	vm, err2 := strconv.Atoi(v[1])
	return err1 == nil && err2 == nil && vm >= wm
}

func TestAllows(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		constraint, version string
		want                bool
	}{
		{"6.12.0", "6.12.0", true},
		{"~> 6.12", "6.12.0", true},
		{"~> 6.10", "6.12.0", true},
		{"~> 6.13", "6.12.0", false},
		{"~> 5.0", "6.12.0", false},
		{">= 6.0", "6.12.0", false},
		{"6.11.0", "6.12.0", false},
	} {
		if got := allows(c.constraint, c.version); got != c.want {
			t.Errorf("allows(%q, %q) = %v, want %v", c.constraint, c.version, got, c.want)
		}
	}
}

// testDiagnostics are the details of the diagnostics in the JSON lines of
// terraform test -json.
func testDiagnostics(out string) []string {
	var details []string
	for _, line := range strings.Split(out, "\n") {
		var d struct {
			Diagnostic struct{ Detail string } `json:"diagnostic"`
		}
		if json.Unmarshal([]byte(line), &d) == nil && d.Diagnostic.Detail != "" {
			details = append(details, d.Diagnostic.Detail)
		}
	}
	return details
}

// A guard's message counts what its condition counts: three spellings of
// one address are one member to min_members, and the message says 1, not 3.
func TestAccModules_minMembersMessage(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	dir := filepath.Join(copyExamples(t), "modules", "member-sync")
	// One run, expected to fail: the message is the test's finding.
	writeFile(t, filepath.Join(dir, "tests", "guards.tftest.hcl"), `
mock_provider "joinit" {}

run "three_spellings_of_one_address" {
  command = plan
  variables {
    current_members = []
    min_members     = 2
  }
  override_data {
    target = data.joinit_memberships.this
    values = { records = [
      { id = "m1", email = "ada@x.org", organization_id = "o" },
      { id = "m2", email = "Ada@x.org", organization_id = "o" },
      { id = "m3", email = " ADA@x.org", organization_id = "o" },
    ] }
  }
}
`)
	tf := newCLITerraformWith(t, dir, map[string]string{envBaseURL: "http://127.0.0.1:9", envAccessToken: ""}, nil)
	var out bytes.Buffer
	_ = tf.Test(context.Background(), &out)
	want := "The group would hold 1 members (from 3 memberships read, 1 distinct addresses), fewer than min_members (2)"
	if !slices.ContainsFunc(testDiagnostics(out.String()), func(d string) bool { return strings.Contains(d, want) }) {
		t.Fatalf("examples/modules/member-sync: the min_members guard did not say %q:\n%s", want, out.String())
	}
}

// failedRuns names the runs that did not pass in terraform test -json's
// lines, each with what its diagnostics said.
func failedRuns(out string) []string {
	var failed []string
	for _, line := range strings.Split(out, "\n") {
		var l struct {
			Run        string                            `json:"@testrun"`
			Diagnostic struct{ Summary, Detail string }  `json:"diagnostic"`
			TestRun    struct{ Progress, Status string } `json:"test_run"`
		}
		switch {
		case json.Unmarshal([]byte(line), &l) != nil:
		case l.TestRun.Progress == "complete" && l.TestRun.Status != "pass":
			failed = append(failed, fmt.Sprintf("run %q: %s", l.Run, l.TestRun.Status))
		case l.Diagnostic.Summary != "" && l.Run != "":
			failed = append(failed, fmt.Sprintf("run %q: %s: %s", l.Run, l.Diagnostic.Summary, l.Diagnostic.Detail))
		}
	}
	return failed
}

// Two syncs in one configuration read Join It once: the Slack and the
// Google module each call member-sync with the same selection, and the
// provider shares identical reads within a run, so the sandbox is asked
// for the first page of memberships once.
func TestAccExample_twoSyncsReadJoinItOnce(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 73, Memberships: 60})
	dir := filepath.Join(copyExamples(t), "use-cases", "slack-and-google")
	useTestsDir(t, dir, "sandbox-tests")
	writeFile(t, filepath.Join(dir, "terraform.tfvars"), fmt.Sprintf("joinit_organization_id = %q\n", s.OrganizationID()))
	want := runBlocks(t, filepath.Join(dir, "tests"))
	tf := newCLITerraformWith(t, dir, map[string]string{envBaseURL: url, envAccessToken: sandbox.DefaultToken}, downstreamOverrides(t, dir))
	ctx := context.Background()
	if err := tf.Get(ctx); err != nil {
		t.Fatalf("terraform get: %v\n%s", err, tf.output())
	}
	var out bytes.Buffer
	err := tf.Test(ctx, &out)
	if summary := testSummary(t, out.Bytes()); err != nil || summary.Status != "pass" || summary.Passed != want {
		t.Fatalf("terraform test: %v; %+v, want %d runs passed; failed: %s\n%s", err, summary, want, strings.Join(failedRuns(out.String()), "; "), out.String())
	}
	var firstPages []string
	for _, r := range s.RequestLog() {
		if r.Endpoint == sandbox.EndpointMemberships && r.Query.Get("page") == "1" {
			firstPages = append(firstPages, r.Query.Encode())
		}
	}
	if len(firstPages) != 1 {
		t.Fatalf("the memberships' first page was asked %d times (%q): want one read for the two syncs", len(firstPages), firstPages)
	}
}
