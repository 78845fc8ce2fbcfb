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
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 13, OrgMetrics: 45})
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
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 14, OrgMetrics: 0})
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

var _ = registerDataSourceTest(dsTest{
	def: orgMetricsDef, edge: edgeOrgMetrics,
	everyAttribute: func(t *testing.T, recs [][]byte, _ *sandbox.Server) []attrCase {
		return []attrCase{
			{"raw", `page_size = 3
  include_raw_json = true`, map[string]any{
				"page_size": jsonNum(3), "include_raw_json": true, "total_pages": jsonNum((len(recs) + 2) / 3),
				"results": each(recs, wantWithRaw(t, wantOrgMetric, true)),
			}},
			{"plain", ``, map[string]any{
				"page_size": jsonNum(100), "include_raw_json": false, "total_pages": jsonNum(min(len(recs), 1)),
				"results": each(recs, wantWithRaw(t, wantOrgMetric, false)),
			}},
		}
	},
})

var edgeOrgMetrics = []string{
	`{"organization_id":"o","metric_period_key":202401,"active_memberships":9223372036854775807}`,
	`{"organization_id":null,"metric_period_key":-9223372036854775808,"active_memberships":0}`,
	`{"metric_period_key":null}`,
	`{}`,
}

func wantOrgMetric(t *testing.T, raw []byte, includeRaw bool) map[string]any {
	f := decodeFields(t, raw)
	return map[string]any{"organization_id": f.text(t, "organization_id"), "metric_period_key": f.number(t, "metric_period_key"),
		"active_memberships": f.number(t, "active_memberships"), "raw_json": rawOrNull(raw, includeRaw)}
}
