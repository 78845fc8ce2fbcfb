package client

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

// ListOptions are the options every list read takes.
type ListOptions struct {
	// PageSize is the count (or limit) sent on every page; 0 takes the
	// endpoint's maximum, so a read takes the fewest requests.
	PageSize int
	// KeepRaw keeps each record's JSON as the API sent it.
	KeepRaw bool
	// Fields, when not nil, are the JSON members to decode of each record
	// (memberships and payments); the others stay nil and are skipped in
	// the stream. The record's "_id" is always decoded.
	Fields []string
}

// MembershipQuery selects memberships.
type MembershipQuery struct {
	// Status, when set, is sent as the API's status filter on every page,
	// and checked on every record returned: records of another status are
	// left out, whatever the server did with the filter.
	Status *int64
	ListOptions
}

// Memberships reads every membership matching q, in API order.
func (c *Client) Memberships(ctx context.Context, q MembershipQuery) ([]Membership, error) {
	return readMemberships[Membership](ctx, c, "full", q, q.Fields)
}

// MembershipSummaries reads every membership matching q, in API order, as
// summaries: of each record only _id and email are decoded, and
// membership_type and membership_name when q.Fields names them (to filter
// by). KeepRaw is ignored. It is the lean read: a summary is a fifth of a
// Membership, which at a million memberships is most of the read's memory.
func (c *Client) MembershipSummaries(ctx context.Context, q MembershipQuery) ([]MembershipSummary, error) {
	q.KeepRaw = false
	return readMemberships[MembershipSummary](ctx, c, "summary", q, append([]string{"email"}, q.Fields...))
}

// readMemberships reads memberships as T, decoding the fields named (nil:
// all). kind tells the record types apart in the cache.
func readMemberships[T any, PT interface {
	*T
	record
	withStatus
	withOrganization
}](ctx context.Context, c *Client, kind string, q MembershipQuery, fields []string) ([]T, error) {
	req, err := c.countRequest(apispec.EndpointMemberships, c.cfg.Paths[apispec.EndpointMemberships], q.PageSize)
	if err != nil {
		return nil, err
	}
	if q.Status != nil {
		req.filters = url.Values{"status": {strconv.FormatInt(*q.Status, 10)}}
	}
	if q.Status != nil && fields != nil && !slices.Contains(fields, "status") {
		fields = append(slices.Clip(fields), "status") // checked on every record below
	}
	only, err := newFieldMask[T](c.withOrganizationField(fields))
	if err != nil {
		return nil, err
	}
	return get(ctx, c.cache, cacheKey(req, q.KeepRaw)+"|"+kind+"|"+only.key(), func(ctx context.Context) ([]T, error) {
		ms, err := readCountPages[T, PT](ctx, c, req, q.KeepRaw, only)
		if err == nil {
			err = checkOrganization[T, PT](c, req.endpoint, ms)
		}
		if err != nil || q.Status == nil {
			return ms, err
		}
		return keepStatus[T, PT](ctx, c, ms, *q.Status), nil
	}, recordCount[T])
}

// keepStatus leaves out memberships of another status than the filter
// asked for. A server that ignores the filter (or applies it loosely) would
// otherwise hand a module expired members where it asked for active ones:
// for SSO and access lists that is a security problem, not a detail.
func keepStatus[T any, PT interface {
	*T
	withStatus
}](ctx context.Context, c *Client, ms []T, status int64) []T {
	kept := ms[:0]
	for i := range ms {
		if s := PT(&ms[i]).statusValue(); s != nil && *s == status {
			kept = append(kept, ms[i])
		}
	}
	if dropped := len(ms) - len(kept); dropped > 0 {
		c.cfg.Logger.Warn(ctx, "the server returned memberships of another status than the status filter asked for; they were left out", map[string]any{
			"endpoint": apispec.EndpointMemberships, "status": status, "left_out": dropped, "kept": len(kept),
		})
	}
	clear(ms[len(kept):]) // let the left-out records go
	return kept
}

// Payments reads every payment, in API order.
func (c *Client) Payments(ctx context.Context, o ListOptions) ([]Payment, error) {
	req, err := c.countRequest(apispec.EndpointPayments, c.cfg.Paths[apispec.EndpointPayments], o.PageSize)
	if err != nil {
		return nil, err
	}
	only, err := newFieldMask[Payment](c.withOrganizationField(o.Fields))
	if err != nil {
		return nil, err
	}
	return get(ctx, c.cache, cacheKey(req, o.KeepRaw)+"|"+only.key(), func(ctx context.Context) ([]Payment, error) {
		return checked[Payment](c, req.endpoint)(readCountPages[Payment](ctx, c, req, o.KeepRaw, only))
	}, recordCount[Payment])
}

// Groups reads every group, in API order. Their raw JSON is always kept:
// the specification does not show the group fields.
func (c *Client) Groups(ctx context.Context, o ListOptions) ([]Group, error) {
	req, err := c.countRequest(apispec.EndpointGroups, c.cfg.Paths[apispec.EndpointGroups], o.PageSize)
	if err != nil {
		return nil, err
	}
	return get(ctx, c.cache, cacheKey(req, true), func(ctx context.Context) ([]Group, error) {
		return checked[Group](c, req.endpoint)(readCountPages[Group](ctx, c, req, true, nil))
	}, recordCount[Group])
}

// OrgMetrics reads every organization metrics record, in API order.
func (c *Client) OrgMetrics(ctx context.Context, o ListOptions) (*OrgMetrics, error) {
	size := o.PageSize
	if size == 0 {
		size = MaxLimit
	}
	if size < 1 || size > MaxLimit {
		return nil, fmt.Errorf("org_metrics: page size %d is out of range 1..%d", size, MaxLimit)
	}
	req := pageRequest{endpoint: apispec.EndpointOrgMetrics, path: c.cfg.Paths[apispec.EndpointOrgMetrics], sizeParam: "limit", size: size}
	return get(ctx, c.cache, cacheKey(req, o.KeepRaw), func(ctx context.Context) (*OrgMetrics, error) {
		m, err := readMetadataPages(ctx, c, req, o.KeepRaw)
		if err == nil {
			err = checkOrganization(c, req.endpoint, m.Results)
		}
		if err != nil {
			return nil, err
		}
		return m, nil
	}, func(m *OrgMetrics) int { return len(m.Results) })
}

// checked passes a read's records on when the organization guard holds for
// them, and fails the read when it does not.
func checked[T any, PT interface {
	*T
	withOrganization
}](c *Client, endpoint string) func([]T, error) ([]T, error) {
	return func(recs []T, err error) ([]T, error) {
		if err == nil {
			err = checkOrganization[T, PT](c, endpoint, recs)
		}
		if err != nil {
			return nil, err
		}
		return recs, nil
	}
}

func (c *Client) countRequest(endpoint, path string, size int) (pageRequest, error) {
	if size == 0 {
		size = MaxCount
	}
	if size < 1 || size > MaxCount {
		return pageRequest{}, fmt.Errorf("%s: page size %d is out of range 1..%d", endpoint, size, MaxCount)
	}
	return pageRequest{endpoint: endpoint, path: path, sizeParam: "count", size: size}, nil
}

func cacheKey(r pageRequest, keepRaw bool) string {
	// The endpoint is part of the key: two endpoints configured with the same
	// path must not share an entry of another record type.
	return fmt.Sprintf("%s|%s|%s|%s|%d|%t", r.endpoint, r.path, r.filters.Encode(), r.sizeParam, r.size, keepRaw)
}
