package client

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// OrgMetric is one organization metrics record. It has no id.
type OrgMetric struct {
	OrganizationID    *string `json:"organization_id"`
	MetricPeriodKey   *int64  `json:"metric_period_key"`
	ActiveMemberships *int64  `json:"active_memberships"`
	RawJSON           string  `json:"-"`
}

// OrgMetrics is a whole org metrics read.
type OrgMetrics struct {
	Results []OrgMetric
	// TotalPages is the server's totalPages for the page size used.
	TotalPages int
}

func (m *OrgMetric) organizationValue() *string { return m.OrganizationID }

func (m *OrgMetric) Key() string { return "" }

func (m *OrgMetric) SetRaw(r []byte) { m.RawJSON = string(r) }

// OrgMetrics reads every organization metrics record, in API order.
func (c *Client) OrgMetrics(ctx context.Context, o ListOptions) (*OrgMetrics, error) {
	r, err := readList[OrgMetric](ctx, c, listRead[OrgMetric]{endpoint: apispec.EndpointOrgMetrics, opts: ListOptions{PageSize: o.PageSize, KeepRaw: o.KeepRaw}})
	if err != nil {
		return nil, err
	}
	return &OrgMetrics{Results: r.records, TotalPages: r.totalPages}, nil
}

func (m *OrgMetric) weigh() (nested, text int64) {
	return 0, textOf(m.OrganizationID) + int64(len(m.RawJSON))
}
