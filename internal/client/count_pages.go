package client

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
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
}](ctx context.Context, c *Client, req pageRequest, keepRaw bool, only pagejson.Mask) ([]T, error) {
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
	only        pagejson.Mask // the fields decoded; nil: all
	maxInFlight int
	acc         *accumulator[T, PT]
	digests     map[uint64]int // page digest -> first page it was seen on

	pageSize   int // records per page the server serves: req.size until shown otherwise
	longest    int // the most records one page held so far
	fullPages  int // full pages so far: the slow start grows with them
	prevShort  bool
	prevStale  bool   // the last page held only records read before
	count      int    // the count sent: req.size, or what a short page 1 held
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
	front   *frontCheck[T]
	frontAt int
	reask   *pendingAsk[T]
	// lastHanded is the last page step took.
	lastHanded int

	pages, discarded, changedAt int
}

func newCountReader[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, req pageRequest, keepRaw bool, only pagejson.Mask, maxInFlight int) *countReader[T, PT] {
	return &countReader[T, PT]{
		ctx: ctx, c: c, req: req, keepRaw: keepRaw, only: only, maxInFlight: maxInFlight,
		acc:      newAccumulator[T, PT](c.newOrgGuard(req.endpoint)),
		digests:  map[uint64]int{},
		pageSize: req.size, count: req.size,
	}
}

func (r *countReader[T, PT]) read() error {
	pages, discarded, err := readPages(r.ctx, r.maxInFlight,
		pagePlan{window: 1, last: r.c.cfg.MaxPages}, pageSource[decodedPage[T]](r))
	r.pages, r.discarded = pages, discarded
	if errors.Is(err, errPageCap) {
		return &PageError{Endpoint: r.req.endpoint, Page: pages, Reason: fmt.Sprintf("the read passed the cap of %d pages without an empty page; the server may be ignoring the page parameter", r.c.cfg.MaxPages), Err: ErrNotAdvancing}
	}
	if err != nil || !r.concurrent {
		r.dropPending()
		return err
	}
	err = r.checkFrontUnchanged()
	r.dropPending()
	return err
}

// checkFrontUnchanged asks for page 1 again after a concurrent read. Pages
// answered out of order around records inserted at the front leave a gap:
// a page served before the insert, the page below it served after. A small
// insert shows as a record seen twice, but one of two pages or more does
// not. Page 1 holding other records than it did is the sure sign; then the
// read starts again, one page at a time. Records inserted further down the
// list cannot be noticed this way (see the paging docs).
func (r *countReader[T, PT]) checkFrontUnchanged() error {
	again, err := r.frontAnswer()
	if err != nil {
		return err
	}
	if again.said.digest != r.firstSaid.digest {
		// One answer against one: a front that changed, or a page 1
		// answered short or empty for a moment. A third tells them apart.
		again, err = secondOpinion(r.ctx, r.req.endpoint, 1, []answer{r.firstSaid, again.said}, r.ask, pageSaid[T])
		if err != nil {
			return err
		}
	}
	recycleBody(again.body)
	if again.said.digest != r.firstSaid.digest {
		r.changedAt = 1
		return errDataChanged
	}
	return nil
}

// frontCheck is page 1 asked again, in flight.
type frontCheck[T any] struct {
	done   chan struct{}
	page   decodedPage[T]
	err    error
	cancel context.CancelFunc
}

// sendFrontCheckAtEnd sends the closing check of page 1 when a page of a
// concurrent read claims the end (empty, or short): every page with
// records before it has been answered, which is all the check needs, and
// the end's second answer takes a round trip that the check can share.
func (r *countReader[T, PT]) sendFrontCheckAtEnd(page, n int) {
	if !r.concurrent || page < 2 || (n > 0 && n >= r.longest) || r.front != nil {
		// A check in flight was sent after every page with records so
		// far; one sent too early is dropped by step.
		return
	}
	ctx, cancel := context.WithCancel(r.ctx)
	f := &frontCheck[T]{done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(f.done)
		f.page, f.err = r.ask(ctx, 1)
	}()
	r.front, r.frontAt = f, page
}

// frontAnswer is page 1 asked again: the check sent at the end, or a new
// ask when none is in flight.
func (r *countReader[T, PT]) frontAnswer() (decodedPage[T], error) {
	f := r.front
	if f == nil {
		return r.ask(r.ctx, 1)
	}
	r.front = nil
	defer f.cancel()
	select {
	case <-f.done:
		return f.page, f.err
	case <-r.ctx.Done():
		return decodedPage[T]{}, r.ctx.Err()
	}
}

// beyondEnd looks at a page past the confirmed end that was already
// answered: records there say the end was false. Read again, one page at
// a time, rather than return the shorter list.
func (r *countReader[T, PT]) beyondEnd(page int, p decodedPage[T]) error {
	recycleBody(p.body)
	if len(p.records) == 0 {
		return nil
	}
	r.c.cfg.Logger.Warn(r.ctx, "a page past the end of the list holds records: the end was not true", map[string]any{
		"endpoint": r.req.endpoint, "page": page, "records": len(p.records),
	})
	r.changedAt = page
	if r.rereading {
		return &PageError{Endpoint: r.req.endpoint, Page: page, Err: ErrInconsistentAnswers, Reason: "the page holds records, though an earlier page ended the list (asked twice); the server's pages do not agree with each other: try again later"}
	}
	return errDataChanged
}

// checkShortFirstPage runs when page 2 holds more records than page 1 did
// (the count asked for it): the server does not honour count, so page 2
// did not test page 1's shortness, as it does on a server that does. Page
// 1 is asked again; a page 1 that was cut short for a moment then shows
// more records, and the read starts again, one page at a time.
func (r *countReader[T, PT]) checkShortFirstPage() error {
	again, err := r.ask(r.ctx, 1)
	if err == nil && again.said.digest != r.firstSaid.digest {
		again, err = secondOpinion(r.ctx, r.req.endpoint, 1, []answer{r.firstSaid, again.said}, r.ask, pageSaid[T])
	}
	if err != nil {
		return err
	}
	recycleBody(again.body)
	if again.said.digest == r.firstSaid.digest {
		return nil
	}
	r.changedAt = 1
	if r.rereading {
		return &PageError{Endpoint: r.req.endpoint, Page: 1, Err: ErrInconsistentAnswers, Reason: "page 1 held other records when asked again, in the read and again in the read that followed; try again later"}
	}
	return errDataChanged
}

// answerOf reduces a page to what it says: its records' ids in order, or
// its bytes when a record has no id.
func answerOf[T any, PT interface {
	*T
	record
}](recs []pagejson.Record[T], digest uint64) answer {
	ids := newIDsHash()
	for i := range recs {
		id := PT(&recs[i].Rec).dedupKey()
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

// decodeBound lets every core decode while decoding holds this read up.
func (r *countReader[T, PT]) decodeBound(bound bool) { r.c.decoders.decodeBound(bound) }

// endClaimed sends what the end claimed at page needs once every page
// before it is answered, before they are decoded and handed over: the
// page asked again (its second answer) and, in a concurrent read, the
// closing check of page 1. step takes them when page's turn comes.
func (r *countReader[T, PT]) endClaimed(page int, empty bool) {
	if r.wantsSecondAnswer(page, empty) && r.reask == nil {
		ctx, cancel := context.WithCancel(r.ctx)
		a := &pendingAsk[T]{page: page, done: make(chan struct{}), cancel: cancel}
		go func() {
			defer close(a.done)
			a.p, a.err = r.askOrEmpty(ctx, page)
		}()
		r.reask = a
	}
	if page > 1 {
		r.sendFrontCheckAtEnd(page, 0)
	}
}

// wantsSecondAnswer says whether step will ask page again when its turn
// comes, as endsHere will decide it, from what is known before then: the
// pages between the last handed over and page claimed no end, so they
// are full.
func (r *countReader[T, PT]) wantsSecondAnswer(page int, empty bool) bool {
	switch {
	case page == 1:
		return empty // a short page 1 is tested by page 2
	case !empty:
		return true // a short page
	case r.lastHanded < page-1:
		return true // an empty page after a full one
	}
	return !(r.prevShort && r.prevConfirmed)
}

// pendingAsk is a page asked again, in flight.
type pendingAsk[T any] struct {
	page   int
	done   chan struct{}
	p      decodedPage[T]
	err    error
	cancel context.CancelFunc
}

// wait is the page's answer, or ctx's end.
func (a *pendingAsk[T]) wait(ctx context.Context) (decodedPage[T], error) {
	defer a.cancel()
	select {
	case <-a.done:
		return a.p, a.err
	case <-ctx.Done():
		return decodedPage[T]{}, ctx.Err()
	}
}

// askAgain asks a page again for its second answer: the ask endClaimed
// sent, when it was for this page, or a new one.
func (r *countReader[T, PT]) askAgain(ctx context.Context, page int) (decodedPage[T], error) {
	if a := r.reask; a != nil {
		r.reask = nil
		if a.page == page {
			return a.wait(ctx)
		}
		a.cancel()
	}
	return r.askOrEmpty(ctx, page)
}

// dropPending cancels what endClaimed sent and the read will not use.
func (r *countReader[T, PT]) dropPending() {
	if r.reask != nil {
		r.reask.cancel()
		<-r.reask.done
		r.reask = nil
	}
	if r.front != nil {
		r.front.cancel()
		<-r.front.done
		r.front = nil
	}
}

// ask fetches a page outside the pager: a page asked again.
func (r *countReader[T, PT]) ask(ctx context.Context, page int) (decodedPage[T], error) {
	return r.fetch(ctx, page, nil)
}

// fetch gets and decodes one page. It runs concurrently with other pages.
// A body that does not decode is retried inside c.fetch.
func (r *countReader[T, PT]) fetch(ctx context.Context, page int, bytesIn func()) (decodedPage[T], error) {
	q := r.req
	q.page, q.size, q.bytesIn = page, r.count, bytesIn
	var p decodedPage[T]
	err := r.c.fetch(ctx, q, func(body []byte) error {
		if fixed := r.c.repairText(ctx, body, r.req.endpoint, page); len(body) > 0 && &fixed[0] != &body[0] {
			recycleBody(body) // the repaired copy is decoded instead
			body = fixed
		}
		recs, err := pagejson.DecodeArray[T](body, r.keepRaw, r.only)
		if err != nil {
			recycleBody(body)
			return r.c.withoutToken(r.c.describeBody(err))
		}
		digest := digestOf(body)
		p = decodedPage[T]{records: recs, digest: digest, body: body, question: q.url(r.c.base), said: answerOf[T, PT](recs, digest), asked: q.size}
		return nil
	})
	return p, err
}

// step takes the pages in order. Each
// concern reads on its own below, in the order a page meets them: a refused
// page, a repeated page, what the page teaches of the server's page size,
// the records kept, and what to fetch next.
func (r *countReader[T, PT]) step(page int, p decodedPage[T], fetchErr error) (pagePlan, error) {
	r.c.traceHanded(r.req.endpoint, page)
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
	return believeOrAsk(r.ctx, r.c, r.req.endpoint, page, p, p.question, r.endsHere(page, len(p.records)),
		pageSaid[T], r.askAgain, func(p decodedPage[T]) { recycleBody(p.body) })
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
func (r *countReader[T, PT]) question(page int) string {
	q := r.req
	q.page, q.size = page, r.count
	return q.url(r.c.base)
}

// refused decides what a failed page means. Only a short page's
// confirmation may be refused (step takes that as an empty page): after a
// full page, a refusal cannot be told from a server that stops serving in
// the middle of the list.
func (r *countReader[T, PT]) refused(page int, err error) (pagePlan, error) {
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
		r.firstSaid = p.said
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
	again, err := r.ask(r.ctx, 1)
	if err != nil {
		return pagePlan{}, err
	}
	// What a server that ignores count serves: the API's default count.
	defaultCount := apispec.CountPaging.DefaultSize
	if again.digest == p.digest && len(p.records) == defaultCount && r.req.size != defaultCount {
		return pagePlan{}, &PageError{Endpoint: r.req.endpoint, Page: 2, Err: ErrNotAdvancing, Reason: fmt.Sprintf(
			"the server serves the same %d records (the API's default count) whatever page and count are asked for: the rest of the list, if any, cannot be read", defaultCount)}
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
