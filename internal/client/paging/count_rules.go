package paging

import (
	"fmt"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// The rules of a count-style read, in the order step meets them
// (DESIGN.md, "Paging rules").

// refused decides what a failed page means: after a full page, a refusal
// cannot be told from a server that stops in the middle of the list (after
// a short page, step takes it as an empty page).
func (r *countReader[T, PT]) refused(page int, err error) error {
	if page > 1 && refusesPageAfterEnd(err) {
		return &failure.PageError{Endpoint: r.rd.Endpoint, Page: page, Err: err, Reason: fmt.Sprintf(
			"the page after the full page %d was refused; a server that refuses pages past the end cannot be told from one that stops in the middle of the list, so the read fails rather than return a list that may be partial (a different page_size may avoid it)", page-1)}
	}
	return err
}

// repeated catches a page identical to an earlier one: a server not
// advancing, or (page 2 after a short page 1) one that does not paginate.
func (r *countReader[T, PT]) repeated(page int, p decodedPage[T]) (plan pagePlan, repeated bool, err error) {
	earlier, ok := r.bodies[p.bodyHash]
	if !ok {
		r.bodies[p.bodyHash] = page
		return pagePlan{}, false, nil
	}
	if page == 2 && r.prevShort {
		plan, err = r.notPaginatedOrShifted(p)
		return plan, true, err
	}
	return pagePlan{}, true, &failure.PageError{Endpoint: r.rd.Endpoint, Page: page, Reason: fmt.Sprintf("the page is identical to page %d", earlier), Err: failure.ErrNotAdvancing}
}

// learnFrom notes page 1's answer, the longest page, and after a short
// page the server's own page size.
func (r *countReader[T, PT]) learnFrom(page int, p decodedPage[T]) {
	if page == 1 {
		r.firstSaid = p.said
	}
	r.longest = max(r.longest, len(p.records))
	if r.prevShort {
		r.learnPageSize(page)
	}
}

// keepFresh keeps the page's records not read before. In a concurrent pass
// a record seen twice is ErrDataChanged; a page of nothing new, full or
// after another, is a server not advancing.
func (r *countReader[T, PT]) keepFresh(page int, p decodedPage[T]) error {
	n := len(p.records)
	fresh, err := r.acc.keep(page, p.records, r.rd.KeepRaw)
	r.rd.Recycle(p.body) // the kept records hold copies, not the body
	if err != nil {
		return err
	}
	if r.concurrent && fresh < n {
		r.changedAt = page
		return ErrDataChanged
	}
	if fresh == 0 && (n >= r.pageSize || r.prevStale) {
		return &failure.PageError{Endpoint: r.rd.Endpoint, Page: page, Reason: "every record on this page was already read on earlier pages, as on the page before or on a full page", Err: failure.ErrNotAdvancing}
	}
	r.prevStale = fresh == 0
	return nil
}

// next plans the pages after a page of n records, fingerprinted in prints:
// after a short page only its confirmation (after a short page 1 with the
// other question its end would ask), after a full one as many as
// slowStart allows.
func (r *countReader[T, PT]) next(page, n int, prints []uint64) pagePlan {
	last := r.rd.MaxPages
	if n < r.pageSize {
		// Only the confirmation page, which may go one past the cap.
		r.prevShort = true
		if page == 1 {
			// Ask for the rest in pages of what the server served: page
			// 2 then starts after page 1's last record however a server
			// that caps count places its pages.
			r.count = n
			r.sendAhead(2, prints)
		}
		if page == last {
			last++
		}
		return pagePlan{inFlight: 1, last: last}
	}
	r.prevShort = false
	r.fullPages++
	plan := slowStart(r.fullPages, r.maxInFlight)
	r.concurrent = r.concurrent || plan.inFlight > 1
	plan.last = last
	return plan
}

// slowStart is the pages in flight after full pages came back: page 1
// alone (its size may change the count asked for), then all of
// maxInFlight. Until a page past page 1 came back full, each keeps its
// place until handed over: most lists end within them, and a place freed
// at arrival would ask past their end. Then an arrived page gives its
// place to the next while it decodes.
func slowStart(fullPages, maxInFlight int) pagePlan {
	switch fullPages {
	case 0:
		return pagePlan{inFlight: 1}
	case 1:
		return pagePlan{inFlight: maxInFlight, keepPlaces: true}
	}
	return pagePlan{inFlight: maxInFlight}
}

// notPaginatedOrShifted decides what a page 2 identical to a short page 1
// means: a server that ignores page (page 1 was everything), or a page of
// records inserted at the front meanwhile. Page 1 asked again tells.
func (r *countReader[T, PT]) notPaginatedOrShifted(p decodedPage[T]) (pagePlan, error) {
	again, err := r.fetch(r.ctx, 1)
	if err != nil {
		return pagePlan{}, err
	}
	defaultCount := r.rd.DefaultSize
	if again.bodyHash == p.bodyHash && len(p.records) == defaultCount && r.rd.Size != defaultCount {
		return pagePlan{}, &failure.PageError{Endpoint: r.rd.Endpoint, Page: 2, Err: failure.ErrNotAdvancing, Reason: fmt.Sprintf(
			"the server serves the same %d records (the API's default count) whatever page and count are asked for: the rest of the list, if any, cannot be read", defaultCount)}
	}
	if again.bodyHash == p.bodyHash {
		r.rd.Logger.Warn(r.ctx, "the server ignores the page parameter on this endpoint; its one short page is the whole list", map[string]any{
			"endpoint": r.rd.Endpoint, "records": len(p.records),
		})
		return pagePlan{done: true}, nil
	}
	r.changedAt = 1
	if r.rereading {
		return pagePlan{}, &failure.PageError{Endpoint: r.rd.Endpoint, Page: 1, Reason: "the list changed at its front while it was read, and again while it was read again; try again later", Err: ErrDataChanged}
	}
	return pagePlan{}, ErrDataChanged
}

// learnPageSize runs when the page after a short page has records: the
// server serves fewer per page than asked, or records were added meanwhile.
func (r *countReader[T, PT]) learnPageSize(page int) {
	r.pageSize = min(r.longest, r.rd.Size)
	if r.pageSize < r.rd.Size && !r.warnedSize {
		r.warnedSize = true
		r.rd.Logger.Warn(r.ctx, "the server serves fewer records per page than asked for; reading on until an empty page", map[string]any{
			"endpoint": r.rd.Endpoint, "page": page, "asked": r.rd.Size, "served": r.pageSize,
		})
	}
}
