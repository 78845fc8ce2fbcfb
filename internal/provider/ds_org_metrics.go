package provider

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

type orgMetricsState struct {
	common
	TotalPages *int64
	results    []client.OrgMetric
}

var orgMetricsDef = registerDataSource(dataSource[orgMetricsState]{
	name:        "org_metrics",
	description: "Reads the organization's metrics records from the paginated metrics endpoint (page and limit, with totalPages metadata), in API order.",
	read:        readOrgMetrics,
	readLess:    "leave include_raw_json unset.",
	rawJSON:     true,
	attrs: []tfattr.Attr{
		tfattr.Num("total_pages", "The API's totalPages for the page size used; 0 when there are no records.", func(s *orgMetricsState) *int64 { return s.TotalPages }),
		tfattr.ObjectList("results", "The metrics records, in API order. Records have no id, so none is ever taken for a duplicate: equal records are all kept.",
			func(s *orgMetricsState) ([]client.OrgMetric, bool) { return s.results, true },
			tfattr.Str("organization_id", "Organization the record is for.", func(m *client.OrgMetric) *string { return m.OrganizationID }),
			tfattr.Num("metric_period_key", "Period the record covers, as the API's integer key: YYYYMM in every answer seen (202401 is January 2024; the specification says only that it is an integer).", func(m *client.OrgMetric) *int64 { return m.MetricPeriodKey }),
			tfattr.Num("active_memberships", "Active memberships in the period.", func(m *client.OrgMetric) *int64 { return m.ActiveMemberships }),
			tfattr.Str("raw_json", "The record as the API sent it (JSON), when `include_raw_json` is true; otherwise null. Other fields of this record may exist.", func(m *client.OrgMetric) *string { return nonEmpty(&m.RawJSON) }),
		),
	},
})

func readOrgMetrics(ctx context.Context, c *client.Client, s *orgMetricsState, o client.ListOptions) error {
	m, err := c.OrgMetrics(ctx, o)
	if err != nil {
		return err
	}
	s.results = m.Results
	s.TotalPages = new(int64(m.TotalPages))
	return nil
}
