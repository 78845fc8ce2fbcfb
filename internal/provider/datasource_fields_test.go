package provider

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The type filters keep the memberships whose membership_type and
// membership_name are in the sets, in memberships, records, ids and emails
// alike, whichever way the records are read.
func TestAccMemberships_typeAndNameFilters(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 12, Memberships: 260})
	all := rawRecords(sb.MembershipsJSON(nil))
	typeOf := func(r []byte) (typ, name string) {
		var m struct {
			Type string `json:"membership_type"`
			Name string `json:"membership_name"`
		}
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		return m.Type, m.Name
	}
	// Two types by id, and by name the name of the first of them and of
	// a third type: together they keep only the first type.
	var types, names []string
	for _, r := range all {
		typ, name := typeOf(r)
		if len(types) < 2 && (len(types) == 0 || types[0] != typ) {
			types, names = append(types, typ), append(names, name)
		}
		if len(types) == 2 && name != names[0] && name != names[1] && len(names) == 2 {
			names = append(names, name)
		}
	}
	if len(names) != 3 {
		t.Fatalf("the data set should hold three membership types, found %v", names)
	}
	var byType, byName, both [][]byte
	for _, r := range all {
		typ, name := typeOf(r)
		inTypes, inNames := typ == types[0] || typ == types[1], name == names[0] || name == names[2]
		if inTypes {
			byType = append(byType, r)
		}
		if inNames {
			byName = append(byName, r)
		}
		if inTypes && inNames {
			both = append(both, r)
		}
	}
	if len(both) == 0 || len(both) == len(byType) || len(byType) == len(all) || len(byName) == len(all) {
		t.Fatalf("the filters should each drop records: %d by type, %d by name, %d both, of %d", len(byType), len(byName), len(both), len(all))
	}
	idsEmails := func(recs [][]byte) (knownvalue.Check, knownvalue.Check) {
		ids, emails := wantIDsAndEmails(t, recs)
		return listOf(ids), listOf(emails)
	}
	typeIDs, typeEmails := idsEmails(byType)
	nameIDs, nameEmails := idsEmails(byName)
	bothIDs, bothEmails := idsEmails(both)
	bothRecords := make([]knownvalue.Check, len(both))
	for i, r := range both {
		w := wantMembership(t, r, false)
		bothRecords[i] = knownvalue.ObjectExact(map[string]knownvalue.Check{
			"email": orNull(w["email"]), "membership_name": knownvalue.StringExact(w["membership_name"].(string)),
		})
	}
	config := providerBlock(url) + `
data "joinit_memberships" "by_type" {
  membership_types = ["` + types[0] + `", "` + types[1] + `"]
  page_size        = 50
}
data "joinit_memberships" "by_name_lean" {
  membership_names = ["` + names[0] + `", "` + names[2] + `"]
  include_records  = false
}
data "joinit_memberships" "both_fields" {
  membership_types = ["` + types[0] + `", "` + types[1] + `"]
  membership_names = ["` + names[0] + `", "` + names[2] + `"]
  fields           = ["membership_name", "email"]
}
`
	at := func(name, attr string) (string, tfjsonpath.Path) {
		return "data.joinit_memberships." + name, tfjsonpath.New(attr)
	}
	check := func(name, attr string, want knownvalue.Check) statecheck.StateCheck {
		a, p := at(name, attr)
		return statecheck.ExpectKnownValue(a, p, want)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				check("by_type", "memberships", knownvalue.ListSizeExact(len(byType))),
				check("by_type", "ids", typeIDs),
				check("by_type", "emails", typeEmails),
				check("by_name_lean", "memberships", knownvalue.Null()),
				check("by_name_lean", "ids", nameIDs),
				check("by_name_lean", "emails", nameEmails),
				check("both_fields", "records", knownvalue.ListExact(bothRecords)),
				check("both_fields", "ids", bothIDs),
				check("both_fields", "emails", bothEmails),
				check("both_fields", "membership_names", knownvalue.SetExact([]knownvalue.Check{
					knownvalue.StringExact(names[0]), knownvalue.StringExact(names[2])})),
			},
		}},
	})
}

func listOf(values []any) knownvalue.Check {
	checks := make([]knownvalue.Check, len(values))
	for i, v := range values {
		checks[i] = orNull(v)
	}
	return knownvalue.ListExact(checks)
}

func orNull(v any) knownvalue.Check {
	if s, ok := v.(string); ok {
		return knownvalue.StringExact(s)
	}
	return knownvalue.Null()
}

// Bad fields are refused at validation, naming what is valid.
func TestAccFields_invalid(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 13, Memberships: 1})
	step := func(config, want string) resource.TestStep {
		return resource.TestStep{Config: providerBlock(url) + config, ExpectError: regexp.MustCompile(want)}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			step(`data "joinit_memberships" "x" { fields = ["email", "phone"] }`,
				`(?s)Invalid fields.*"phone" is not an attribute of a\s+membership.*Valid\s+names:.*id,.*email,.*membership_name,.*status_name,.*profile,.*custom_answers,.*raw_json\.`),
			step(`data "joinit_memberships" "x" { fields = ["emial"] }`, `(?s)"emial" is not an attribute of a\s+membership\.\s+Did\s+you\s+mean\s+"email"\?`),
			step(`data "joinit_payments" "x" { fields = ["total", "email"] }`, `(?s)"email" is not an attribute of a\s+payment.*Valid\s+names:.*membership_ids,.*currency,.*total`),
			step(`data "joinit_memberships" "x" { fields = ["email", "email"] }`, `(?s)Duplicate List Value.*duplicate values of: "email"`),
			step(`data "joinit_memberships" "x" { fields = [] }`, `(?s)fields.*at least 1`),
			step(`data "joinit_memberships" "x" {
  fields          = ["email"]
  include_records = false
}`, `(?s)Invalid fields.*include_records = false reads\s+none`),
		},
	})
}

// fields unknown at plan (from a resource not yet created): Terraform reads
// at apply, once the value is known, and records has the chosen attributes.
func TestAccFields_unknownAtPlan(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 14, Memberships: 12})
	first := wantMembership(t, sb.MembershipsJSON(nil)[0], false)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "terraform_data" "fields" {
  input = ["status_name", "id"]
}
data "joinit_memberships" "m" {
  fields = terraform_data.fields.output
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue("data.joinit_memberships.m", tfjsonpath.New("records")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("records"), knownvalue.ListSizeExact(12)),
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("records").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id": knownvalue.StringExact(first["id"].(string)), "status_name": knownvalue.StringExact(first["status_name"].(string)),
				})),
			},
		}},
	})
}

// fields unknown at plan next to include_records = false is not refused at
// validation: it may turn out null, and then the lean read is valid.
func TestAccFields_unknownAtPlanWithLeanRead(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 15, Memberships: 12})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "terraform_data" "fields" {
  input = { v = null }
}
data "joinit_memberships" "m" {
  include_records = false
  fields          = terraform_data.fields.output.v
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("ids"), knownvalue.ListSizeExact(12)),
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("records"), knownvalue.Null()),
			},
		}},
	})
}
