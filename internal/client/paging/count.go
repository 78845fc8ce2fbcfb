package paging

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"

	"golang.org/x/sync/errgroup"

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

// ErrDataChanged ends a pass that saw the data change under it; ReadCount
// then reads again one page at a time.
var ErrDataChanged = errors.New("the data changed during the read")

// ReadCount reads a count-style endpoint (page, count; JSON array
// answers) to its confirmed end (DESIGN.md, "Paging rules").
func ReadCount[T any, PT interface {
	*T
	Record
}](ctx context.Context, rd Read[T]) ([]T, Stats, error) {
	rd.withDefaults()
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
	if err = r.acc.passError(err); err != nil {
		return nil, Stats{}, err
	}
	return r.acc.out, Stats{Pages: r.pages, ServerPageSize: r.pageSize, Duplicates: r.acc.duplicates,
		Discarded: r.discarded, Reread: reread}, nil
}

// countReader holds one pass over a count-style endpoint; each rule is a
// method step calls (count_rules.go).
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
	// closing is the closing check of page 1, asked beside the end's
	// question (believe); nil when records came after it.
	closing *closingCheck[T]
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
	// The closing check: page 1 asked again after a concurrent read.
	// Records inserted or removed within page 1 while later pages were
	// served can leave a gap no page shows, and page 1 then holds other
	// records than it did (DESIGN.md, "Data that changes during a read").
	// It was asked beside the end's question unless records came after it.
	if c := r.closing; c != nil {
		return r.firstPageAgain(c.p, c.err, "")
	}
	again, err := r.fetch(r.ctx, 1)
	return r.firstPageAgain(again, err, "")
}

// answerOf is what a page says: its records' ids in order, or its bytes
// when a record has no id.
func answerOf[T any, PT interface {
	*T
	Record
}](recs []pagejson.Record[T], bodyHash uint64) answer {

	var ids maphash.Hash
	ids.SetSeed(hashSeed)
	for i := range recs {
		id := PT(&recs[i].Rec).Key()
		if id == "" {
			return answer{digest: bodyHash, records: len(recs)}
		}
		ids.WriteString(id)
		ids.WriteByte(0) // ids "ab","c" and "a","bc" differ
	}
	return answer{digest: ids.Sum64(), records: len(recs)}
}

func pageSaid[T any](p decodedPage[T]) answer { return p.said }

// claimsEnd is the last page worth sending if a page's answer is true: an
// empty page itself, a short one the page after it.
func (r *countReader[T, PT]) claimsEnd(page int, p decodedPage[T]) int {
	switch n := len(p.records); {
	case n == 0:
		return page
	case n < p.asked:
		return page + 1
	}
	return 0
}

// fetch gets and decodes one page; it runs concurrently with other pages.
func (r *countReader[T, PT]) fetch(ctx context.Context, page int) (decodedPage[T], error) {
	size := r.count
	p, err := r.rd.Fetch(ctx, page, size)
	if err != nil {
		return decodedPage[T]{}, err
	}
	bodyHash := maphash.Bytes(hashSeed, p.Body)
	return decodedPage[T]{records: p.Records, bodyHash: bodyHash, body: p.Body, question: r.rd.Question(page, size),
		said: answerOf[T, PT](p.Records, bodyHash), asked: size}, nil
}

// step takes the pages in order, through the rules in the order a page
// meets them.
func (r *countReader[T, PT]) step(page int, p decodedPage[T], fetchErr error) (pagePlan, error) {
	if fetchErr != nil {
		if !r.prevShort || !refusesPageAfterEnd(fetchErr) {
			return pagePlan{}, r.refused(page, fetchErr)
		}
		// A refusal of the page after a short page says what an empty
		// page says: nothing here.
		p = decodedPage[T]{question: r.question(page), said: noRecords}
	}
	first := p.said
	p, confirmed, err := r.believe(page, p)
	if err != nil {
		return pagePlan{}, err
	}
	n := len(p.records)
	if c := r.closing; c != nil && (p.said.digest != first.digest || (n > 0 && page > c.at)) {
		r.closing = nil // records served after it: it is asked again at the end
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
	prints := printsOf[T, PT](p.records) // before keepFresh recycles the body
	if err := r.keepFresh(page, p); err != nil {
		return pagePlan{}, err
	}
	plan := r.next(page, n)
	r.prevConfirmed = confirmed
	r.prevPrints = prints
	return plan, nil
}

// believe returns the answer believed for page, and whether it was
// confirmed: an answer that would end the read by another question
// (confirmEnd) or by asking again, any other as confirmOrAskAgain says.
func (r *countReader[T, PT]) believe(page int, p decodedPage[T]) (decodedPage[T], bool, error) {
	if !r.endsHere(page, len(p.records)) {
		return r.askAgainIf(false, page, p)
	}
	// In a concurrent read the closing check of page 1 is asked beside the
	// end's question: every page before the end has been served, which is
	// all the check needs, and the two share a round trip. Its goroutine
	// ends before this function returns; step drops the check when records
	// come after it.
	if r.concurrent && page >= 2 && r.closing == nil {
		var g errgroup.Group
		c := &closingCheck[T]{at: page}
		g.Go(func() error {
			c.p, c.err = r.fetch(r.ctx, 1)
			return nil
		})
		defer func() {
			_ = g.Wait()
			r.closing = c
		}()
	}
	if c, ok := claimAt(page, r.count, r.rd.MaxSize, !r.warnedSize, r.prevPrints, printsOf[T, PT](p.records)); ok {
		return r.confirmEnd(page, p, c, 0)
	}
	return r.askAgainIf(true, page, p)
}

// askAgainIf is confirmOrAskAgain of page's answer p.
func (r *countReader[T, PT]) askAgainIf(doubted bool, page int, p decodedPage[T]) (decodedPage[T], bool, error) {
	return confirmOrAskAgain(r.ctx, r.rd.Answers, r.rd.Endpoint, page, p, p.question, doubted,
		pageSaid[T], r.askOrEmpty, func(p decodedPage[T]) { r.rd.Recycle(p.body) })
}

// endsHere reports an answer that would end the read, or say where: an
// empty page (but after a short page already confirmed), or a page after
// page 1 shorter than the longest so far.
func (r *countReader[T, PT]) endsHere(page, n int) bool {
	if n == 0 {
		return !(r.prevShort && r.prevConfirmed)
	}
	return page > 1 && n < r.longest
}

// askOrEmpty asks a page again, where a refusal past the end agrees with
// an empty page.
func (r *countReader[T, PT]) askOrEmpty(ctx context.Context, page int) (decodedPage[T], error) {
	p, err := r.fetch(ctx, page)
	if err != nil && page > 1 && refusesPageAfterEnd(err) {
		return decodedPage[T]{question: r.question(page), said: noRecords}, nil
	}
	return p, err
}

// question is the URL page is asked at.
func (r *countReader[T, PT]) question(page int) string { return r.rd.Question(page, r.count) }
