package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// BenchmarkResultSizePerRecord measures the encoded state per record of
// each data source and read mode on the sandbox's data, and how many
// records fit under the result ceiling (maxResultBytes). The docs quote
// these figures:
//
//	go test ./internal/provider -run '^$' -bench ResultSizePerRecord
func BenchmarkResultSizePerRecord(b *testing.B) {
	const n = 20_000
	sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n, Payments: n, Groups: n, OrgMetrics: n})
	url := sb.Start()
	defer sb.Close()
	c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken})
	if err != nil {
		b.Fatal(err)
	}
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
				state, err := tc.def.readState(context.Background(), c, tftypes.NewValue(tc.def.stateType, vals))
				if err != nil {
					b.Fatal(err)
				}
				size, err := encodedSize(tc.def.attrs, state)
				if err != nil {
					b.Fatal(err)
				}
				perRecord = float64(size) / n
			}
			b.ReportMetric(perRecord, "bytes/record")
			b.ReportMetric(float64(maxResultBytes)/perRecord, "records/ceiling")
			b.Log(fmt.Sprintf("%s: %.0f bytes per record; %.0f records fit under the %d-byte ceiling", tc.name, perRecord, float64(maxResultBytes)/perRecord, maxResultBytes))
		})
	}
}
