package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// guardedConfig reads every data source, the lean and fields reads too,
// under the organization guard.
func guardedConfig(url, org string) string {
	return `
provider "joinit" {
  base_url        = "` + url + `"
  access_token    = "` + sandbox.DefaultToken + `"
  organization_id = "` + org + `"
}
data "joinit_memberships" "lean" {
  status          = 100
  include_records = false
}
data "joinit_memberships" "fields" {
  fields = ["email"]
}
data "joinit_payments" "all" {}
data "joinit_groups" "all" {}
data "joinit_org_metrics" "all" {}
`
}

func TestAccProvider_organizationGuardPasses(t *testing.T) {
	t.Parallel()
	s, url := startSandbox(t, sandbox.Options{Seed: 41, Memberships: 20, Payments: 5, Groups: 3, OrgMetrics: 4})
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: guardedConfig(url, s.OrganizationID()),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.fields", tfjsonpath.New("ids"), knownvalue.ListSizeExact(20)),
				statecheck.ExpectKnownValue("data.joinit_groups.all", tfjsonpath.New("groups"), knownvalue.ListSizeExact(3)),
			},
		}},
	})
}

func TestAccProvider_organizationGuardStopsAnotherOrganization(t *testing.T) {
	t.Parallel()
	s, url := startSandbox(t, sandbox.Options{Seed: 42, Memberships: 20, Payments: 5, Groups: 3, OrgMetrics: 4})
	actual := regexp.QuoteMeta(s.OrganizationID())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      guardedConfig(url, "org-production"),
			ExpectError: regexp.MustCompile(`(?s)belongs to organization\s+"` + actual + `",\s+not to\s+"org-production".*may\s+belong\s+to\s+another\s+organization`),
		}},
	})
}

// Not parallel: it sets the environment.
func TestAccProvider_organizationFromEnvironment(t *testing.T) {
	_, url := startSandbox(t, sandbox.Options{Seed: 43, Memberships: 4})
	t.Setenv(envOrganization, "org-from-env")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + `data "joinit_memberships" "all" {}`,
			ExpectError: regexp.MustCompile(`(?s)not to\s+"org-from-env"`),
		}},
	})
}
