package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// Twenty data sources of one provider, as a for_each or count makes them,
// read at once against a server that allows twenty requests a second: they
// share the provider's one send window and rate limit, and every one comes
// back whole; none fails with its retries used up. Status and page size
// vary, so that no two of them share a fetch.
func TestAccMemberships_twentyDataSourcesUnderOneRateLimit(t *testing.T) {
	sb, url := startSandbox(t, sandbox.Options{Seed: 28, Memberships: 30, Faults: sandbox.Faults{RateLimit: 20}})
	statuses := []int{50, 75, 100, 300, 350}
	sizes := []int{20, 21, 22, 23}
	// Each data source's ids and records, counted, against the sandbox's
	// count of that status. (count, not for_each: the testing framework's
	// state shim refuses for_each's string keys; Terraform reads both alike.)
	var want []knownvalue.Check
	for _, st := range statuses {
		n := len(sb.MembershipsJSON(&st))
		if n == 0 {
			t.Fatalf("the sandbox has no memberships of status %d: the test would prove nothing for it", st)
		}
		for range sizes {
			want = append(want, knownvalue.Int64Exact(int64(n)))
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			// max_retries = 2: each data source is refused now and then;
			// the refusals must not use up its retries while the others
			// get through. (The client's TestTwentyReadsShareOneRateLimit
			// and TestRateLimitRetriesNotChargedWhileOthersProgress hold
			// the send window and the retry rule themselves.)
			Config: `
provider "joinit" {
  base_url     = "` + url + `"
  access_token = "` + sandbox.DefaultToken + `"
  max_retries  = 2
}
locals {
  reads = setproduct([50, 75, 100, 300, 350], [20, 21, 22, 23])
}
data "joinit_memberships" "m" {
  count     = length(local.reads)
  status    = local.reads[count.index][0]
  page_size = local.reads[count.index][1]
}
output "ids" {
  value = [for d in data.joinit_memberships.m : length(d.ids)]
}
output "records" {
  value = [for d in data.joinit_memberships.m : length(d.memberships)]
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("ids", knownvalue.ListExact(want)),
				statecheck.ExpectKnownOutputValue("records", knownvalue.ListExact(want)),
			},
		}},
	})
	limited := 0
	for _, r := range sb.RequestLog() {
		if r.Status == 429 {
			limited++
		}
	}
	t.Logf("%d requests, %d answered 429", sb.Requests(""), limited)
}
