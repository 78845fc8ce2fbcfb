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

func (m *OrgMetric) dedupKey() string { return "" }

func (m *OrgMetric) setRaw(r []byte) { m.RawJSON = string(r) }

// OrgMetrics reads every organization metrics record, in API order.
func (c *Client) OrgMetrics(ctx context.Context, o ListOptions) (*OrgMetrics, error) {
	req, err := c.request(apispec.EndpointOrgMetrics, o.PageSize)
	if err != nil {
		return nil, err
	}
	return get(ctx, c.cache, cacheKey(req, o.KeepRaw), func(ctx context.Context) (*OrgMetrics, error) {
		return readMetadataPages(ctx, c, req, o.KeepRaw)
	}, func(m *OrgMetrics) int { return len(m.Results) })
}
