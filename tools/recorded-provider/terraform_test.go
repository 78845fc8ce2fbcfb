package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The stand-in on the real terraform (1.11), as a test elsewhere runs it:
// built as terraform-provider-fixture (with the fixture, by the
// recordedfixture tag), installed by dev_overrides, never by terraform
// init. Each case decides on what terraform reports (-json), not on time.

const fixtureAddress = "registry.terraform.io/joinit-test/fixture"

// fixtureMain uses every kind of thing the fixture's schema holds: a set
// of strings, a nested type, a list block with min_items, a data source's
// list of objects; and imports the resource.
const fixtureMain = `
terraform {
  required_providers {
    fixture = { source = "joinit-test/fixture" }
  }
}

data "fixture_users" "active" { query = "status:active" }
data "fixture_users" "admins" { query = "group:admins" }

import {
  to = fixture_group_members.members
  id = "g-1"
}

resource "fixture_group_members" "members" {
  group_id = "g-1"
  users    = toset([for u in data.fixture_users.active.users : u.id])
  settings = { limit = 10 }
  rule { name = "everyone" }
}

output "admin_emails" { value = [for u in data.fixture_users.admins.users : u.email] }
`

// fixtureMock mocks the fixture: override_data for one data source,
// mock_data for the other's, override_resource for the imported resource.
const fixtureMock = `
mock_provider "fixture" {
  mock_data "fixture_users" {
    defaults = { users = [{ id = "u-0", email = "admin@example.org", groups = ["admins"] }] }
  }
  override_data {
    target = data.fixture_users.active
    values = { users = [{ id = "u-1", email = "a@example.org", groups = [] }, { id = "u-2", email = "b@example.org", groups = [] }] }
  }
}
`

const fixtureOverride = `
override_resource {
  target = fixture_group_members.members
  values = { id = "g-1" }
}
`

const fixtureRun = `
run "plan" {
  command = plan
  assert {
    condition     = fixture_group_members.members.users == toset(["u-1", "u-2"])
    error_message = "the members are not the overridden data source's users"
  }
  assert {
    condition     = output.admin_emails == ["admin@example.org"]
    error_message = "the other data source is not mock_data's"
  }
}
`

func TestTerraformValidateAgainstRecordedSchema(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, edit, wantError string
	}{
		{"valid", "", ""},
		{"misspelt attribute", `group_id = "g-1"` + "\n  grup_id = \"g-1\"", `An argument named "grup_id" is not expected here.`},
		{"misspelt in a nested block", `rule { name = "everyone" }`, `An argument named "nme" is not expected here.`},
		{"a nested block too few", `rule { name = "everyone" }`, `At least 1 "rule" blocks are required.`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			main := fixtureMain
			switch c.name {
			case "misspelt attribute":
				main = strings.Replace(main, `group_id = "g-1"`, c.edit, 1)
			case "misspelt in a nested block":
				main = strings.Replace(main, c.edit, `rule { nme = "everyone" }`, 1)
			case "a nested block too few":
				main = strings.Replace(main, c.edit, "", 1)
			}
			tf := newTerraform(t, map[string]string{"main.tf": main})
			out, _ := tf.run(t, "validate", "-json")
			var v struct {
				Valid       bool                  `json:"valid"`
				Diagnostics []terraformDiagnostic `json:"diagnostics"`
			}
			if err := json.Unmarshal(out, &v); err != nil {
				t.Fatalf("terraform validate -json: %v\n%s", err, out)
			}
			errs := errorsOf(v.Diagnostics)
			if c.wantError == "" {
				if !v.Valid || len(errs) > 0 {
					t.Fatalf("valid %v, errors %s", v.Valid, errs)
				}
				return
			}
			if v.Valid || !strings.Contains(errs, c.wantError) {
				t.Fatalf("valid %v, errors %s; want an error %q", v.Valid, errs, c.wantError)
			}
		})
	}
}

// terraform test with mock_provider plans the fixture's configuration: the
// data sources from override_data and mock_data, the import from
// override_resource. Without override_resource, the import fails in
// Terraform's mock, showing that the plan did import.
func TestTerraformTestMocksRecordedSchema(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, tests, wantError string
	}{
		{"imported and overridden", fixtureMock + fixtureOverride + fixtureRun, ""},
		{"imported, not overridden", fixtureMock + fixtureRun, "Invalid import request"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tf := newTerraform(t, map[string]string{"main.tf": fixtureMain, "tests/mock.tftest.hcl": c.tests})
			out, _ := tf.run(t, "test", "-json")
			summary, diags := testEvents(t, out)
			errs := errorsOf(diags)
			if c.wantError == "" {
				if summary.Status != "pass" || summary.Passed != 1 || errs != "" {
					t.Fatalf("summary %+v, errors %s\n%s", summary, errs, out)
				}
				return
			}
			if summary.Status == "pass" || !strings.Contains(errs, c.wantError) {
				t.Fatalf("summary %+v, errors %s; want an error %q", summary, errs, c.wantError)
			}
		})
	}
}

// Unmocked, the stand-in refuses to be configured: a plan fails, saying
// what it is, before any read.
func TestTerraformPlanIsRefused(t *testing.T) {
	t.Parallel()
	tf := newTerraform(t, map[string]string{"main.tf": fixtureMain})
	out, err := tf.run(t, "plan", "-json", "-input=false")
	_, diags := testEvents(t, out)
	if errs := errorsOf(diags); err == nil || !strings.Contains(errs, "A stand-in provider: it serves only a schema") || !strings.Contains(errs, "ConfigureProvider") {
		t.Fatalf("terraform plan: %v, errors %s\n%s", err, errs, out)
	}
}

// terraformDiagnostic is a diagnostic in terraform's JSON output.
type terraformDiagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
}

// errorsOf is the error diagnostics, one a line, for matching and for a
// failure's message.
func errorsOf(diags []terraformDiagnostic) string {
	var b strings.Builder
	for _, d := range diags {
		if d.Severity == "error" {
			fmt.Fprintf(&b, "%s: %s\n", d.Summary, d.Detail)
		}
	}
	return b.String()
}

type testSummary struct {
	Status string `json:"status"`
	Passed int    `json:"passed"`
}

// testEvents reads the machine-readable lines of terraform test or plan
// -json: the test summary and every diagnostic.
func testEvents(t *testing.T, out []byte) (testSummary, []terraformDiagnostic) {
	t.Helper()
	summary := testSummary{Status: "no summary"}
	var diags []terraformDiagnostic
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Type       string              `json:"type"`
			Summary    testSummary         `json:"test_summary"`
			Diagnostic terraformDiagnostic `json:"diagnostic"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil {
			continue
		}
		switch line.Type {
		case "test_summary":
			summary = line.Summary
		case "diagnostic":
			diags = append(diags, line.Diagnostic)
		}
	}
	return summary, diags
}

// terraform is a working directory for the terraform on PATH (or
// TF_ACC_TERRAFORM_PATH), with the fixture stand-in installed by
// dev_overrides and nothing else to install.
type terraform struct {
	bin, dir string
	env      []string
}

func newTerraform(t *testing.T, files map[string]string) *terraform {
	t.Helper()
	if testing.Short() {
		t.Skip("runs terraform")
	}
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("terraform"); err != nil {
			t.Skip("no terraform: put it on PATH or set TF_ACC_TERRAFORM_PATH")
		}
	}
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rc := filepath.Join(t.TempDir(), "dev.tfrc")
	config := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", fixtureAddress, fixtureBinaryDir(t))
	if err := os.WriteFile(rc, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "CHECKPOINT_") {
			env = append(env, kv)
		}
	}
	env = append(env, "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")
	return &terraform{bin: bin, dir: dir, env: env}
}

// run runs terraform with args and returns its standard output; a failure
// to start is fatal, an exit status is the caller's to judge.
func (tf *terraform) run(t *testing.T, args ...string) ([]byte, error) {
	t.Helper()
	// A bound on a hung terraform only: no case waits for anything.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, tf.bin, args...)
	cmd.Dir, cmd.Env = tf.dir, tf.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if _, exited := err.(*exec.ExitError); err != nil && !exited {
		t.Fatalf("terraform %s: %v", strings.Join(args, " "), err)
	}
	if stderr.Len() > 0 {
		t.Logf("terraform %s, stderr:\n%s", strings.Join(args, " "), stderr.Bytes())
	}
	return stdout.Bytes(), err
}

var fixtureBuild struct {
	once sync.Once
	dir  string
	err  error
}

// fixtureBinaryDir builds the stand-in with the fixture once per test
// binary, named for it, into a directory for dev_overrides.
func fixtureBinaryDir(t *testing.T) string {
	t.Helper()
	fixtureBuild.once.Do(func() {
		dir, err := os.MkdirTemp("", "recorded-provider-")
		if err != nil {
			fixtureBuild.err = err
			return
		}
		fixtureBuild.dir = dir
		out, err := exec.Command("go", "build", "-tags", "recordedfixture", "-o", filepath.Join(dir, "terraform-provider-fixture"), ".").CombinedOutput()
		if err != nil {
			fixtureBuild.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if fixtureBuild.err != nil {
		t.Fatal(fixtureBuild.err)
	}
	return fixtureBuild.dir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fixtureBuild.dir != "" {
		os.RemoveAll(fixtureBuild.dir)
	}
	os.Exit(code)
}
