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
