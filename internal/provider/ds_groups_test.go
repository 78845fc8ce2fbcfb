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

func TestAccGroups_severalPagesWithRawJSON(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 11, Groups: 130})
	var first struct {
		ID   string `json:"_id"`
		Name string `json:"name"`
	}
	if err := json.Unmarshal(sb.GroupsJSON()[0], &first); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_groups" "all" {
  page_size = 50
}
output "first_extra" {
  value = jsondecode(data.joinit_groups.all.groups[0].raw_json).x_sandbox_extra.note
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_groups.all", tfjsonpath.New("groups"), knownvalue.ListSizeExact(130)),
				statecheck.ExpectKnownValue("data.joinit_groups.all", tfjsonpath.New("groups").AtSliceIndex(0).AtMapKey("id"), knownvalue.StringExact(first.ID)),
				statecheck.ExpectKnownValue("data.joinit_groups.all", tfjsonpath.New("groups").AtSliceIndex(0).AtMapKey("name"), knownvalue.StringExact(first.Name)),
				statecheck.ExpectKnownOutputValue("first_extra", knownvalue.StringExact("unknown field")),
			},
		}},
	})
}

var _ = registerDataSourceTest(dsTest{
	def: groupsDef, edge: edgeGroups,
	everyAttribute: func(t *testing.T, recs [][]byte, _ *sandbox.Server) []attrCase {
		return []attrCase{
			{"all", `page_size = 2`, map[string]any{
				"page_size": jsonNum(2), "groups": each(recs, func(r []byte) map[string]any { return wantGroup(t, r) }),
			}},
		}
	},
})

// Groups without _id, which the sandbox does not generate.
var edgeGroups = []string{
	`{"_id":"g1","id":"alt","organization_id":"o","name":"Ünïcode 🚀"}`,
	`{"id":"g2","name":null}`,
	`{"_id":null,"id":null}`,
	`{}`,
}

func wantGroup(t *testing.T, raw []byte) map[string]any {
	f := decodeFields(t, raw)
	id := f.text(t, "_id")
	if id == nil {
		id = f.text(t, "id")
	}
	return map[string]any{"id": id, "organization_id": f.text(t, "organization_id"), "name": f.text(t, "name"), "raw_json": string(raw)}
}
