package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// Every attribute of every record of every data source, compared with the
// API's own JSON for that record: against the sandbox's generated data set,
// read over several pages, and against hand-written records at the edges.

func TestAccEveryAttribute_sandbox(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 61, Memberships: 30, Payments: 20, Groups: 9, OrgMetrics: 10, Records: sandboxRecords(10)})
	config, checks := everyAttribute(t, func(d dsTest) ([][]byte, *sandbox.Server) { return rawRecords(sb.RecordsJSON(d.def.endpoint)), sb })
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps:                    []resource.TestStep{{Config: providerBlock(url) + config, ConfigStateChecks: checks}},
	})
}

func TestAccEveryAttribute_edgeRecords(t *testing.T) {
	url := fixtureAPI(t, edgeRecords())
	config, checks := everyAttribute(t, func(d dsTest) ([][]byte, *sandbox.Server) { return asBytes(d.edge), nil })
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps:                    []resource.TestStep{{Config: providerBlock(url) + config, ConfigStateChecks: checks}},
	})
}

func rawRecords(recs []json.RawMessage) [][]byte {
	out := make([][]byte, len(recs))
	for i, r := range recs {
		out[i] = r
	}
	return out
}

// everyAttribute returns the reads every data source declares (records
// with and without raw JSON, the lean read, filters, small pages so that
// several are read) of the records the API holds, and a check of each
// one's whole state.
func everyAttribute(t *testing.T, held func(dsTest) ([][]byte, *sandbox.Server)) (string, []statecheck.StateCheck) {
	t.Helper()
	var config strings.Builder
	var checks []statecheck.StateCheck
	for _, d := range registeredTests() {
		typeName := "joinit_" + d.def.name
		recs, sb := held(d)
		for _, c := range d.everyAttribute(t, recs, sb) {
			// Arguments a case does not set are null, and so are records
			// without fields.
			null := append([]string{"timeouts"}, d.nullUnlessSet...)
			if d.def.fields != nil {
				null = append(null, "fields", "records")
			}
			for _, name := range null {
				if _, set := c.want[name]; !set {
					c.want[name] = nil
				}
			}
			fmt.Fprintf(&config, "data %q %q {\n  %s\n}\n", typeName, c.name, c.config)
			checks = append(checks, stateMatches("data."+typeName+"."+c.name, c.want))
		}
	}
	return config.String(), checks
}

// only keeps the named attributes of what want returns: a record of
// `records`.
func only(want func([]byte) map[string]any, names ...string) func([]byte) map[string]any {
	return func(r []byte) map[string]any {
		all := want(r)
		out := make(map[string]any, len(names))
		for _, n := range names {
			out[n] = all[n]
		}
		return out
	}
}

// stateMatches checks a data source's whole state against want.
func stateMatches(address string, want map[string]any) statecheck.StateCheck {
	return stateCheckFunc(func(_ context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
		if req.State == nil || req.State.Values == nil || req.State.Values.RootModule == nil {
			resp.Error = fmt.Errorf("%s: no state", address)
			return
		}
		for _, r := range req.State.Values.RootModule.Resources {
			if r.Address != address {
				continue
			}
			if diffs := diffValues(address, r.AttributeValues, want); len(diffs) > 0 {
				if len(diffs) > 20 {
					diffs = append(diffs[:20], fmt.Sprintf("... and %d more", len(diffs)-20))
				}
				resp.Error = fmt.Errorf("the state differs from the API's records:\n%s", strings.Join(diffs, "\n"))
			}
			return
		}
		resp.Error = fmt.Errorf("%s is not in the state", address)
	})
}

type stateCheckFunc func(context.Context, statecheck.CheckStateRequest, *statecheck.CheckStateResponse)

func (f stateCheckFunc) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	f(ctx, req, resp)
}
