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

func TestAccMemberships_allPages(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 1, Memberships: 234})
	all := sb.MembershipsJSON(nil)
	var first struct {
		ID    string  `json:"_id"`
		Email *string `json:"email"`
	}
	if err := json.Unmarshal(all[0], &first); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_memberships" "all" {
  page_size = 50
}
output "first_extra" {
  value = data.joinit_memberships.all.memberships[0].raw_json
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("memberships"), knownvalue.ListSizeExact(len(all))),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(len(all))),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("memberships").AtSliceIndex(0).AtMapKey("id"), knownvalue.StringExact(first.ID)),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("page_size"), knownvalue.Int64Exact(50)),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("include_records"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("memberships").AtSliceIndex(0).AtMapKey("raw_json"), knownvalue.Null()),
			},
		}},
	})
	// The list's size shows every record arrived; this shows they came as
	// page_size asked, 50 a page: pages 1 to 5 (the fifth short), each
	// requested with count=50. A read that ignored page_size would fetch
	// the same records as 1000 a page.
	pages := map[string]bool{}
	for _, rec := range sb.RequestLog() {
		if rec.Endpoint != sandbox.EndpointMemberships {
			continue
		}
		if got := rec.Query.Get("count"); got != "50" {
			t.Errorf("page %s was requested with count=%q, want 50", rec.Query.Get("page"), got)
		}
		pages[rec.Query.Get("page")] = true
	}
	for _, p := range []string{"1", "2", "3", "4", "5"} {
		if !pages[p] {
			t.Errorf("page %s was never requested (requested: %v)", p, pages)
		}
	}
}

func TestAccMemberships_statusFilterAndNames(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 2, Memberships: 300})
	active := 100
	want := len(sb.MembershipsJSON(&active))
	if want == 0 {
		t.Fatal("the sandbox data set should hold active memberships")
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_memberships" "active" {
  status = 100
}
data "joinit_memberships" "all" {}
output "active_names" {
  value = distinct([for m in data.joinit_memberships.active.memberships : m.status_name])
}
output "all_names" {
  value = sort(distinct([for m in data.joinit_memberships.all.memberships : m.status_name]))
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.active", tfjsonpath.New("memberships"), knownvalue.ListSizeExact(want)),
				statecheck.ExpectKnownOutputValue("active_names", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("active")})),
				statecheck.ExpectKnownOutputValue("all_names", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("active"), knownvalue.StringExact("cancelled"), knownvalue.StringExact("expired"),
					knownvalue.StringExact("pending"), knownvalue.StringExact("prospective"), knownvalue.StringExact("unknown"),
				})),
			},
		}},
	})
	for _, rec := range sb.RequestLog() {
		if rec.Endpoint == "memberships" && rec.Query.Get("status") != "" && rec.Query.Get("status") != "100" {
			t.Errorf("a filtered page was requested with status=%q", rec.Query.Get("status"))
		}
	}
}

func TestAccMemberships_rawJSONEmailsAndLeanRead(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 3, Memberships: 300})
	emails := map[string]bool{}
	for _, r := range sb.MembershipsJSON(nil) {
		var m struct{ Email *string }
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		if m.Email != nil {
			emails[*m.Email] = true
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_memberships" "raw" {
  include_raw_json = true
}
data "joinit_memberships" "lean" {
  include_records = false
}
output "extra_note" {
  value = jsondecode(data.joinit_memberships.raw.memberships[0].raw_json).x_sandbox_extra.note
}
output "emails_sorted" {
  value = data.joinit_memberships.lean.emails == sort(data.joinit_memberships.lean.emails)
}
output "ids_match" {
  value = data.joinit_memberships.lean.ids == data.joinit_memberships.raw.memberships[*].id
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("extra_note", knownvalue.StringExact("unknown field")),
				statecheck.ExpectKnownOutputValue("emails_sorted", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("ids_match", knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.joinit_memberships.lean", tfjsonpath.New("memberships"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.joinit_memberships.lean", tfjsonpath.New("emails"), knownvalue.ListSizeExact(len(emails))),
				statecheck.ExpectKnownValue("data.joinit_memberships.lean", tfjsonpath.New("ids"), knownvalue.ListSizeExact(300)),
			},
		}},
	})
}

func TestAccMemberships_empty(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 4, Memberships: 0})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `data "joinit_memberships" "none" {}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.none", tfjsonpath.New("memberships"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.joinit_memberships.none", tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.joinit_memberships.none", tfjsonpath.New("emails"), knownvalue.ListExact([]knownvalue.Check{})),
			},
		}},
	})
}

func TestAccMemberships_invalidArguments(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 5, Memberships: 1})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + `data "joinit_memberships" "x" { page_size = 1001 }`,
			ExpectError: regexp.MustCompile(`(?s)page_size.*between 1 and 1000`),
		}},
	})
}

// An argument unknown at plan (status from a resource not yet created):
// Terraform plans the read for apply and reads once the value is known,
// filtered by it.
func TestAccMemberships_statusUnknownAtPlan(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 6, Memberships: 40})
	active := 100
	want := len(sb.MembershipsJSON(&active))
	if want == 0 || want == 40 {
		t.Fatalf("the data set should hold active and other memberships, has %d active of 40", want)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "terraform_data" "status" {
  input = 100
}
data "joinit_memberships" "m" {
  status = terraform_data.status.output
}
output "names" {
  value = distinct(data.joinit_memberships.m.memberships[*].status_name)
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue("data.joinit_memberships.m", tfjsonpath.New("ids")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("status"), knownvalue.Int64Exact(100)),
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("memberships"), knownvalue.ListSizeExact(want)),
				statecheck.ExpectKnownOutputValue("names", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("active")})),
			},
		}},
	})
}
