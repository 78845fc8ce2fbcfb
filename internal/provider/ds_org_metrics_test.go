package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

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
