package paging

import (
	"context"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// The end of a count-style read: what is asked once a page claims the end
// (its second answer, and in a concurrent read the closing check of page
// 1), sent in the background so they share a round trip, and what the
// pages past the end say.

// pendingAsk is a page asked again in the background: an end's second
// answer, or the closing check of page 1.
type pendingAsk[T any] struct {
	page   int
	done   chan struct{}
	p      decodedPage[T]
	err    error
	cancel context.CancelFunc
}

// askInBackground asks page again now, with ask (ask, or askOrEmpty), for
// the answer to be waited for when its turn comes.
func (r *countReader[T, PT]) askInBackground(page int, ask func(context.Context, int) (decodedPage[T], error)) *pendingAsk[T] {
	ctx, cancel := context.WithCancel(r.ctx)
	a := &pendingAsk[T]{page: page, done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(a.done)
		a.p, a.err = ask(ctx, page)
	}()
	return a
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

// drop cancels an ask the read will not use, and waits for it to end.
func (a *pendingAsk[T]) drop() {
	if a != nil {
		a.cancel()
		<-a.done
	}
}

// endInSight sends what the end claimed at page needs once every page
// before it is answered, before they are decoded and handed over: the
// page asked again (its second answer) and, in a concurrent read, the
// closing check of page 1. step takes them when page's turn comes.
func (r *countReader[T, PT]) endInSight(page int, empty bool) {
	if r.wantsSecondAnswer(page, empty) && !r.sendOther(page) && r.reask == nil {
		// No other question can test it: its second answer, as asked.
		r.reask = r.askInBackground(page, r.askOrEmpty)
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

// askAgain asks a page again for its second answer: the ask endInSight
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
	r.front, r.frontAt = r.askInBackground(1, r.ask), page
}

// dropPending cancels what endInSight sent and the read will not use.
func (r *countReader[T, PT]) dropPending() {
	r.reask.drop()
	r.reask = nil
	r.dropOther()
	r.front.drop()
	r.front = nil
}

// checkFrontUnchanged asks for page 1 again after a concurrent read (the
// check sent at the end, or a new ask when none is in flight). Pages
// answered out of order around records inserted at the front leave a gap:
// a page served before the insert, the page below it served after. A
// small insert shows as a record seen twice, but one of two pages or more
// does not. Page 1 holding other records than it did is the sure sign;
// then the read starts again, one page at a time. Records inserted
// further down the list cannot be noticed this way (see the paging docs).
func (r *countReader[T, PT]) checkFrontUnchanged() error {
	var again decodedPage[T]
	var err error
	if f := r.front; f != nil {
		r.front = nil
		again, err = f.wait(r.ctx)
	} else {
		again, err = r.ask(r.ctx, 1)
	}
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
		again, err = secondOpinion(r.ctx, r.rd.Endpoint, 1, []answer{r.firstSaid, again.said}, r.ask, pageSaid[T])
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
