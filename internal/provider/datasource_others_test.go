package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestAccGroups_severalPagesWithRawJSON(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 11, Groups: 130})
	var first struct {
		ID   string `json:"_id"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(sb.GroupsJSON()[0], &first); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_groups" "all" {
  page_size = 50
}
output "first_extra" {
  value = jsondecode(data.joinit_groups.all.groups[0].raw_json).x_sandbox_extra.note
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_groups.all", tfjsonpath.New("groups"), knownvalue.ListSizeExact(130)),
				statecheck.ExpectKnownValue("data.joinit_groups.all", tfjsonpath.New("groups").AtSliceIndex(0).AtMapKey("id"), knownvalue.StringExact(first.ID)),
				statecheck.ExpectKnownValue("data.joinit_groups.all", tfjsonpath.New("groups").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact(first.Name)),
				statecheck.ExpectKnownOutputValue("first_extra", knownvalue.StringExact("unknown field")),
			},
		}},
	})
}

func TestAccPayments_severalPages(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 12, Payments: 210})
	var first struct {
		ID       string   `json:"_id"`
		Total    int64    `json:"total"`
		Currency string   `json:"currency"`
		IDs      []string `json:"membership_ids"`
	}
	if err := json.Unmarshal(sb.PaymentsJSON()[0], &first); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_payments" "all" {
  include_raw_json = true
  page_size        = 100
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_payments.all", tfjsonpath.New("payments"), knownvalue.ListSizeExact(210)),
				statecheck.ExpectKnownValue("data.joinit_payments.all", tfjsonpath.New("payments").AtSliceIndex(0).AtMapKey("id"), knownvalue.StringExact(first.ID)),
				statecheck.ExpectKnownValue("data.joinit_payments.all", tfjsonpath.New("payments").AtSliceIndex(0).AtMapKey("total"), knownvalue.Int64Exact(first.Total)),
				statecheck.ExpectKnownValue("data.joinit_payments.all", tfjsonpath.New("payments").AtSliceIndex(0).AtMapKey("currency"), knownvalue.StringExact(first.Currency)),
				statecheck.ExpectKnownValue("data.joinit_payments.all", tfjsonpath.New("payments").AtSliceIndex(0).AtMapKey("membership_ids"), knownvalue.ListSizeExact(len(first.IDs))),
				statecheck.ExpectKnownValue("data.joinit_payments.all", tfjsonpath.New("payments").AtSliceIndex(0).AtMapKey("raw_json"), knownvalue.StringExact(string(sb.PaymentsJSON()[0]))),
			},
		}},
	})
}

func TestAccOrgMetrics_totalPages(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 13, OrgMetrics: 45})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_org_metrics" "small_pages" {
  page_size = 10
}
data "joinit_org_metrics" "default" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_org_metrics.small_pages", tfjsonpath.New("results"), knownvalue.ListSizeExact(45)),
				statecheck.ExpectKnownValue("data.joinit_org_metrics.small_pages", tfjsonpath.New("total_pages"), knownvalue.Int64Exact(5)),
				statecheck.ExpectKnownValue("data.joinit_org_metrics.default", tfjsonpath.New("total_pages"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("data.joinit_org_metrics.default", tfjsonpath.New("page_size"), knownvalue.Int64Exact(100)),
			},
		}},
	})
}

func TestAccOrgMetrics_empty(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 14, OrgMetrics: 0})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `data "joinit_org_metrics" "none" {}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_org_metrics.none", tfjsonpath.New("results"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.joinit_org_metrics.none", tfjsonpath.New("total_pages"), knownvalue.Int64Exact(0)),
			},
		}},
	})
}
