package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"time"
)

// decodedPage is one decoded page of a list endpoint.
type decodedPage[T any] struct {
	records []decodedRecord[T]
	digest  uint64 // of the page's records, to notice a page served twice
	body    []byte // what the records' raw JSON refers to, recycled once they are kept
}

// errDataChanged ends a read that saw the data change under it (a record on
// two pages of a concurrent read, or page 1 holding other records than it
// did): pages answered out of order around the change may have skipped
// records. The read starts again one page at a time.
var errDataChanged = errors.New("the data changed during the read")

// readCountPages reads a count-style endpoint (page, count; JSON array
// answers) to its confirmed end (DESIGN.md, "Paging rules"). A read that
// sees the data change is read again from page 1, one page at a time, which
// loses nothing to insertions.
func readCountPages[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, req pageRequest, keepRaw bool, only fieldMask) ([]T, error) {
	start := time.Now()
	r := newCountReader[T, PT](ctx, c, req, keepRaw, only, c.cfg.MaxConcurrency)
	err := r.read()
	reread := false
	if errors.Is(err, errDataChanged) {
		c.cfg.Logger.Warn(ctx, "the data changed during the read (a record served on two pages, or page 1 changed); reading again from page 1, one page at a time", map[string]any{
			"endpoint": req.endpoint, "page": r.changedAt,
		})
		r = newCountReader[T, PT](ctx, c, req, keepRaw, only, 1)
		r.rereading = true
		err = r.read()
		reread = true
	}
	if err == nil {
		err = r.acc.guard.err()
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

// countReader holds one pass over a count-style endpoint. Its rules are
// stated once, in DESIGN.md ("Paging rules"); here each is a method of
// step: refused (the end, or a refusal), repeated and keepFresh (not
// advancing, data changed), learnFrom (a server's own page size), next
// (the confirmation page and the slow start).
type countReader[T any, PT interface {
	*T
	record
}] struct {
	ctx         context.Context
	c           *Client
	req         pageRequest
	keepRaw     bool
	only        fieldMask // the fields decoded; nil: all
	maxInFlight int
	acc         *accumulator[T, PT]
	digests     map[uint64]int // page digest -> first page it was seen on

	pageSize   int // records per page the server serves: req.size until shown otherwise
	longest    int // the most records one page held so far
	fullPages  int // full pages so far: the slow start grows with them
	prevShort  bool
	prevStale  bool // the last page held only records read before
	count      int  // the count sent: req.size, or what a short page 1 held
	concurrent bool // more than one page was allowed in flight
	rereading  bool // this is the one-page-at-a-time read after a change
	firstKeys  []string
	warnedSize bool

	pages, discarded, changedAt int
}

func newCountReader[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, req pageRequest, keepRaw bool, only fieldMask, maxInFlight int) *countReader[T, PT] {
	return &countReader[T, PT]{
		ctx: ctx, c: c, req: req, keepRaw: keepRaw, only: only, maxInFlight: maxInFlight,
		acc:      newAccumulator[T, PT](c.newOrgGuard(req.endpoint)),
		digests:  map[uint64]int{},
		pageSize: req.size, count: req.size,
	}
}

func (r *countReader[T, PT]) read() error {
	pages, discarded, err := readPages(r.ctx, r.maxInFlight,
		pagePlan{window: 1, last: r.c.cfg.MaxPages}, r.fetch, r.step)
	r.pages, r.discarded = pages, discarded
	if errors.Is(err, errPageCap) {
		return &PageError{Endpoint: r.req.endpoint, Page: pages, Reason: fmt.Sprintf("the read passed the cap of %d pages without an empty page; the server may be ignoring the page parameter", r.c.cfg.MaxPages), Err: ErrNotAdvancing}
	}
	if err != nil || !r.concurrent {
		return err
	}
	return r.checkFrontUnchanged()
}

// checkFrontUnchanged asks for page 1 again after a concurrent read. Pages
// answered out of order around records inserted at the front leave a gap:
// a page served before the insert, the page below it served after. A small
// insert shows as a record seen twice, but one of two pages or more does
// not. Page 1 holding other records than it did is the sure sign; then the
// read starts again, one page at a time. Records inserted further down the
// list cannot be noticed this way (see the paging docs).
func (r *countReader[T, PT]) checkFrontUnchanged() error {
	again, err := r.fetch(r.ctx, 1)
	if err != nil {
		return err
	}
	if !slices.Equal(pageKeys[T, PT](again), r.firstKeys) {
		r.changedAt = 1
		return errDataChanged
	}
	return nil
}

// pageKeys identifies a page by its records' ids, so a record whose fields
// changed does not count as a change of the list; a page with a record
// without an id is identified by its bytes.
func pageKeys[T any, PT interface {
	*T
	record
}](p decodedPage[T]) []string {
	keys := make([]string, len(p.records))
	for i := range p.records {
		if keys[i] = PT(&p.records[i].rec).dedupKey(); keys[i] == "" {
			return []string{strconv.FormatUint(p.digest, 16)}
		}
	}
	return keys
}

// fetch gets and decodes one page. It runs concurrently with other pages.
func (r *countReader[T, PT]) fetch(ctx context.Context, page int) (decodedPage[T], error) {
	q := r.req
	q.page, q.size = page, r.count
	body, err := r.c.fetch(ctx, q)
	if err != nil {
		return decodedPage[T]{}, err
	}
	if fixed := r.c.repairText(ctx, body, r.req.endpoint, page); len(body) > 0 && &fixed[0] != &body[0] {
		recycleBody(body) // the repaired copy is decoded instead
		body = fixed
	}
	recs, err := decodeArray[T, PT](body, r.keepRaw, r.only)
	if err != nil {
		return decodedPage[T]{}, &PageError{Endpoint: r.req.endpoint, Page: page, Reason: "the response could not be decoded", Err: r.c.withoutToken(err)}
	}
	return decodedPage[T]{records: recs, digest: digestOf(body), body: body}, nil
}

// step takes the pages in order. Each
// concern reads on its own below, in the order a page meets them: a refused
// page, a repeated page, what the page teaches of the server's page size,
// the records kept, and what to fetch next.
func (r *countReader[T, PT]) step(page int, p decodedPage[T], fetchErr error) (pagePlan, error) {
	if fetchErr != nil {
		return r.refused(page, fetchErr)
	}
	n := len(p.records)
	if n == 0 {
		return pagePlan{done: true}, nil
	}
	if plan, repeated, err := r.repeated(page, p); repeated {
		return plan, err
	}
	r.learnFrom(page, p)
	if err := r.keepFresh(page, p); err != nil {
		return pagePlan{}, err
	}
	return r.next(page, n), nil
}

// refused decides what a failed page means. Only a short page's
// confirmation may be refused: after a full page, a refusal cannot be told
// from a server that stops serving in the middle of the list.
func (r *countReader[T, PT]) refused(page int, err error) (pagePlan, error) {
	if r.prevShort && refusesPageAfterEnd(err) {
		return pagePlan{done: true}, nil
	}
	if page > 1 && refusesPageAfterEnd(err) {
		return pagePlan{}, &PageError{Endpoint: r.req.endpoint, Page: page, Err: err, Reason: fmt.Sprintf(
			"the page after the full page %d was refused; a server that refuses pages past the end cannot be told from one that stops in the middle of the list, so the read fails rather than return a list that may be partial (a different page_size may avoid it)", page-1)}
	}
	return pagePlan{}, err
}

// repeated catches a page identical to an earlier one: a server that is
// not advancing, or (page 2 after a short page 1) one that does not
// paginate. repeated is false for a new page.
func (r *countReader[T, PT]) repeated(page int, p decodedPage[T]) (plan pagePlan, repeated bool, err error) {
	earlier, ok := r.digests[p.digest]
	if !ok {
		r.digests[p.digest] = page
		return pagePlan{}, false, nil
	}
	if page == 2 && r.prevShort {
		plan, err = r.notPaginatedOrShifted(p)
		return plan, true, err
	}
	return pagePlan{}, true, &PageError{Endpoint: r.req.endpoint, Page: page, Reason: fmt.Sprintf("the page is identical to page %d", earlier), Err: ErrNotAdvancing}
}

// learnFrom notes what a new page tells of the list and the server: page
// 1's records (checked again at the end), the longest page, and, after a
// short page, the server's own page size.
func (r *countReader[T, PT]) learnFrom(page int, p decodedPage[T]) {
	if page == 1 {
		r.firstKeys = pageKeys[T, PT](p)
	}
	r.longest = max(r.longest, len(p.records))
	if r.prevShort {
		r.learnPageSize(page)
	}
}

// keepFresh keeps the page's records not read before. In a concurrent pass
// a record seen twice means the data changed (errDataChanged); a page of
// nothing new is a server not advancing when the page is full or the page
// before was stale too.
func (r *countReader[T, PT]) keepFresh(page int, p decodedPage[T]) error {
	n := len(p.records)
	fresh := r.acc.keep(p.records, r.keepRaw)
	recycleBody(p.body) // the kept records hold copies, not the body
	if r.concurrent && fresh < n {
		r.changedAt = page
		return errDataChanged
	}
	if fresh == 0 && (n >= r.pageSize || r.prevStale) {
		return &PageError{Endpoint: r.req.endpoint, Page: page, Reason: "every record on this page was already read on earlier pages, as on the page before or on a full page", Err: ErrNotAdvancing}
	}
	r.prevStale = fresh == 0
	return nil
}

// next plans the pages after a page of n records: after a short page only
// its confirmation, after a full one the slow-start window.
func (r *countReader[T, PT]) next(page, n int) pagePlan {
	last := r.c.cfg.MaxPages
	if n < r.pageSize {
		// Only the confirmation page. It may go one past the cap: a read
		// whose last page is MaxPages is not runaway paging.
		r.prevShort = true
		if page == 1 {
			// Ask for the rest in pages of what the server served: if it
			// caps count, page 2 then starts after page 1's last record
			// whether it places pages by the count asked or by the count
			// served; if page 1 was the whole list, page 2 is empty either
			// way. Nothing else is in flight: page 1 was fetched alone.
			r.count = n
		}
		if page == last {
			last++
		}
		return pagePlan{window: 1, last: last}
	}
	r.prevShort = false
	r.fullPages++
	window := slowStart(r.fullPages, r.maxInFlight)
	r.concurrent = r.concurrent || window > 1
	return pagePlan{window: window, last: last}
}

// slowStart is how many pages may be in flight after full pages have come
// back: one before any, maxInFlight after the first. Page 1 must come back
// alone (its size may change the count asked for, and the check of page 1
// at the end relies on it having been served before any other page); after
// that, anything less than the full window costs a round trip on every
// long read, for a saving of at most maxInFlight-1 requests past the end of
// a short one. The shared send window (window.go) is what holds back a
// client that meets a rate limit.
func slowStart(fullPages, maxInFlight int) int {
	if fullPages == 0 {
		return 1
	}
	return maxInFlight
}

// notPaginatedOrShifted decides what a page 2 identical to a short page 1
// means. Either the server ignores the page parameter on this endpoint
// (does not paginate it), and page 1 was everything; or exactly a page of
// records was inserted at the front between the two requests. Page 1 asked
// again tells them apart: unchanged, it is the whole list; changed, the
// data changed and the read starts again.
func (r *countReader[T, PT]) notPaginatedOrShifted(p decodedPage[T]) (pagePlan, error) {
	again, err := r.fetch(r.ctx, 1)
	if err != nil {
		return pagePlan{}, err
	}
	if again.digest == p.digest && len(p.records) == DefaultCount && r.req.size != DefaultCount {
		return pagePlan{}, &PageError{Endpoint: r.req.endpoint, Page: 2, Err: ErrNotAdvancing, Reason: fmt.Sprintf(
			"the server serves the same %d records (the API's default count) whatever page and count are asked for: the rest of the list, if any, cannot be read", DefaultCount)}
	}
	if again.digest == p.digest {
		r.c.cfg.Logger.Warn(r.ctx, "the server ignores the page parameter on this endpoint; its one short page is the whole list", map[string]any{
			"endpoint": r.req.endpoint, "records": len(p.records),
		})
		return pagePlan{done: true}, nil
	}
	r.changedAt = 1
	if r.rereading {
		return pagePlan{}, &PageError{Endpoint: r.req.endpoint, Page: 1, Reason: "the list changed at its front while it was read, and again while it was read again; try again later", Err: errDataChanged}
	}
	return pagePlan{}, errDataChanged
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
