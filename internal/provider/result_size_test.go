package provider

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// withResultLimit serves the provider with a small result ceiling, through
// the provider's own server or the framework's alone.
func withResultLimit(limit int64, frameworkOnly bool) map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"joinit": func() (tfprotov6.ProviderServer, error) {
			if frameworkOnly {
				p := testProvider(nil)
				p.resultLimit = limit
				return providerserver.NewProtocol6WithError(p)()
			}
			s := testServer(context.Background(), nil)
			s.provider.resultLimit = limit
			return s, nil
		},
	}
}

// A result over the ceiling fails before it is sent, with its size, the
// limit and what to read instead, on both read paths (the fast path's
// steps, then the framework's); the lean read of the same memberships fits.
func TestAccResultCeiling(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 82, Memberships: 300})
	var steps []resource.TestStep
	for _, frameworkOnly := range []bool{false, true} {
		factories := withResultLimit(64<<10, frameworkOnly)
		steps = append(steps,
			resource.TestStep{
				ProtoV6ProviderFactories: factories,
				Config: providerBlock(url) + `
data "joinit_memberships" "all" {}
`,
				// The client stops the read as soon as its text passes the
				// ceiling; what passes it only once encoded is refused after.
				ExpectError: regexp.MustCompile(`(?s)Failed to read joinit_memberships.*(the read stopped after \d+ records on 1\s+page,.*65,536\s+bytes\s+Terraform\s+takes\s+from\s+a\s+provider\s+in\s+one\s+message|the result is [0-9.]+ MB \(\d+ bytes\) when encoded, over the 0.1 MB\s+\(65536\s+bytes\)).*include_records = false`),
			},
			resource.TestStep{
				ProtoV6ProviderFactories: factories,
				Config: providerBlock(url) + `
data "joinit_memberships" "all" {
  include_records = false
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(300)),
				},
			})
	}
	resource.ParallelTest(t, resource.TestCase{Steps: steps})
}

// BenchmarkResultSizePerRecord measures the encoded state per record of
// each data source and read mode on the sandbox's data, and how many
// records fit under the result ceiling (maxResultBytes). The docs quote
// these figures:
//
//	go test ./internal/provider -run '^$' -bench ResultSizePerRecord
func BenchmarkResultSizePerRecord(b *testing.B) {
	const n = 20_000
	_, url := sandbox.StartForTest(b, sandbox.Options{Seed: 7, Memberships: n, Payments: n, Groups: n, OrgMetrics: n})
	c := testClient(b, client.Config{BaseURL: url, Token: sandbox.DefaultToken})
	cases := []struct {
		def  *dataSourceDef
		name string
		set  map[string]tftypes.Value
	}{
		{membershipsDef, "memberships", nil},
		{membershipsDef, "memberships_raw_json", map[string]tftypes.Value{"include_raw_json": tftypes.NewValue(tftypes.Bool, true)}},
		{membershipsDef, "memberships_lean", map[string]tftypes.Value{"include_records": tftypes.NewValue(tftypes.Bool, false)}},
		{paymentsDef, "payments", nil},
		{paymentsDef, "payments_raw_json", map[string]tftypes.Value{"include_raw_json": tftypes.NewValue(tftypes.Bool, true)}},
		{groupsDef, "groups", nil},
		{orgMetricsDef, "org_metrics", nil},
		{orgMetricsDef, "org_metrics_raw_json", map[string]tftypes.Value{"include_raw_json": tftypes.NewValue(tftypes.Bool, true)}},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			vals := map[string]tftypes.Value{}
			for name, typ := range tc.def.stateType.AttributeTypes {
				vals[name] = tftypes.NewValue(typ, nil)
				if v, ok := tc.set[name]; ok {
					vals[name] = v
				}
			}
			var perRecord float64
			for b.Loop() {
				_, size, err := tc.def.readChecked(context.Background(), c, tftypes.NewValue(tc.def.stateType, vals), maxResultBytes)
				if err != nil {
					b.Fatal(err)
				}
				perRecord = float64(size) / n
			}
			b.ReportMetric(perRecord, "bytes/record")
			b.ReportMetric(float64(maxResultBytes)/perRecord, "records/ceiling")
			b.Logf("%s: %.0f bytes per record; %.0f records fit under the %d-byte ceiling", tc.name, perRecord, float64(maxResultBytes)/perRecord, maxResultBytes)
		})
	}
}
