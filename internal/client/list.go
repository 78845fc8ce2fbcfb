package client

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/paging"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/transport"
)

// ListOptions are the options every list read takes.
type ListOptions struct {
	PageSize int  // count or limit; 0 is the endpoint's maximum
	KeepRaw  bool // keep each record's JSON as sent
	// Fields, when not nil, are the JSON members decoded (and "_id").
	Fields []string
}

// listRead is one read of a list endpoint.
type listRead[T any] struct {
	endpoint string
	kind     string     // the record type, for the cache: "full", "summary"
	filters  url.Values // the same on every page
	fields   []string   // the JSON members decoded; nil: all
	opts     ListOptions
	filter   func(context.Context, []T) []T // what is kept of the records (the status check)
	retain   bool                           // keep the result for the run whatever its size
}

// listResult is a read's records (and a limit-style one's totalPages).
type listResult[T any] struct {
	records    []T
	totalPages int
}

// readList reads every record of a list endpoint, in API order, through
// the cache.
func readList[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, l listRead[T]) (out listResult[T], err error) {
	req, err := c.request(l.endpoint, l.opts.PageSize)
	if err != nil {
		return listResult[T]{}, err
	}
	req.filters = l.filters
	fields := l.fields
	if c.cfg.OrganizationID != "" {
		fields = pagejson.WithMember(fields, "organization_id") // for the record guard
	}
	only, err := pagejson.NewMask[T](fields)
	if err != nil {
		return listResult[T]{}, err
	}
	key := fmt.Sprintf("%s|%s|%s|%s|%d|%t|%s|%s", req.endpoint, req.path, req.filters.Encode(), req.sizeParam, req.size, l.opts.KeepRaw, l.kind, only.Key())
	if l.retain {
		defer func() {
			if err == nil {
				c.cache.retain(key, out)
			}
		}()
	}
	return get(ctx, c.cache, key, func(ctx context.Context) (listResult[T], error) {
		out, err := readToEnd[T, PT](ctx, c, req, l.opts.KeepRaw, only)
		if err == nil && l.filter != nil {
			out.records = l.filter(ctx, out.records)
		}
		return out, err
	}, func(r listResult[T]) int { return len(r.records) })
}

// readToEnd reads req to its end by the paging rules of its endpoint.
func readToEnd[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, req pageRequest, keepRaw bool, only pagejson.Mask) (listResult[T], error) {
	start := time.Now()
	pg := apispec.Lookup(req.endpoint).Paging
	rd := paging.Read[T]{
		Endpoint: req.endpoint, Size: req.size, DefaultSize: pg.DefaultSize, MaxSize: pg.MaxSize,
		MaxPages: c.cfg.MaxPages, MaxInFlight: c.cfg.MaxConcurrency, KeepRaw: keepRaw,
		Question: func(page, size int) string { return req.url(c.base, page, size) },
		Recycle:  transport.Recycle,
		NewGuard: func() paging.Guard[T] { return newRecordGuard[T, PT](c, req.endpoint, only == nil || keepRaw) },
		Budget:   budgetOf[T, PT](c, only),
		Answers:  c.answers,
		Logger:   c.cfg.Logger,
	}
	var out listResult[T]
	var stats paging.Stats
	var err error
	if pg.Metadata {
		rd.Fetch = fetchPage[T](c, req, func(body []byte, page int) (paging.Page[T], error) {
			return decodeMetadataPage[T](body, page, keepRaw)
		})
		out.records, out.totalPages, stats, err = paging.ReadLimit[T, PT](ctx, rd)
	} else {
		perPage := rd.Budget.RecordsPerPage()
		rd.Fetch = fetchPage[T](c, req, func(body []byte, page int) (paging.Page[T], error) {
			recs, err := pagejson.DecodeArrayAtMost[T](body, keepRaw, only, perPage)
			if errors.As(err, new(*pagejson.TooManyRecordsError)) {
				return paging.Page[T]{}, rd.Budget.PageTooLarge(req.endpoint, page)
			}
			return paging.Page[T]{Records: recs, Body: body}, err
		})
		out.records, stats, err = paging.ReadCount[T, PT](ctx, rd)
	}
	if err != nil {
		return listResult[T]{}, err
	}
	c.cfg.Logger.Debug(ctx, "read complete", map[string]any{
		"endpoint": req.endpoint, "records": len(out.records), "page_size": req.size, "duration": time.Since(start).String(),
		"pages": stats.Pages, "server_page_size": stats.ServerPageSize, "total_pages": stats.TotalPages,
		"duplicates_dropped": stats.Duplicates, "requests_discarded": stats.Discarded, "reread": stats.Reread,
	})
	return out, nil
}

// fetchPage is the paging rules' Fetch for req: one GET, its body repaired
// and decoded inside the retry loop, once it has arrived.
func fetchPage[T any](c *Client, req pageRequest, decode func(body []byte, page int) (paging.Page[T], error)) func(context.Context, int, int) (paging.Page[T], error) {
	return func(ctx context.Context, page, size int) (paging.Page[T], error) {
		var p paging.Page[T]
		err := c.transport.Get(ctx, transport.Request{
			Endpoint: req.endpoint, Page: page, URL: req.url(c.base, page, size),
			Accept: func(body []byte) error {
				paging.Arrived(ctx) // decoded beside the network: the next page may leave
				if fixed, values := pagejson.RepairStrings(body); values > 0 {
					c.cfg.Logger.Warn(ctx, "replaced text that is not valid Unicode with U+FFFD", map[string]any{
						"endpoint": req.endpoint, "page": page, "values_repaired": values,
					})
					transport.Recycle(body) // the repaired copy is decoded instead
					body = fixed
				}
				var err error
				if p, err = decode(body, page); err != nil {
					transport.Recycle(body)
					if errors.As(err, new(*failure.BudgetError)) {
						return transport.Final(err) // what the page holds, not how it came
					}
					err = failure.Redacted(err, c.cfg.Token) // a decoding error may quote what the server sent
					if errors.As(err, new(*pagejson.RefusedValue)) {
						return transport.Final(err) // the same answer would be refused again
					}
					return err
				}
				return nil
			},
		})
		if over, ok := errors.AsType[*failure.BudgetError](err); ok {
			return p, over // it names the endpoint and the page itself
		}
		return p, err
	}
}

// decodeMetadataPage decodes a limit-style page; one naming another page
// is a server not advancing, not retried.
func decodeMetadataPage[T any](body []byte, page int, keepRaw bool) (paging.Page[T], error) {
	m, err := pagejson.DecodeMetadata[T](body, page, keepRaw)
	var other *pagejson.OtherPageError
	if errors.As(err, &other) {
		return paging.Page[T]{}, transport.Final(fmt.Errorf("%w; it is not advancing through pages: %w", other, failure.ErrNotAdvancing))
	}
	return paging.Page[T]{Records: m.Records, TotalPages: m.TotalPages, Results: m.Results}, err
}

// pageRequest names the pages of one endpoint read.
type pageRequest struct {
	endpoint  string // e.g. "memberships"
	path      string // relative to the base URL
	filters   url.Values
	sizeParam string // "count" or "limit"
	size      int    // the page size asked for
}

// url is the URL of one page of size records.
func (r pageRequest) url(base *url.URL, page, size int) string {
	q := url.Values{}
	for k, vs := range r.filters {
		q[k] = vs
	}
	q.Set("page", strconv.Itoa(page))
	q.Set(r.sizeParam, strconv.Itoa(size))
	u := *base
	u.Path = base.Path + r.path
	u.RawQuery = q.Encode()
	return u.String()
}

// request is endpoint's request at the path it is read at; size 0 is the
// largest.
func (c *Client) request(endpoint string, size int) (pageRequest, error) {
	paging := apispec.Lookup(endpoint).Paging
	if size == 0 {
		size = paging.MaxSize
	}
	if err := paging.CheckSize(endpoint, size); err != nil {
		return pageRequest{}, err
	}
	return pageRequest{endpoint: endpoint, path: c.cfg.Paths[endpoint], sizeParam: paging.SizeParam, size: size}, nil
}

// budgetOf is the budget of a read of T decoded through only.
func budgetOf[T any, PT interface {
	*T
	record
}](c *Client, only pagejson.Mask) paging.Budget[T] {
	width := len(only)
	if only == nil {
		width = len(pagejson.FieldIndex(reflect.TypeFor[T]()))
	}
	return paging.Budget[T]{MaxValues: c.cfg.MaxValues, MaxBytes: c.cfg.MaxBytes, MaxRecordValues: MaxRecordValues, Width: int64(width),
		Weigh: func(r *T) (int64, int64) { return PT(r).weigh() }}
}
