package provider

import (
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The types the sandbox's memberships hold are the first the list serves:
// a module can join memberships to their type by id.
func TestAccMembershipTypes_theMembershipsTypes(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 13, Memberships: 40, Records: map[string]int{apispec.EndpointMembershipTypes: 6}})
	types := sandbox.MembershipTypes(13)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_membership_types" "all" {
  page_size = 4
}
data "joinit_memberships" "all" {}
output "unknown_types" {
  value = setsubtract([for m in data.joinit_memberships.all.memberships : m.membership_type], [for t in data.joinit_membership_types.all.membership_types : t.id])
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_membership_types.all", tfjsonpath.New("membership_types"), knownvalue.ListSizeExact(6)),
				statecheck.ExpectKnownValue("data.joinit_membership_types.all", tfjsonpath.New("membership_types").AtSliceIndex(0).AtMapKey("id"), knownvalue.StringExact(types[0].ID)),
				statecheck.ExpectKnownValue("data.joinit_membership_types.all", tfjsonpath.New("membership_types").AtSliceIndex(0).AtMapKey("membership_name"), knownvalue.StringExact(types[0].Name)),
				statecheck.ExpectKnownValue("data.joinit_membership_types.all", tfjsonpath.New("membership_types").AtSliceIndex(5).AtMapKey("status"), knownvalue.Int64Exact(200)),
				statecheck.ExpectKnownOutputValue("unknown_types", knownvalue.SetSizeExact(0)),
			},
		}},
	})
}

var _ = registerDataSourceTest(dsTest{
	def: membershipTypesDef, edge: edgeMembershipTypes,
	everyAttribute: func(t *testing.T, recs [][]byte, _ *sandbox.Server) []attrCase {
		return []attrCase{
			{"raw", `page_size = 2
  include_raw_json = true`, map[string]any{
				"page_size": jsonNum(2), "include_raw_json": true, "membership_types": each(recs, wantWithRaw(t, wantMembershipType, true)),
			}},
			{"plain", ``, map[string]any{
				"page_size": jsonNum(1000), "include_raw_json": false, "membership_types": each(recs, wantWithRaw(t, wantMembershipType, false)),
			}},
		}
	},
})

var edgeMembershipTypes = []string{
	`{"_id":"t1","organization_id":"o","membership_name":"Gold – 東京","description":"d","status":100,"duration":9223372036854775807,"duration_interval_type":"year","duration_display":"1 year","registration_type":"group","price":{"value":-9223372036854775808,"currency":"usd","display":"$1","type":"donation"},"recurring":false,"x_future":[1]}`,
	`{"_id":"t2","status":null,"price":null,"recurring":null}`,
	`{"_id":"t3","price":{},"recurring":true}`,
	`{}`,
}

func wantMembershipType(t *testing.T, raw []byte, includeRaw bool) map[string]any {
	f := decodeFields(t, raw)
	m := map[string]any{"id": f.text(t, "_id"), "raw_json": rawOrNull(raw, includeRaw), "recurring": nil, "price": nil}
	for _, k := range []string{"organization_id", "membership_name", "description", "duration_interval_type", "duration_display", "registration_type"} {
		m[k] = f.text(t, k)
	}
	for _, k := range []string{"status", "duration"} {
		m[k] = f.number(t, k)
	}
	if !isNull(f["recurring"]) {
		var b bool
		if err := json.Unmarshal(f["recurring"], &b); err != nil {
			t.Fatal(err)
		}
		m["recurring"] = b
	}
	if !isNull(f["price"]) {
		p := decodeFields(t, f["price"])
		m["price"] = map[string]any{"value": p.number(t, "value"), "currency": p.text(t, "currency"), "display": p.text(t, "display"), "type": p.text(t, "type")}
	}
	return m
}
