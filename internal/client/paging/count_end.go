package paging

import "github.com/joinit-community/terraform-provider-joinit/internal/client/failure"

// The end of a count-style read: the closing check of page 1 after a
// concurrent read, and what the pages past the end say.

// checkPageOneUnchanged asks for page 1 again after a concurrent read. Pages
// answered out of order around records inserted at the front leave a gap:
// a page served before the insert, the page below it served after. A
// small insert shows as a record seen twice, but one of two pages or more
// does not. Page 1 holding other records than it did is the sure sign;
// then the read starts again, one page at a time. Records inserted
// further down the list cannot be noticed this way (see the paging docs).
func (r *countReader[T, PT]) checkPageOneUnchanged() error {
	again, err := r.ask(r.ctx, 1)
	return r.firstPageAgain(again, err, "")
}

// checkShortFirstPage runs when page 2 holds more records than page 1 did
// (the count asked for it): the server does not honour count, so page 2
// did not test page 1's shortness, as it does on a server that does. Page
// 1 is asked again; a page 1 that was cut short for a moment then shows
// more records, and the read starts again, one page at a time.
func (r *countReader[T, PT]) checkShortFirstPage() error {
	again, err := r.ask(r.ctx, 1)
	return r.firstPageAgain(again, err, "page 1 held other records when asked again, in the read and again in the read that followed; try again later")
}

// firstPageAgain judges page 1 asked again (again, or the error asking
// it) against its first answer. One answer against one may be a front
// that changed, or a page 1 answered short or empty for a moment: a third
// tells them apart. Page 1 changed is ErrDataChanged; in the read again
// one page at a time, when ifRereading says why, a PageError.
func (r *countReader[T, PT]) firstPageAgain(again decodedPage[T], err error, ifRereading string) error {
	if err == nil && again.said.digest != r.firstSaid.digest {
		again, err = askUntilTwoAgree(r.ctx, r.rd.Endpoint, 1, []answer{r.firstSaid, again.said}, r.ask, pageSaid[T])
	}
	if err != nil {
		return err
	}
	r.rd.recycle(again.body)
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
// answered: records there say the end was false. Read again, one page at
// a time, rather than return the shorter list.
func (r *countReader[T, PT]) beyondEnd(page int, p decodedPage[T]) error {
	r.rd.recycle(p.body)
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
