package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// decodedPage is one decoded page of a list endpoint.
type decodedPage[T any] struct {
	records []decodedRecord[T]
	digest  uint64 // of the page's records, to notice a page served twice
}

// errDataChanged ends a concurrent read that saw a record twice: the data
// changed during the read, and pages answered out of order around the
// change may have skipped records. The read starts again one page at a time.
var errDataChanged = errors.New("the data changed during a concurrent read")

// readCountPages reads a count-style endpoint (page, count; JSON array
// answers) to its confirmed end; see countReader for the rules. A
// concurrent read that sees the data change is read again from page 1, one
// page at a time, which loses nothing to insertions.
func readCountPages[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, req pageRequest, keepRaw bool) ([]T, error) {
	start := time.Now()
	r := newCountReader[T, PT](ctx, c, req, keepRaw, c.cfg.MaxConcurrency)
	err := r.read()
	reread := false
	if errors.Is(err, errDataChanged) {
		c.cfg.Logger.Warn(ctx, "the data changed during a concurrent read (a record was served on two pages); reading again from page 1, one page at a time", map[string]any{
			"endpoint": req.endpoint, "page": r.changedAt,
		})
		r = newCountReader[T, PT](ctx, c, req, keepRaw, 1)
		err = r.read()
		reread = true
	}
	if err != nil {
		return nil, err
	}
	c.cfg.Logger.Debug(ctx, "read complete", map[string]any{
		"endpoint": req.endpoint, "records": len(r.acc.out), "pages": r.pages,
		"page_size": req.size, "server_page_size": r.pageSize,
		"duplicates_dropped": r.acc.duplicates,
		"requests_discarded": r.discarded, "reread": reread,
		"duration": time.Since(start).String(),
	})
	return r.acc.out, nil
}

// countReader holds one pass over a count-style endpoint. Its rules:
//
//   - The read ends on an empty page. A short page (fewer records than the
//     server serves per page) is confirmed by reading the next page: if that
//     one is empty, or refused with 400, 404 or 416 (servers that treat a
//     page past the end as an error), the short page was the last. If it has
//     records, the server serves fewer records per page than were asked
//     for; the read goes on until an empty page, and says so once at WARN.
//   - Slow start: page 1 is fetched alone, then more pages are in flight
//     as full pages come back (see slowStart); after a short page only its
//     confirmation page is fetched.
//   - A concurrent pass that sees a record twice stops with errDataChanged.
//   - Every page is checked for a server that is not advancing: a page
//     identical to an earlier one, or a full page of records already read.
//     One exception: a short page repeated as its own confirmation page is
//     an endpoint that does not paginate, and the short page is the end.
type countReader[T any, PT interface {
	*T
	record
}] struct {
	ctx         context.Context
	c           *Client
	req         pageRequest
	keepRaw     bool
	maxInFlight int
	acc         *accumulator[T, PT]
	digests     map[uint64]int // page digest -> first page it was seen on

	pageSize   int // records per page the server serves: req.size until shown otherwise
	longest    int // the most records one page held so far
	fullPages  int // full pages so far: the slow start grows with them
	prevShort  bool
	concurrent bool // more than one page was allowed in flight
	warnedSize bool

	pages, discarded, changedAt int
}

func newCountReader[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, req pageRequest, keepRaw bool, maxInFlight int) *countReader[T, PT] {
	return &countReader[T, PT]{
		ctx: ctx, c: c, req: req, keepRaw: keepRaw, maxInFlight: maxInFlight,
		acc:      newAccumulator[T, PT](),
		digests:  map[uint64]int{},
		pageSize: req.size,
	}
}

func (r *countReader[T, PT]) read() error {
	pages, discarded, err := readPages(r.ctx, r.maxInFlight,
		pagePlan{window: 1, last: r.c.cfg.MaxPages}, r.fetch, r.step)
	r.pages, r.discarded = pages, discarded
	if errors.Is(err, errPageCap) {
		return &PageError{Endpoint: r.req.endpoint, Page: pages, Reason: fmt.Sprintf("the read passed the cap of %d pages without an empty page; the server may be ignoring the page parameter", r.c.cfg.MaxPages), Err: ErrNotAdvancing}
	}
	return err
}

// fetch gets and decodes one page. It runs concurrently with other pages.
func (r *countReader[T, PT]) fetch(ctx context.Context, page int) (decodedPage[T], error) {
	q := r.req
	q.page = page
	body, err := r.c.fetch(ctx, q)
	if err != nil {
		return decodedPage[T]{}, err
	}
	body = r.c.repairText(ctx, body, r.req.endpoint, page)
	recs, err := decodeArray[T, PT](body, r.keepRaw)
	if err != nil {
		return decodedPage[T]{}, &PageError{Endpoint: r.req.endpoint, Page: page, Reason: "the response could not be decoded", Err: err}
	}
	return decodedPage[T]{records: recs, digest: digestOf(body)}, nil
}

// step takes the pages in order; see countReader for the rules.
func (r *countReader[T, PT]) step(page int, p decodedPage[T], fetchErr error) (pagePlan, error) {
	if fetchErr != nil {
		if page > 1 && refusesPageAfterEnd(fetchErr) {
			if !r.prevShort {
				r.c.cfg.Logger.Warn(r.ctx, "a page after a full page was refused; taking the full page as the last", map[string]any{
					"endpoint": r.req.endpoint, "page": page, "error": fetchErr.Error(),
				})
			}
			return pagePlan{done: true}, nil
		}
		return pagePlan{}, fetchErr
	}
	n := len(p.records)
	if n == 0 {
		return pagePlan{done: true}, nil
	}
	if earlier, ok := r.digests[p.digest]; ok {
		if r.prevShort && earlier == page-1 {
			// The server ignores the page parameter on this endpoint (it
			// does not paginate it): the short page was everything.
			r.c.cfg.Logger.Warn(r.ctx, "the page after a short page repeats it; the server seems to ignore the page parameter here, so the short page is taken as the end", map[string]any{
				"endpoint": r.req.endpoint, "page": page,
			})
			return pagePlan{done: true}, nil
		}
		return pagePlan{}, &PageError{Endpoint: r.req.endpoint, Page: page, Reason: fmt.Sprintf("the page is identical to page %d", earlier), Err: ErrNotAdvancing}
	}
	r.digests[p.digest] = page
	r.longest = max(r.longest, n)
	if r.prevShort {
		r.learnPageSize(page)
	}
	fresh := r.acc.keep(p.records, r.keepRaw)
	if r.concurrent && fresh < n {
		r.changedAt = page
		return pagePlan{}, errDataChanged
	}
	if fresh == 0 && n >= r.pageSize {
		return pagePlan{}, &PageError{Endpoint: r.req.endpoint, Page: page, Reason: "every record on this full page was already read on earlier pages", Err: ErrNotAdvancing}
	}
	last := r.c.cfg.MaxPages
	if n < r.pageSize {
		// Only the confirmation page. It may go one past the cap: a read
		// whose last page is MaxPages is not runaway paging.
		r.prevShort = true
		if page == last {
			last++
		}
		return pagePlan{window: 1, last: last}, nil
	}
	r.prevShort = false
	r.fullPages++
	window := slowStart(r.fullPages, r.maxInFlight)
	r.concurrent = r.concurrent || window > 1
	return pagePlan{window: window, last: last}, nil
}

// slowStart is how many pages may be in flight after full pages have come
// back: one before any, two for the next three pages, then twice as many
// with each further full page, up to maxInFlight. A list of up to three
// pages thus costs at most one request past its end, a longer one at most
// maxInFlight-1, while a large read soon runs at full concurrency.
func slowStart(fullPages, maxInFlight int) int {
	w := 1
	switch {
	case fullPages == 0:
	case fullPages <= 3:
		w = 2
	default:
		w = 2 << min(fullPages-3, 20)
	}
	return min(w, maxInFlight)
}

// learnPageSize runs when the page after a short page has records: either
// the server serves fewer records per page than asked for, or records were
// added at the end during the read.
func (r *countReader[T, PT]) learnPageSize(page int) {
	r.pageSize = min(r.longest, r.req.size)
	if r.pageSize < r.req.size && !r.warnedSize {
		r.warnedSize = true
		r.c.cfg.Logger.Warn(r.ctx, "the server serves fewer records per page than asked for; reading on until an empty page", map[string]any{
			"endpoint": r.req.endpoint, "page": page, "asked": r.req.size, "served": r.pageSize,
		})
	}
}

// refusesPageAfterEnd reports an answer that some servers give for a page
// past the last one instead of an empty page.
func refusesPageAfterEnd(err error) bool {
	var apiErr *APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.Status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusRequestedRangeNotSatisfiable:
		return true
	}
	return false
}
