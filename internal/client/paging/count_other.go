package paging

import (
	"context"
	"slices"
)

// The other question of a count-style read (other_question.go): when a
// page claims the end, the page holding that end asked with another
// count, sent as soon as the end is in sight.

// pendingOther is an other question sent in the background.
type pendingOther struct {
	q      [2]int // page and count
	done   chan struct{}
	prints []uint64
	err    error
	cancel context.CancelFunc
}

// claimAt is the claim of a page of n records that ends the read, when an
// other question can test it: the server keeps to the count asked (it
// served no page shorter than asked and then more), and the page before
// was full, so the end is at (page-1)·count + n.
func (r *countReader[T, PT]) claimAt(page, n int) (endClaim, bool) {
	if r.rd.MaxSize < 2 || r.warnedSize || r.count < 1 || (page > 1 && len(r.prevPrints) != r.count) {
		return endClaim{}, false
	}
	start := (page - 1) * r.count
	return endClaim{end: start + n, from: max(start-r.count, 0)}, true
}

// sendOther sends the first other question of the end claimed at page,
// for confirmEnd to take; at most one is pending. It reports false when
// no other question can test the claim.
func (r *countReader[T, PT]) sendOther(page int) bool {
	if r.other != nil {
		return true
	}
	// The end is where it claims only after a full page. The page before
	// may be answered but not decoded yet: it is taken for full, as an
	// answer at least half the size of the largest leaves the network
	// before it is decoded (readPages), and a smaller one, the likely
	// short page, is decoded first and claims the end itself. Should it
	// prove short after all, confirmEnd asks its own question instead.
	r.claimedMu.Lock()
	n, ok := r.claimed[page]
	before, decoded := r.claimed[page-1]
	r.claimedMu.Unlock()
	if !ok || (page > 1 && decoded && before < r.count) {
		return page > 1 && ok // asked by step: no second answer of the page itself
	}
	start := (page - 1) * r.count
	c := endClaim{end: start + n, from: max(start-r.count, 0)}
	qs := c.otherQuestions(r.count, r.rd.MaxSize, 1)
	if r.rd.MaxSize < 2 || r.warnedSize || len(qs) == 0 {
		return false
	}
	ctx, cancel := context.WithCancel(r.ctx)
	o := &pendingOther{q: qs[0], done: make(chan struct{}), cancel: cancel}
	go func() {
		defer close(o.done)
		o.prints, o.err = r.fetchPrints(ctx, o.q[0], o.q[1])
	}()
	r.other = o
	return true
}

// fetchPrints asks page at count size and fingerprints its records.
func (r *countReader[T, PT]) fetchPrints(ctx context.Context, page, size int) ([]uint64, error) {
	p, err := r.rd.Fetch(ctx, page, size, nil)
	if err != nil {
		return nil, err
	}
	prints := printsOf[T, PT](p.Records)
	r.rd.recycle(p.Body)
	return prints, nil
}

// otherFetch is fetchPrints that takes the pending other question's
// answer when it is the one asked.
func (r *countReader[T, PT]) otherFetch(ctx context.Context, page, size int) ([]uint64, error) {
	if o := r.other; o != nil {
		r.other = nil
		if o.q == [2]int{page, size} {
			defer o.cancel()
			select {
			case <-o.done:
				return o.prints, o.err
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		o.cancel()
	}
	return r.fetchPrints(ctx, page, size)
}

// dropOther cancels an other question the read will not use.
func (r *countReader[T, PT]) dropOther() {
	if o := r.other; o != nil {
		o.cancel()
		<-o.done
		r.other = nil
	}
}

// confirmEnd believes the claim of page's answer p when an other question
// confirms it; when one refutes it, page is asked again until it answers
// otherwise, and that answer is judged as the first was (once more at
// most). It returns the answer believed, and whether its end was
// confirmed.
func (r *countReader[T, PT]) confirmEnd(page int, p decodedPage[T], c endClaim, depth int) (decodedPage[T], bool, error) {
	v, err := askOther(r.ctx, c, r.count, r.rd.MaxSize, r.otherFetch)
	switch {
	case err != nil:
		return p, false, err
	case v == unusable:
		r.rd.Logger.Debug(r.ctx, "no answer of another page size lines up with the read's pages; the page that ends the list is asked again instead", map[string]any{
			"endpoint": r.rd.Endpoint, "page": page,
		})
		return believeOrAsk(r.ctx, r.rd.Book, r.rd.Endpoint, page, p, p.question, true,
			pageSaid[T], r.askOrEmpty, func(p decodedPage[T]) { r.rd.recycle(p.body) })
	case v == confirms:
		r.rd.Book.record(p.question, p.said)
		return p, true, nil
	}
	r.rd.Logger.Warn(r.ctx, "a page ended the list, but the same place asked with another page size holds more records: the answer was not true; asking the page again", map[string]any{
		"endpoint": r.rd.Endpoint, "page": page, "records": len(p.records),
	})
	r.rd.recycle(p.body)
	again, err := askUntilOther(r.ctx, r.rd.Endpoint, page, p.said, r.askOrEmpty, pageSaid[T])
	if err != nil {
		return again, false, err
	}
	if n := len(again.records); r.endsHere(page, n) {
		c2, ok := r.claimAt(page, n)
		if !ok || depth > 0 {
			return believeOrAsk(r.ctx, r.rd.Book, r.rd.Endpoint, page, again, again.question, true,
				pageSaid[T], r.askOrEmpty, func(p decodedPage[T]) { r.rd.recycle(p.body) })
		}
		c2.held = append(slices.Clip(r.prevPrints), printsOf[T, PT](again.records)...)
		return r.confirmEnd(page, again, c2, depth+1)
	}
	r.rd.Book.record(again.question, again.said)
	return again, true, nil
}
