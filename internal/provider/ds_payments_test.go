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
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 12, Payments: 210})
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

var _ = registerDataSourceTest(dsTest{
	def: paymentsDef, edge: edgePayments,
	everyAttribute: func(t *testing.T, recs [][]byte, _ *sandbox.Server) []attrCase {
		return []attrCase{
			{"fields", `fields = ["membership_ids", "total", "id", "raw_json"]
  page_size = 3`, map[string]any{
				"page_size": jsonNum(3), "include_raw_json": false, "payments": nil,
				"fields":  []any{"membership_ids", "total", "id", "raw_json"},
				"records": each(recs, only(wantWithRaw(t, wantPayment, false), "membership_ids", "total", "id", "raw_json")),
			}},
			{"raw", `page_size = 3
  include_raw_json = true`, map[string]any{
				"page_size": jsonNum(3), "include_raw_json": true, "payments": each(recs, wantWithRaw(t, wantPayment, true)),
			}},
			{"plain", `timeouts {
    read = "10m"
  }`, map[string]any{
				"page_size": jsonNum(1000), "include_raw_json": false, "payments": each(recs, wantWithRaw(t, wantPayment, false)),
				"timeouts": map[string]any{"read": "10m"},
			}},
		}
	},
})

var edgePayments = []string{
	`{"_id":"p1","organization_id":"o","member_id":"acc","membership_ids":["m1",null,"ü"],"channel":"stripe","status":100,"currency":"EUR","subtotal":-9223372036854775808,"total":9223372036854775807,"payment_date":"2024-01-01T00:00:00.000Z","created":"2024-01-02T00:00:00.000Z","updated":"2024-01-03T00:00:00.000Z",` +
		`"description":"Dues – 東京","discount_amount":-1,"discount_label":"","external_id":"x","customer_id":"cus","subscription_id":"sub","invoice_pdf":"https://i.example/1.pdf","stripe_invoice_id":"in_1","application_fee_amount":9223372036854775807,` +
		`"total_tax_amounts":[{"amount":20,"inclusive":false,"tax_rate":"txr_1"}],"lines":[{"_id":"l1","description":"Dues","amount":10000,"quantity":1},{"_id":null,"amount":-9223372036854775808},{}]}`,
	`{"_id":"p2","membership_ids":null,"status":null,"subtotal":0,"total":-1,"total_tax_amounts":"19%","lines":[],"discount_amount":null}`,
	`{"_id":"p5","total_tax_amounts":{ "vat" : 1 },"lines":null}`,
	`{"membership_ids":[],"member_email":"not@modelled"}`,
	`{}`,
}

func wantPayment(t *testing.T, raw []byte, includeRaw bool) map[string]any {
	f := decodeFields(t, raw)
	m := map[string]any{"id": f.text(t, "_id"), "membership_ids": f.textList(t, "membership_ids"), "raw_json": rawOrNull(raw, includeRaw)}
	for _, k := range []string{"organization_id", "member_id", "channel", "currency", "payment_date", "created", "updated",
		"description", "discount_label", "external_id", "customer_id", "subscription_id", "invoice_pdf", "stripe_invoice_id"} {
		m[k] = f.text(t, k)
	}
	for _, k := range []string{"status", "subtotal", "total", "discount_amount", "application_fee_amount"} {
		m[k] = f.number(t, k)
	}
	m["total_tax_amounts"] = f.jsonText(t, "total_tax_amounts")
	m["lines"] = nil
	if !isNull(f["lines"]) {
		var lines []json.RawMessage
		if err := json.Unmarshal(f["lines"], &lines); err != nil {
			t.Fatal(err)
		}
		list := []any{}
		for _, l := range lines {
			lf := decodeFields(t, l)
			list = append(list, map[string]any{"id": lf.text(t, "_id"), "description": lf.text(t, "description"), "amount": lf.number(t, "amount"), "quantity": lf.number(t, "quantity")})
		}
		m["lines"] = list
	}
	return m
}
