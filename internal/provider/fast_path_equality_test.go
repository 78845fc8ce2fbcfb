package provider

import (
	"hash/crc32"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The fast path (server.go, encode.go) must give Terraform the state the
// framework's own Read gives: each test reads one configuration through the
// provider's server, then through the bare framework server, and compares
// every top-level attribute, whole, between the two steps.

// frameworkFactories serve the provider without the fast path: a provider
// of its own on each call, as providerFactories do, so that parallel tests
// never configure each other's client.
var frameworkFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"joinit": func() (tfprotov6.ProviderServer, error) {
		return providerserver.NewProtocol6WithError(newProvider("test"))()
	},
}

func TestAccFastPathEqualsFramework_memberships(t *testing.T) {
	testFastPathEqualsFramework(t, membershipsDef, `include_raw_json = true
  page_size = 7`)
}

func TestAccFastPathEqualsFramework_membershipsLean(t *testing.T) {
	testFastPathEqualsFramework(t, membershipsDef, `include_records = false`)
}

func TestAccFastPathEqualsFramework_membershipsFields(t *testing.T) {
	testFastPathEqualsFramework(t, membershipsDef, `fields = ["profile", "email", "status", "raw_json", "custom_answers"]
  include_raw_json = true
  membership_names = ["Gold", "Family", ""]`)
}

func TestAccFastPathEqualsFramework_paymentsFields(t *testing.T) {
	testFastPathEqualsFramework(t, paymentsDef, `fields = ["total", "membership_ids", "id"]`)
}

func TestAccFastPathEqualsFramework_payments(t *testing.T) {
	testFastPathEqualsFramework(t, paymentsDef, `include_raw_json = true`)
}

func TestAccFastPathEqualsFramework_groups(t *testing.T) {
	testFastPathEqualsFramework(t, groupsDef, `page_size = 5`)
}

func TestAccFastPathEqualsFramework_orgMetrics(t *testing.T) {
	testFastPathEqualsFramework(t, orgMetricsDef, `include_raw_json = true
  page_size = 4`)
}

// testFastPathEqualsFramework serves the edge records followed by some of
// the sandbox's, so both unusual and ordinary records are compared.
func testFastPathEqualsFramework(t *testing.T, def *dataSourceDef, args string) {
	// Data of this test's own: a read that reached another test's server
	// would see other records, and fail the comparison.
	seed := int64(crc32.ChecksumIEEE([]byte(t.Name())))
	sb := sandbox.New(sandbox.Options{Seed: seed, Memberships: 20, Payments: 10, Groups: 6, OrgMetrics: 7})
	url := fixtureAPI(t,
		append(edgeMemberships, recordTexts(sb.MembershipsJSON(nil))...),
		append(edgePayments, recordTexts(sb.PaymentsJSON())...),
		append(edgeGroups, recordTexts(sb.GroupsJSON())...),
		append(edgeOrgMetrics, recordTexts(sb.OrgMetricsJSON())...))
	address := "data.joinit_" + def.name + ".x"
	config := providerBlock(url) + "data \"joinit_" + def.name + "\" \"x\" {\n  " + args + "\n}\n"
	var fast, framework []statecheck.StateCheck
	for _, a := range def.attrs {
		same := statecheck.CompareValue(compare.ValuesSame())
		fast = append(fast, same.AddStateValue(address, tfjsonpath.New(a.name)))
		framework = append(framework, same.AddStateValue(address, tfjsonpath.New(a.name)))
	}
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: providerFactories, Config: config, ConfigStateChecks: fast},
			{ProtoV6ProviderFactories: frameworkFactories, Config: config, ConfigStateChecks: framework},
		},
	})
}
