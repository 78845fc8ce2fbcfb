package client

import (
	"context"
	"fmt"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
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

// request is the first page's request of endpoint at the path it is read
// at, paged as apispec's table says; size 0 takes the endpoint's largest.
func (c *Client) request(endpoint string, size int) (pageRequest, error) {
	paging := apispec.Lookup(endpoint).Paging
	if size == 0 {
		size = paging.MaxSize
	}
	if err := paging.CheckSize(endpoint, size); err != nil {
		return pageRequest{}, err
	}
	return pageRequest{endpoint: endpoint, path: c.paths.of(endpoint), sizeParam: paging.SizeParam, size: size}, nil
}

// readList reads every record of a list endpoint paged by count (a JSON
// array), as T: what every such read but the memberships' filtered one is.
// kind tells apart, in the cache, reads of one endpoint into other types.
func readList[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, endpoint, kind string, o ListOptions) ([]T, error) {
	req, err := c.request(endpoint, o.PageSize)
	if err != nil {
		return nil, err
	}
	only, err := pagejson.NewMask[T](c.withOrganizationField(o.Fields))
	if err != nil {
		return nil, err
	}
	return get(ctx, c.cache, cacheKey(req, o.KeepRaw)+"|"+kind+"|"+only.Key(), func(ctx context.Context) ([]T, error) {
		return readAtEitherPath(ctx, c, req, func(req pageRequest) ([]T, error) {
			return readCountPages[T, PT](ctx, c, req, o.KeepRaw, only)
		})
	}, recordCount[T])
}

func cacheKey(r pageRequest, keepRaw bool) string {
	// The endpoint is part of the key: two endpoints configured with the same
	// path must not share an entry of another record type.
	return fmt.Sprintf("%s|%s|%s|%s|%d|%t", r.endpoint, r.path, r.filters.Encode(), r.sizeParam, r.size, keepRaw)
}
