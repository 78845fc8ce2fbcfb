package provider

import (
	"encoding/json"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// What a user meets when the server parts from the specification.

// A server that serves 250 memberships a page when 1000 are asked for, and
// ignores count on payments (serving its default of 50): every record is
// still read. 2,345 memberships are ten pages of 250; 234 payments (1,234
// cost 9 s of Terraform's state handling) are five of 50, the last short.
func TestAccDeviation_serverPageSizeBelowAsked(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 71, Memberships: 2345, Payments: 234,
		Faults: sandbox.Faults{PageSizeCap: 250, IgnoreCount: []string{sandbox.EndpointPayments}}})
	first, last := idAt(t, sb.MembershipsJSON(nil), 0), idAt(t, sb.MembershipsJSON(nil), 2344)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_memberships" "all" {
  include_records = false
}
data "joinit_payments" "all" {}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(2345)),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids").AtSliceIndex(0), knownvalue.StringExact(first)),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids").AtSliceIndex(2344), knownvalue.StringExact(last)),
				statecheck.ExpectKnownValue("data.joinit_payments.all", tfjsonpath.New("payments"), knownvalue.ListSizeExact(234)),
			},
		}},
	})
}

// A Retry-After of an hour fails the plan at once, naming the status, the
// wait and the setting, instead of holding it for an hour.
func TestAccDeviation_longRetryAfter(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 72, Groups: 3, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "3600"}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_groups" "all" {}
`,
			ExpectError: regexp.MustCompile(`(?s)Failed to read joinit_groups.*HTTP 429.*wait\s+1h0m0s.*max_retry_wait\s+\(1m0s\)`),
		}},
	})
}

// max_retry_wait is the user's to raise or lower; a bad value is refused at
// validation.
func TestAccDeviation_maxRetryWaitSetting(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 73, Groups: 3, Faults: sandbox.Faults{RateLimited: 1, RetryAfter: "30"}})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			{
				Config: `
provider "joinit" {
  base_url       = "` + url + `"
  access_token   = "` + sandbox.DefaultToken + `"
  max_retry_wait = "10s"
}
data "joinit_groups" "all" {}
`,
				ExpectError: regexp.MustCompile(`(?s)HTTP 429.*wait\s+30s.*max_retry_wait\s+\(10s\)`),
			},
			{
				Config: `
provider "joinit" {
  base_url       = "` + url + `"
  access_token   = "` + sandbox.DefaultToken + `"
  max_retry_wait = "-1s"
}
data "joinit_groups" "all" {}
`,
				ExpectError: regexp.MustCompile(`(?s)Invalid max_retry_wait.*"-1s"\s+is\s+no\s+time\s+at\s+all:\s+write\s+a\s+duration\s+above\s+zero`),
			},
		},
	})
}

// idAt is the _id of record i of a sandbox list.
func idAt(t *testing.T, recs []json.RawMessage, i int) string {
	t.Helper()
	var r struct {
		ID string `json:"_id"`
	}
	if err := json.Unmarshal(recs[i], &r); err != nil || r.ID == "" {
		t.Fatalf("record %d has no _id: %v", i, err)
	}
	return r.ID
}
