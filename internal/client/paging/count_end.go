package paging

import (
	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

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
	v, err := askOther[T, PT](r.ctx, r.rd, c, r.count)
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
