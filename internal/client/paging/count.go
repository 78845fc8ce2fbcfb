package paging

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// decodedPage is one decoded page of a list endpoint.
type decodedPage[T any] struct {
	records  []pagejson.Record[T]
	digest   uint64 // of the page's records, to notice a page served twice
	body     []byte // what the records' raw JSON refers to, recycled once they are kept
	question string // the URL asked: the run's answers are compared by it
	asked    int    // the count asked for
	said     answer // what the page says, to compare with other answers to the question
}

// ErrDataChanged ends a read that saw the data change under it (a record on
// two pages of a concurrent read, or page 1 holding other records than it
// did): pages answered out of order around the change may have skipped
// records. The read starts again one page at a time.
var ErrDataChanged = errors.New("the data changed during the read")

// ReadCount reads a count-style endpoint (page, count; JSON array
// answers) to its confirmed end (DESIGN.md, "Paging rules"). A read that
// sees the data change is read again from page 1, one page at a time, which
// loses nothing to insertions.
func ReadCount[T any, PT interface {
	*T
	Record
}](ctx context.Context, rd Read[T]) ([]T, Stats, error) {
	r := newCountReader[T, PT](ctx, &rd, rd.MaxInFlight)
	err := r.read()
	reread := false
	if errors.Is(err, ErrDataChanged) {
		rd.Logger.Warn(ctx, "the data changed during the read (a record served on two pages, or page 1 changed); reading again from page 1, one page at a time", map[string]any{
			"endpoint": rd.Endpoint, "page": r.changedAt,
		})
		r = newCountReader[T, PT](ctx, &rd, 1)
		r.rereading = true
		err = r.read()
		reread = true
	}
	if err == nil {
		err = r.acc.guard.Err()
	}
	if err != nil {
		return nil, Stats{}, err
	}
	return r.acc.out, Stats{Pages: r.pages, ServerPageSize: r.pageSize, Duplicates: r.acc.duplicates,
		Discarded: r.discarded, Reread: reread}, nil
}

// countReader holds one pass over a count-style endpoint. Its rules are
// stated once, in DESIGN.md ("Paging rules"); here each is a method of
// step: refused (the end, or a refusal), repeated and keepFresh (not
// advancing, data changed), learnFrom (a server's own page size), next
// (the confirmation page and the slow start).
type countReader[T any, PT interface {
	*T
	Record
}] struct {
	ctx         context.Context
	rd          *Read[T]
	maxInFlight int
	acc         *accumulator[T, PT]
	digests     map[uint64]int // page digest -> first page it was seen on

	pageSize   int // records per page the server serves: rd.Size until shown otherwise
	longest    int // the most records one page held so far
	fullPages  int // full pages so far: the slow start grows with them
	prevShort  bool
	prevStale  bool   // the last page held only records read before
	count      int    // the count sent: rd.Size, or what a short page 1 held
	concurrent bool   // more than one page was allowed in flight
	rereading  bool   // this is the one-page-at-a-time read after a change
	firstSaid  answer // page 1's answer, asked again at the end of a concurrent read
	warnedSize bool
	// prevConfirmed: the page before was asked twice, with answers that
	// agree. An empty page after a short page so confirmed is the end.
	prevConfirmed bool
	// front is page 1 asked again, sent as soon as a page claimed the end
	// (frontAt): the closing check of a concurrent read leaves beside the
	// end's second answer instead of after it. reask is that second
	// answer, sent by endClaimed.
	front   *pendingAsk[T]
	frontAt int
	reask   *pendingAsk[T]
	// lastHanded is the last page step took.
	lastHanded int

	pages, discarded, changedAt int
}

func newCountReader[T any, PT interface {
	*T
	Record
}](ctx context.Context, rd *Read[T], maxInFlight int) *countReader[T, PT] {
	return &countReader[T, PT]{
		ctx: ctx, rd: rd, maxInFlight: maxInFlight,
		acc:      newAccumulator[T, PT](rd.guard()),
		digests:  map[uint64]int{},
		pageSize: rd.Size, count: rd.Size,
	}
}

func (r *countReader[T, PT]) read() error {
	var bound func(bool)
	if r.rd.Gate != nil {
		bound = r.rd.Gate.decodeBound
	}
	pages, discarded, err := readPages(r.ctx, r.maxInFlight,
		pagePlan{window: 1, last: r.rd.MaxPages}, pageSource[decodedPage[T]](r), bound)
	r.pages, r.discarded = pages, discarded
	if errors.Is(err, errPageCap) {
		return &failure.PageError{Endpoint: r.rd.Endpoint, Page: pages, Reason: fmt.Sprintf("the read passed the cap of %d pages without an empty page; the server may be ignoring the page parameter", r.rd.MaxPages), Err: failure.ErrNotAdvancing}
	}
	if err != nil || !r.concurrent {
		r.dropPending()
		return err
	}
	err = r.checkFrontUnchanged()
	r.dropPending()
	return err
}

// answerOf reduces a page to what it says: its records' ids in order, or
// its bytes when a record has no id.
func answerOf[T any, PT interface {
	*T
	Record
}](recs []pagejson.Record[T], digest uint64) answer {
	ids := newIDsHash()
	for i := range recs {
		id := PT(&recs[i].Rec).Key()
		if id == "" {
			return answer{digest: digest, records: len(recs)}
		}
		ids.add(id)
	}
	return answer{digest: ids.sum(), records: len(recs)}
}

func pageSaid[T any](p decodedPage[T]) answer { return p.said }

// claimsEnd is the last page worth sending if a page's answer is true: an
// empty page ends the read, a short one (fewer records than the count
// asked for) at its confirmation, the page after it.
func (r *countReader[T, PT]) claimsEnd(page int, p decodedPage[T]) int {
	switch n := len(p.records); {
	case n == 0:
		return page
	case n < p.asked:
		return page + 1
	}
	return 0
}

// ask fetches a page outside the schedule: a page asked again.
func (r *countReader[T, PT]) ask(ctx context.Context, page int) (decodedPage[T], error) {
	return r.fetch(ctx, page, nil)
}

// fetch gets and decodes one page. It runs concurrently with other pages.
func (r *countReader[T, PT]) fetch(ctx context.Context, page int, bytesIn func()) (decodedPage[T], error) {
	size := r.count
	p, err := r.rd.Fetch(ctx, page, size, bytesIn)
	if err != nil {
		return decodedPage[T]{}, err
	}
	digest := digestOf(p.Body)
	return decodedPage[T]{records: p.Records, digest: digest, body: p.Body, question: r.rd.Question(page, size),
		said: answerOf[T, PT](p.Records, digest), asked: size}, nil
}

// step takes the pages in order. Each
// concern reads on its own below, in the order a page meets them: a refused
// page, a repeated page, what the page teaches of the server's page size,
// the records kept, and what to fetch next.
func (r *countReader[T, PT]) step(page int, p decodedPage[T], fetchErr error) (pagePlan, error) {
	r.rd.handed(page)
	r.lastHanded = page
	if fetchErr != nil {
		if !r.prevShort || !refusesPageAfterEnd(fetchErr) {
			return r.refused(page, fetchErr)
		}
		// A refusal of the page after a short page says what an empty
		// page says: nothing here.
		p = decodedPage[T]{question: r.question(page), said: noRecords}
	}
	r.sendFrontCheckAtEnd(page, len(p.records))
	first := p.said
	p, confirmed, err := r.believe(page, p)
	if err != nil {
		return pagePlan{}, err
	}
	n := len(p.records)
	if r.front != nil && (p.said.digest != first.digest || (n > 0 && page > r.frontAt)) {
		// Records past the point the check was sent at: it may have been
		// served before them, so it is asked again at the next end.
		r.front.cancel()
		r.front = nil
	}
	if n == 0 {
		return pagePlan{done: true}, nil
	}
	if page == 2 && r.prevShort && n > r.count {
		if err := r.checkShortFirstPage(); err != nil {
			return pagePlan{}, err
		}
	}
	if plan, repeated, err := r.repeated(page, p); repeated {
		return plan, err
	}
	r.learnFrom(page, p)
	if err := r.keepFresh(page, p); err != nil {
		return pagePlan{}, err
	}
	plan := r.next(page, n)
	r.prevConfirmed = confirmed
	return plan, nil
}

// believe takes a page's answer as true, or first asks the page again
// (secondOpinion): when the answer would end the read (endsHere), or when
// it contradicts the answer the server gave to the same question earlier
// in the run. It returns the answer believed, and whether it was asked
// for twice.
func (r *countReader[T, PT]) believe(page int, p decodedPage[T]) (decodedPage[T], bool, error) {
	return believeOrAsk(r.ctx, r.rd.Book, r.rd.Endpoint, page, p, p.question, r.endsHere(page, len(p.records)),
		pageSaid[T], r.askAgain, func(p decodedPage[T]) { r.rd.recycle(p.body) })
}

// endsHere reports an answer that would end the read, or tell where it
// ends: an empty page (but the one after a short page already confirmed),
// and a short page other than page 1, whose shortness the page after it
// tests anyway (the rest is asked for in pages of what it held). Short is
// fewer records than the longest page so far: the count asked for, or
// what a server that caps or ignores count serves.
func (r *countReader[T, PT]) endsHere(page, n int) bool {
	if n == 0 {
		return !(r.prevShort && r.prevConfirmed)
	}
	return page > 1 && n < r.longest
}

// askOrEmpty asks a page again, where a refusal past the end agrees with
// an empty page.
func (r *countReader[T, PT]) askOrEmpty(ctx context.Context, page int) (decodedPage[T], error) {
	p, err := r.ask(ctx, page)
	if err != nil && page > 1 && refusesPageAfterEnd(err) {
		return decodedPage[T]{question: r.question(page), said: noRecords}, nil
	}
	return p, err
}

// question is the URL page is asked at, which the run's answers are
// compared by.
func (r *countReader[T, PT]) question(page int) string { return r.rd.Question(page, r.count) }

// refused decides what a failed page means. Only a short page's
// confirmation may be refused (step takes that as an empty page): after a
// full page, a refusal cannot be told from a server that stops serving in
// the middle of the list.
func (r *countReader[T, PT]) refused(page int, err error) (pagePlan, error) {
	if page > 1 && refusesPageAfterEnd(err) {
		return pagePlan{}, &failure.PageError{Endpoint: r.rd.Endpoint, Page: page, Err: err, Reason: fmt.Sprintf(
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
	return pagePlan{}, true, &failure.PageError{Endpoint: r.rd.Endpoint, Page: page, Reason: fmt.Sprintf("the page is identical to page %d", earlier), Err: failure.ErrNotAdvancing}
}

// learnFrom notes what a new page tells of the list and the server: page
// 1's records (checked again at the end), the longest page, and, after a
// short page, the server's own page size.
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
// a record seen twice means the data changed (ErrDataChanged); a page of
// nothing new is a server not advancing when the page is full or the page
// before was stale too.
func (r *countReader[T, PT]) keepFresh(page int, p decodedPage[T]) error {
	n := len(p.records)
	fresh := r.acc.keep(p.records, r.rd.KeepRaw)
	r.rd.recycle(p.body) // the kept records hold copies, not the body
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

// next plans the pages after a page of n records: after a short page only
// its confirmation, after a full one the slow-start window.
func (r *countReader[T, PT]) next(page, n int) pagePlan {
	last := r.rd.MaxPages
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
	again, err := r.ask(r.ctx, 1)
	if err != nil {
		return pagePlan{}, err
	}
	// What a server that ignores count serves: the API's default count.
	defaultCount := r.rd.DefaultSize
	if again.digest == p.digest && len(p.records) == defaultCount && r.rd.Size != defaultCount {
		return pagePlan{}, &failure.PageError{Endpoint: r.rd.Endpoint, Page: 2, Err: failure.ErrNotAdvancing, Reason: fmt.Sprintf(
			"the server serves the same %d records (the API's default count) whatever page and count are asked for: the rest of the list, if any, cannot be read", defaultCount)}
	}
	if again.digest == p.digest {
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

// learnPageSize runs when the page after a short page has records: either
// the server serves fewer records per page than asked for, or records were
// added at the end during the read.
func (r *countReader[T, PT]) learnPageSize(page int) {
	r.pageSize = min(r.longest, r.rd.Size)
	if r.pageSize < r.rd.Size && !r.warnedSize {
		r.warnedSize = true
		r.rd.Logger.Warn(r.ctx, "the server serves fewer records per page than asked for; reading on until an empty page", map[string]any{
			"endpoint": r.rd.Endpoint, "page": page, "asked": r.rd.Size, "served": r.pageSize,
		})
	}
}

// refusesPageAfterEnd reports an answer that some servers give for a page
// past the last one instead of an empty page.
func refusesPageAfterEnd(err error) bool {
	var apiErr *failure.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.Status {
	case http.StatusBadRequest, http.StatusNotFound, http.StatusRequestedRangeNotSatisfiable:
		return true
	}
	return false
}
