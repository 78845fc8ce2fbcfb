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
	sb, url := startSandbox(t, sandbox.Options{Seed: 61, Memberships: 30, Payments: 20, Groups: 9, OrgMetrics: 10})
	active := 100
	config, checks := everyAttribute(t, apiRecords{
		memberships: rawRecords(sb.MembershipsJSON(nil)), active: rawRecords(sb.MembershipsJSON(&active)),
		payments: rawRecords(sb.PaymentsJSON()), groups: rawRecords(sb.GroupsJSON()), orgMetrics: rawRecords(sb.OrgMetricsJSON()),
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps:                    []resource.TestStep{{Config: providerBlock(url) + config, ConfigStateChecks: checks}},
	})
}

func TestAccEveryAttribute_edgeRecords(t *testing.T) {
	url := fixtureAPI(t, edgeMemberships, edgePayments, edgeGroups, edgeOrgMetrics)
	config, checks := everyAttribute(t, apiRecords{
		memberships: asBytes(edgeMemberships), payments: asBytes(edgePayments),
		groups: asBytes(edgeGroups), orgMetrics: asBytes(edgeOrgMetrics),
	})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps:                    []resource.TestStep{{Config: providerBlock(url) + config, ConfigStateChecks: checks}},
	})
}

// apiRecords are the records the API holds; active, when set, are the
// memberships with status 100.
type apiRecords struct {
	memberships, active, payments, groups, orgMetrics [][]byte
}

func rawRecords(recs []json.RawMessage) [][]byte {
	out := make([][]byte, len(recs))
	for i, r := range recs {
		out[i] = r
	}
	return out
}

// everyAttribute returns data sources reading recs in every mode (records
// with and without raw JSON, the lean read, the status filter, small pages
// so that several are read) and a check of each one's whole state.
func everyAttribute(t *testing.T, recs apiRecords) (string, []statecheck.StateCheck) {
	t.Helper()
	n := func(v int) json.Number { return json.Number(fmt.Sprint(v)) }
	withRaw := func(want func(*testing.T, []byte, bool) map[string]any, raw bool) func([]byte) map[string]any {
		return func(r []byte) map[string]any { return want(t, r, raw) }
	}
	ids, emails := wantIDsAndEmails(t, recs.memberships)
	cases := []struct {
		address, config string
		want            map[string]any
	}{
		{"data.joinit_memberships.raw", `page_size = 4
  include_raw_json = true`, map[string]any{
			"status": nil, "page_size": n(4), "include_raw_json": true, "include_records": true,
			"memberships": each(recs.memberships, withRaw(wantMembership, true)), "ids": ids, "emails": emails,
		}},
		{"data.joinit_memberships.plain", ``, map[string]any{
			"status": nil, "page_size": n(1000), "include_raw_json": false, "include_records": true,
			"memberships": each(recs.memberships, withRaw(wantMembership, false)), "ids": ids, "emails": emails,
		}},
		{"data.joinit_memberships.lean", `include_records = false
  include_raw_json = true`, map[string]any{
			"status": nil, "page_size": n(1000), "include_raw_json": true, "include_records": false,
			"memberships": nil, "ids": ids, "emails": emails,
		}},
		{"data.joinit_memberships.fields", `fields = ["status_name", "profile", "id", "custom_answers", "email", "status"]
  include_raw_json = true
  page_size = 4`, map[string]any{
			"status": nil, "page_size": n(4), "include_raw_json": true, "include_records": true,
			"fields":      []any{"status_name", "profile", "id", "custom_answers", "email", "status"},
			"memberships": nil, "ids": ids, "emails": emails,
			"records": each(recs.memberships, only(withRaw(wantMembership, true), "status_name", "profile", "id", "custom_answers", "email", "status")),
		}},
		{"data.joinit_memberships.fields_raw", `fields = ["raw_json", "membership_name"]
  include_raw_json = true`, map[string]any{
			"status": nil, "page_size": n(1000), "include_raw_json": true, "include_records": true,
			"fields": []any{"raw_json", "membership_name"}, "memberships": nil, "ids": ids, "emails": emails,
			"records": each(recs.memberships, only(withRaw(wantMembership, true), "raw_json", "membership_name")),
		}},
		{"data.joinit_payments.fields", `fields = ["membership_ids", "total", "id", "raw_json"]
  page_size = 3`, map[string]any{
			"page_size": n(3), "include_raw_json": false, "payments": nil,
			"fields":  []any{"membership_ids", "total", "id", "raw_json"},
			"records": each(recs.payments, only(withRaw(wantPayment, false), "membership_ids", "total", "id", "raw_json")),
		}},
		{"data.joinit_payments.raw", `page_size = 3
  include_raw_json = true`, map[string]any{
			"page_size": n(3), "include_raw_json": true, "payments": each(recs.payments, withRaw(wantPayment, true)),
		}},
		{"data.joinit_payments.plain", `timeouts {
    read = "10m"
  }`, map[string]any{
			"page_size": n(1000), "include_raw_json": false, "payments": each(recs.payments, withRaw(wantPayment, false)),
			"timeouts": map[string]any{"read": "10m"},
		}},
		{"data.joinit_groups.all", `page_size = 2`, map[string]any{
			"page_size": n(2), "groups": each(recs.groups, func(r []byte) map[string]any { return wantGroup(t, r) }),
		}},
		{"data.joinit_org_metrics.raw", `page_size = 3
  include_raw_json = true`, map[string]any{
			"page_size": n(3), "include_raw_json": true, "total_pages": n((len(recs.orgMetrics) + 2) / 3),
			"results": each(recs.orgMetrics, withRaw(wantOrgMetric, true)),
		}},
		{"data.joinit_org_metrics.plain", ``, map[string]any{
			"page_size": n(100), "include_raw_json": false, "total_pages": n(min(len(recs.orgMetrics), 1)),
			"results": each(recs.orgMetrics, withRaw(wantOrgMetric, false)),
		}},
	}
	if recs.active != nil {
		activeIDs, activeEmails := wantIDsAndEmails(t, recs.active)
		cases = append(cases, struct {
			address, config string
			want            map[string]any
		}{"data.joinit_memberships.active", `status = 100`, map[string]any{
			"status": n(100), "page_size": n(1000), "include_raw_json": false, "include_records": true,
			"memberships": each(recs.active, withRaw(wantMembership, false)), "ids": activeIDs, "emails": activeEmails,
		}})
	}
	var config strings.Builder
	var checks []statecheck.StateCheck
	for _, c := range cases {
		parts := strings.Split(c.address, ".")
		// Arguments a case does not set are null, and so are records
		// without fields.
		nullUnlessSet := map[string][]string{
			"joinit_memberships": {"timeouts", "fields", "records", "membership_types", "membership_names"},
			"joinit_payments":    {"timeouts", "fields", "records"},
		}[parts[1]]
		for _, name := range append(nullUnlessSet, "timeouts") {
			if _, set := c.want[name]; !set {
				c.want[name] = nil
			}
		}
		fmt.Fprintf(&config, "data %q %q {\n  %s\n}\n", parts[1], parts[2], c.config)
		checks = append(checks, stateMatches(c.address, c.want))
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
