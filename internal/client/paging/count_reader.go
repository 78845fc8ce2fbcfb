package paging

import (
	"context"
	"errors"
	"hash/maphash"

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

// closingCheck is page 1 asked again when the page at claimed the end
// (countReader.read).
type closingCheck[T any] struct {
	at  int
	p   decodedPage[T]
	err error
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
	// ahead is the other question sent before its claim; nil when none
	// is out.
	ahead *sentAhead[T]
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

// refusesPageAfterEnd reports what some servers answer past the last page.
func refusesPageAfterEnd(err error) bool {
	var apiErr *failure.APIError
	if !errors.As(err, &apiErr) {
		return false
	}
	switch apiErr.Status {
	case 400, 404, 416: // Bad Request, Not Found, Range Not Satisfiable
		return true
	}
	return false
}

// sendAhead sends the other question that the claim of an empty page at
// page would ask (the records before it fingerprinted in before), beside
// that page.
func (r *countReader[T, PT]) sendAhead(page int, before []uint64) {
	c, ok := claimAt(page, r.count, r.rd.MaxSize, !r.warnedSize, before, nil)
	if !ok {
		return
	}
	qs := c.otherQuestions(r.count, r.rd.MaxSize, 1)
	if len(qs) == 0 {
		return
	}
	ctx, cancel := context.WithCancel(r.ctx)
	a := &sentAhead[T]{question: qs[0], cancel: cancel}
	a.g.Go(func() error {
		a.p, a.err = r.rd.Fetch(ctx, a.question[0], a.question[1])
		return nil
	})
	r.ahead = a
}

// dropAhead ends the question sent ahead, if any, when the pass does: its
// request is cancelled and waited for, and its body, unless askOther took
// it, recycled. It can serve no other claim than the one at page 2, so it
// is kept until then.
func (r *countReader[T, PT]) dropAhead() {
	if a := r.ahead; a != nil {
		r.ahead = nil
		a.cancel()
		_ = a.g.Wait()
		if !a.taken {
			r.rd.Recycle(a.p.Body)
		}
	}
}
