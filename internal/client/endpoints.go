package client

import (
	"fmt"
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
