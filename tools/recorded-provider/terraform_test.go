package main

import (
	"encoding/json"
	"strings"
	"testing"
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

// terraform validate checks a configuration against the recorded schema:
// each case edits the valid configuration (old to new) and names the
// error it must give.
func TestTerraformValidateAgainstRecordedSchema(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, old, new, wantError string
	}{
		{"valid", "", "", ""},
		{"misspelt attribute", `group_id = "g-1"`, `grup_id = "g-1"`, `An argument named "grup_id" is not expected here.`},
		{"misspelt in a nested block", `rule { name = `, `rule { nme = `, `An argument named "nme" is not expected here.`},
		{"a nested block too few", `rule { name = "everyone" }`, "", `At least 1 "rule" blocks are required.`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			main := strings.Replace(fixtureMain, c.old, c.new, 1)
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
