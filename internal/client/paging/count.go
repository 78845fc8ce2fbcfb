package paging

import (
	"context"
	"errors"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

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

func (r *countReader[T, PT]) read() error {
	defer r.dropAhead()
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
	plan := r.next(page, n, prints)
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

// checkShortFirstPage runs when page 2 holds more records than page 1:
// page 2 then did not test page 1's shortness, so page 1 is asked again.
func (r *countReader[T, PT]) checkShortFirstPage() error {
	again, err := r.fetch(r.ctx, 1)
	return r.firstPageAgain(again, err, "page 1 held other records when asked again, in the read and again in the read that followed; try again later")
}

// firstPageAgain judges page 1 asked again against its first answer; two
// that differ take a third to tell a changed front from a passing lie.
// Page 1 changed is ErrDataChanged, or in the read again, when
// ifRereading says why, a PageError.
func (r *countReader[T, PT]) firstPageAgain(again decodedPage[T], err error, ifRereading string) error {
	if err == nil && again.said.digest != r.firstSaid.digest {
		again, err = askUntilTwoAgree(r.ctx, r.rd.Endpoint, 1, []answer{r.firstSaid, again.said}, r.fetch, pageSaid[T])
	}
	if err != nil {
		return err
	}
	r.rd.Recycle(again.body)
	if again.said.digest == r.firstSaid.digest {
		return nil
	}
	r.changedAt = 1
	if r.rereading && ifRereading != "" {
		return &failure.PageError{Endpoint: r.rd.Endpoint, Page: 1, Err: failure.ErrInconsistentAnswers, Reason: ifRereading}
	}
	return ErrDataChanged
}

// beyondEnd looks at a page past the confirmed end that was already
// answered: records there say the end was false, and the read starts again.
func (r *countReader[T, PT]) beyondEnd(page int, p decodedPage[T]) error {
	r.rd.Recycle(p.body)
	if len(p.records) == 0 {
		return nil
	}
	r.rd.Logger.Warn(r.ctx, "a page past the end of the list holds records: the end was not true", map[string]any{
		"endpoint": r.rd.Endpoint, "page": page, "records": len(p.records),
	})
	r.changedAt = page
	if r.rereading {
		return &failure.PageError{Endpoint: r.rd.Endpoint, Page: page, Err: failure.ErrInconsistentAnswers, Reason: "the page holds records, though an earlier page ended the list (asked twice); the server's pages do not agree with each other: try again later"}
	}
	return ErrDataChanged
}

// confirmEnd believes p's claim c when another question confirms it;
// refuted, page is asked again until it answers otherwise, and that answer
// judged as the first was (once more at most).
func (r *countReader[T, PT]) confirmEnd(page int, p decodedPage[T], c endClaim, depth int) (decodedPage[T], bool, error) {
	v, err := askOther[T, PT](r.ctx, r.rd, c, r.count, r.ahead)
	switch {
	case err != nil:
		return p, false, err
	case v == unusable:
		r.rd.Logger.Debug(r.ctx, "no answer of another page size lines up with the read's pages; the page that ends the list is asked again instead", map[string]any{
			"endpoint": r.rd.Endpoint, "page": page,
		})
		return r.askAgainIf(true, page, p)
	case v == confirms:
		r.rd.Answers.record(p.question, p.said)
		return p, true, nil
	}
	r.rd.Logger.Warn(r.ctx, "a page ended the list, but the same place asked with another page size holds more records: the answer was not true; asking the page again", map[string]any{
		"endpoint": r.rd.Endpoint, "page": page, "records": len(p.records),
	})
	r.rd.Recycle(p.body)
	again, err := askUntilOther(r.ctx, r.rd.Endpoint, page, p.said, r.askOrEmpty, pageSaid[T])
	if err != nil {
		return again, false, err
	}
	if n := len(again.records); r.endsHere(page, n) {
		c2, ok := claimAt(page, r.count, r.rd.MaxSize, !r.warnedSize, r.prevPrints, printsOf[T, PT](again.records))
		if !ok || depth > 0 {
			return r.askAgainIf(true, page, again)
		}
		return r.confirmEnd(page, again, c2, depth+1)
	}
	r.rd.Answers.record(again.question, again.said)
	return again, true, nil
}
