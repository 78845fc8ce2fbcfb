package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// boundedProvider is the provider block with max_result_values set.
func boundedProvider(url string, maxValues int) string {
	return fmt.Sprintf(`
provider "joinit" {
  base_url          = %q
  access_token      = %q
  max_result_values = %d
}
`, url, sandbox.DefaultToken, maxValues)
}

// A server that pages forever fails the plan at the budget, naming the
// pages and records read, the setting to raise and a smaller read; the
// lean read of it too. Nothing reaches state.
func TestAccBoundsEndlessServer(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 50, Faults: sandbox.Faults{EndlessPages: true}})
	// The advice names what lowers the values charged: not the type filters, applied to what was read.
	budget := regexp.MustCompile(`(?s)Failed to read joinit_memberships.*the read stopped after [0-9,]+\s+records\s+on\s+[0-9,]+\s+pages.*past\s+the\s+budget\s+of\s+50,000\s+values.*raise\s+max_result_values\s+\(or\s+JOINIT_MAX_RESULT_VALUES\).*include_records\s+=\s+false.*filter\s+with\s+status\s+\(the\s+API\s+applies\s+it\s+before\s+answering;\s+membership_types\s+and\s+membership_names\s+are\s+applied\s+to\s+what\s+was\s+read\)`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			{Config: boundedProvider(url, 50_000) + `data "joinit_memberships" "all" {}`, ExpectError: budget},
			{Config: boundedProvider(url, 50_000) + `data "joinit_memberships" "all" { include_records = false }`, ExpectError: budget},
		},
	})
}

// Values nested in one record count: a million custom answers in one
// membership fail the read (client.MaxRecordValues); a profile address
// nested 9,000 deep fails it naming the record and the field.
func TestAccBoundsBloatedRecord(t *testing.T) {
	_, answers := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 50, Faults: sandbox.Faults{BloatAnswers: 1_000_000}})
	_, deep := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 50, Faults: sandbox.Faults{BloatDepth: 9_000}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			{
				Config:      providerBlock(answers) + `data "joinit_memberships" "all" {}`,
				ExpectError: regexp.MustCompile(`(?s)memberships:\s+record\s+1\s+\(page\s+1\)\s+holds\s+4,000,0\d\d\s+values,\s+its\s+lists\s+and\s+nested\s+objects\s+included,\s+more\s+than\s+the\s+10,000`),
			},
			{
				Config:      providerBlock(deep) + `data "joinit_memberships" "all" {}`,
				ExpectError: regexp.MustCompile(`(?s)record 1: field\s+"profile.address":\s+the\s+value\s+nests\s+9000\s+levels`),
			},
			{
				// The same memberships without the address: fields that do
				// not read it are not refused.
				Config: providerBlock(deep) + `data "joinit_memberships" "all" { fields = ["email"] }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(50)),
				},
			},
		},
	})
}

// The budget from the environment, and a bad value there named: each step
// with a provider of its own environment (testEnv), so that the test runs
// beside the others.
func TestAccBoundsFromEnvironment(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 300})
	budget := factoriesWithEnv(testEnv{envMaxValues: "2e3"})
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				// First: Terraform destroys with the last step's provider.
				ProtoV6ProviderFactories: factoriesWithEnv(testEnv{envMaxValues: "lots"}),
				Config:                   providerBlock(url) + `data "joinit_memberships" "all" {}`,
				ExpectError:              regexp.MustCompile(`(?s)Invalid JOINIT_MAX_RESULT_VALUES.*JOINIT_MAX_RESULT_VALUES is "lots", not a whole number`),
			},
			{
				ProtoV6ProviderFactories: budget,
				Config:                   providerBlock(url) + `data "joinit_memberships" "all" {}`,
				// 300 records of 17 fields are more than 2,000 values on page 1
				// alone: its decoding stops at record 119.
				ExpectError: regexp.MustCompile(`(?s)page\s+1\s+alone\s+holds\s+more\s+than\s+118\s+records,\s+past\s+the\s+budget\s+of\s+2,000\s+values.*raise\s+max_result_values`),
			},
			{
				// The lean read of the same 300 holds 600 values.
				ProtoV6ProviderFactories: budget,
				Config:                   providerBlock(url) + `data "joinit_memberships" "all" { include_records = false }`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(300)),
				},
			},
		},
	})
}

// A lookup shares a full read of the list, and the budget bounds it: past
// it, the lookup fails saying so and how to narrow it.
func TestAccBoundsLookup(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 300})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      boundedProvider(url, 2_000) + `data "joinit_membership" "one" { email = "nobody@example.com" }`,
			ExpectError: regexp.MustCompile(`(?s)past\s+the\s+budget\s+of\s+2,000\s+values.*raise\s+max_result_values.*Or\s+read\s+less:\s+set\s+status\s+to\s+look\s+up\s+among\s+the\s+memberships\s+of\s+one\s+status`),
		}},
	})
}
