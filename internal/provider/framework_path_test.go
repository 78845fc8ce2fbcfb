package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The framework's own Read (no fast server in front) serves the same state:
// both paths read one declaration of the schema.
func TestAccFrameworkReadPath(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 51, Memberships: 1100, OrgMetrics: 3})
	active := 100
	want := len(sb.MembershipsJSON(&active))
	frameworkOnly := map[string]func() (tfprotov6.ProviderServer, error){
		"joinit": providerserver.NewProtocol6WithError(newProvider("test")),
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: frameworkOnly,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_memberships" "active" {
  status = 100
}
data "joinit_org_metrics" "m" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.active", tfjsonpath.New("memberships"), knownvalue.ListSizeExact(want)),
				statecheck.ExpectKnownValue("data.joinit_memberships.active", tfjsonpath.New("memberships").AtSliceIndex(0).AtMapKey("status_name"), knownvalue.StringExact("active")),
				statecheck.ExpectKnownValue("data.joinit_memberships.active", tfjsonpath.New("page_size"), knownvalue.Int64Exact(1000)),
				statecheck.ExpectKnownValue("data.joinit_org_metrics.m", tfjsonpath.New("total_pages"), knownvalue.Int64Exact(1)),
				statecheck.ExpectKnownValue("data.joinit_org_metrics.m", tfjsonpath.New("results"), knownvalue.ListSizeExact(3)),
			},
		}},
	})
}
