package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The recipes of examples/recipes are whole configurations for another
// provider each (Okta, Entra ID, Google Workspace, Slack), which the module
// proxy does not serve. Their schemas are recorded from the real providers
// (tools/recorded-provider/schemas, scripts/record-schema.sh) and served by
// a stand-in, so Terraform validates and mocks them on their real
// interfaces, offline.

// recipe is one directory of examples/recipes and the downstream provider
// it pins.
type recipe struct {
	dir      string // under examples/recipes
	provider string // the recorded schema's name: tools/recorded-provider/schemas/NAME.json
}

var recipes = []recipe{
	{"okta", "okta"},
	{"entra-id", "azuread"},
	{"google-workspace", "googleworkspace"},
	{"slack", "slack"},
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

// standInOverrides returns the dev_overrides that serve the recorded
// schema of r's provider under its registry addresses: a directory of the
// test's own holding the stand-in under the name that picks the schema.
func standInOverrides(t *testing.T, r recipe) map[string]string {
	t.Helper()
	bin := filepath.Join(recordedProvider.providerDir(t), "terraform-provider-recorded")
	dir := t.TempDir()
	if err := os.Symlink(bin, filepath.Join(dir, "terraform-provider-"+r.provider)); err != nil {
		t.Fatal(err)
	}
	_, address, _ := strings.Cut(readRecordedSchema(t, r.provider).Address, "/")
	return map[string]string{"registry.terraform.io/" + address: dir, "registry.opentofu.org/" + address: dir}
}

// A recipe pins exactly the version whose schema is recorded: a moved pin
// needs the schema recorded again (scripts/record-schema.sh).
func TestRecipesPinTheRecordedVersion(t *testing.T) {
	t.Parallel()
	for _, r := range recipes {
		s := readRecordedSchema(t, r.provider)
		b, err := os.ReadFile(filepath.Join("..", "..", "examples", "recipes", r.dir, "main.tf"))
		if err != nil {
			t.Fatal(err)
		}
		_, address, _ := strings.Cut(s.Address, "/")
		// The provider's entry of required_providers: its source, then
		// its version (possibly after comment lines).
		entry := regexp.MustCompile(`(?is)source\s*=\s*"` + regexp.QuoteMeta(address) + `"\s*(?:#[^\n]*\n\s*)*version\s*=\s*"([^"]*)"`).FindSubmatch(b)
		switch {
		case entry == nil:
			t.Errorf("examples/recipes/%s/main.tf: no required_providers entry with source %q and a version after it", r.dir, address)
		case string(entry[1]) != s.Version:
			t.Errorf("examples/recipes/%s/main.tf pins %s at %q, but its recorded schema is of %s: record it again (scripts/record-schema.sh)", r.dir, address, entry[1], s.Version)
		}
	}
}

// Each recipe, and its test files, are valid on the real terraform with
// this provider and the downstream provider's recorded schema: a misspelt
// attribute of either fails here, named.
func TestAccRecipes_validate(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	for _, r := range recipes {
		t.Run(r.dir, func(t *testing.T) {
			t.Parallel()
			tf := newCLITerraformWith(t, copyExample(t, "recipes/"+r.dir), nil, standInOverrides(t, r))
			v, err := tf.Validate(context.Background())
			if err != nil {
				t.Fatalf("examples/recipes/%s: terraform validate: %v\n%s", r.dir, err, tf.output())
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
				t.Errorf("examples/recipes/%s: terraform validate: %s: %s: %s%s", r.dir, d.Severity, d.Summary, d.Detail, at)
			}
			if !v.Valid {
				t.Errorf("examples/recipes/%s: terraform validate: not valid", r.dir)
			}
		})
	}
}

// Each recipe's own tests pass under terraform test: tests/ with both
// providers mocked (the base URL a closed port, no token: a read that
// escaped the mock would fail), sandbox-tests/ with this provider reading a
// sandbox as the recipe reads it and the downstream mocked.
func TestAccRecipes_tests(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	for _, r := range recipes {
		for _, tests := range []string{"tests", "sandbox-tests"} {
			t.Run(r.dir+"/"+tests, func(t *testing.T) {
				t.Parallel()
				env := map[string]string{envBaseURL: "http://127.0.0.1:9", envAccessToken: ""}
				organization := ""
				if tests == "sandbox-tests" {
					s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 68, Memberships: 60})
					env = map[string]string{envBaseURL: url, envAccessToken: sandbox.DefaultToken}
					organization = s.OrganizationID()
				}
				out, summary, err := runRecipeTests(t, r, tests, env, organization)
				want := runBlocks(t, filepath.Join("..", "..", "examples", "recipes", r.dir, tests))
				if err != nil || summary.Status != "pass" || summary.Passed != want {
					t.Fatalf("examples/recipes/%s/%s: terraform test: %v; %+v, want %d runs passed; failed: %s\n%s", r.dir, tests, err, summary, want, strings.Join(failedRuns(out), "; "), out)
				}
			})
		}
	}
}

// The organization guard: a recipe configured for another organization
// than the token reads stops at the Join It read, naming both.
func TestAccRecipes_organizationGuard(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	for _, r := range recipes {
		t.Run(r.dir, func(t *testing.T) {
			t.Parallel()
			s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 68, Memberships: 60})
			const configured = "5f1b0c0ffee0000000000042"
			env := map[string]string{envBaseURL: url, envAccessToken: sandbox.DefaultToken}
			out, summary, _ := runRecipeTests(t, r, "sandbox-tests", env, configured)
			if summary.Passed != 0 || summary.Status == "pass" {
				t.Fatalf("examples/recipes/%s: a run passed reading another organization: %+v\n%s", r.dir, summary, out)
			}
			guard := regexp.MustCompile(`belongs to organization "` + regexp.QuoteMeta(s.OrganizationID()) + `", not to "` + configured + `"`)
			if !slices.ContainsFunc(testDiagnostics(out), guard.MatchString) {
				t.Fatalf("examples/recipes/%s: the plan did not stop on the organization guard naming both organizations:\n%s", r.dir, out)
			}
		})
	}
}

// runRecipeTests runs terraform test on a copy of the recipe with the
// files of its directory tests, and returns what terraform printed. A
// non-empty organization is the recipe's joinit_organization_id, given as
// a user gives it: in terraform.tfvars (terraform-exec refuses TF_VAR_).
func runRecipeTests(t *testing.T, r recipe, tests string, env map[string]string, organization string) (string, terraformTestSummary, error) {
	t.Helper()
	dir := copyExample(t, "recipes/"+r.dir)
	if organization != "" {
		writeFile(t, filepath.Join(dir, "terraform.tfvars"), fmt.Sprintf("joinit_organization_id = %q\n", organization))
	}
	useTestsDir(t, dir, tests)
	tf := newCLITerraformWith(t, dir, env, standInOverrides(t, r))
	var out bytes.Buffer
	err := tf.Test(context.Background(), &out)
	return out.String() + tf.output(), testSummary(t, out.Bytes()), err
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
// one address are one address to Slack's min_members, and the message
// says 1, not 3.
func TestAccRecipes_slackMinMembersMessage(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	r := recipe{"slack", "slack"}
	dir := copyExample(t, "recipes/slack")
	// One run, expected to fail: the message is the test's finding.
	writeFile(t, filepath.Join(dir, "tests", "slack.tftest.hcl"), `
mock_provider "joinit" {}
mock_provider "slack" {}

run "three_spellings_of_one_address" {
  command = plan
  variables {
    usergroup_id           = "S0123ABCD"
    joinit_organization_id = "5f1b0c0ffee0000000000001"
    min_members            = 2
  }
  override_data {
    target = data.joinit_memberships.active
    values = { ids = ["m1", "m2", "m3"], emails = ["ada@x.org", "Ada@x.org", " ADA@x.org"] }
  }
}
`)
	tf := newCLITerraformWith(t, dir, map[string]string{envBaseURL: "http://127.0.0.1:9", envAccessToken: ""}, standInOverrides(t, r))
	var out bytes.Buffer
	_ = tf.Test(context.Background(), &out)
	want := "Join It returned 1 distinct addresses, fewer than min_members (2)"
	if !slices.ContainsFunc(testDiagnostics(out.String()), func(d string) bool { return strings.Contains(d, want) }) {
		t.Fatalf("examples/recipes/slack: the min_members guard did not say %q:\n%s", want, out.String())
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
