package paging

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// decodedPage is one decoded page of a list endpoint.
type decodedPage[T any] struct {
	records  []pagejson.Record[T]
	bodyHash uint64 // of the page's bytes, to notice a page served twice
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
	if err = r.acc.verdict(err); err != nil {
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
	bodies      map[uint64]int // page body hash -> first page it was seen on

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
	// prevPrints fingerprint the records of the last page handed over:
	// what an other question must repeat before an end at the next page.
	prevPrints []uint64

	pages, discarded, changedAt int
}

func newCountReader[T any, PT interface {
	*T
	Record
}](ctx context.Context, rd *Read[T], maxInFlight int) *countReader[T, PT] {

	return &countReader[T, PT]{
		ctx: ctx, rd: rd, maxInFlight: maxInFlight,
		acc:      newAccumulator[T, PT](rd),
		bodies:   map[uint64]int{},
		pageSize: rd.Size, count: rd.Size,
	}
}

func (r *countReader[T, PT]) read() error {
	pages, discarded, err := readPages(r.ctx, r.maxInFlight,
		pagePlan{inFlight: 1, last: r.rd.MaxPages}, pageSource[decodedPage[T]](r))
	r.pages, r.discarded = pages, discarded
	if errors.Is(err, errPageCap) {
		return &failure.PageError{Endpoint: r.rd.Endpoint, Page: pages, Reason: fmt.Sprintf("the read passed the cap of %d pages without an empty page; the server may be ignoring the page parameter", r.rd.MaxPages), Err: failure.ErrNotAdvancing}
	}
	if err != nil || !r.concurrent {
		return err
	}
	return r.checkPageOneUnchanged()
}

// answerOf reduces a page to what it says: its records' ids in order, or
// its bytes when a record has no id.
func answerOf[T any, PT interface {
	*T
	Record
}](recs []pagejson.Record[T], bodyHash uint64) answer {

	ids := newIDsHash()
	for i := range recs {
		id := PT(&recs[i].Rec).Key()
		if id == "" {
			return answer{digest: bodyHash, records: len(recs)}
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
	return r.fetch(ctx, page)
}

// fetch gets and decodes one page. It runs concurrently with other pages.
func (r *countReader[T, PT]) fetch(ctx context.Context, page int) (decodedPage[T], error) {
	size := r.count
	p, err := r.rd.Fetch(ctx, page, size)
	if err != nil {
		return decodedPage[T]{}, err
	}
	bodyHash := hashBody(p.Body)
	return decodedPage[T]{records: p.Records, bodyHash: bodyHash, body: p.Body, question: r.rd.Question(page, size),
		said: answerOf[T, PT](p.Records, bodyHash), asked: size}, nil
}

// step takes the pages in order. Each
// concern reads on its own below, in the order a page meets them: a refused
// page, a repeated page, what the page teaches of the server's page size,
// the records kept, and what to fetch next.
func (r *countReader[T, PT]) step(page int, p decodedPage[T], fetchErr error) (pagePlan, error) {
	if fetchErr != nil {
		if !r.prevShort || !refusesPageAfterEnd(fetchErr) {
			return pagePlan{}, r.refused(page, fetchErr)
		}
		// A refusal of the page after a short page says what an empty
		// page says: nothing here.
		p = decodedPage[T]{question: r.question(page), said: noRecords}
	}
	p, confirmed, err := r.believe(page, p)
	if err != nil {
		return pagePlan{}, err
	}
	n := len(p.records)
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
	prints := printsOf[T, PT](p.records) // before keepFresh recycles the body
	if err := r.keepFresh(page, p); err != nil {
		return pagePlan{}, err
	}
	plan := r.next(page, n)
	r.prevConfirmed = confirmed
	r.prevPrints = prints
	return plan, nil
}

// believe takes a page's answer as true, or first asks the page again
// (askUntilTwoAgree): when the answer would end the read (endsHere), or when
// it contradicts the answer the server gave to the same question earlier
// in the run. It returns the answer believed, and whether it was asked
// for twice.
func (r *countReader[T, PT]) believe(page int, p decodedPage[T]) (believed decodedPage[T], confirmed bool, err error) {
	if !r.endsHere(page, len(p.records)) {
		return confirmOrAskAgain(r.ctx, r.rd.Answers, r.rd.Endpoint, page, p, p.question, false,
			pageSaid[T], r.askOrEmpty, func(p decodedPage[T]) { r.rd.recycle(p.body) })
	}
	if c, ok := r.claimAt(page, len(p.records)); ok {
		c.held = append(slices.Clip(r.prevPrints), printsOf[T, PT](p.records)...)
		return r.confirmEnd(page, p, c, 0)
	}
	return confirmOrAskAgain(r.ctx, r.rd.Answers, r.rd.Endpoint, page, p, p.question, true,
		pageSaid[T], r.askOrEmpty, func(p decodedPage[T]) { r.rd.recycle(p.body) })
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
