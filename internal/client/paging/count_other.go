package paging

import (
	"context"
	"slices"
)

// claimAt is the end a page of n records claims, when another question
// can test it (other_question.go): the server keeps to the count asked,
// and the page before was full, so the end is at (page-1)·count + n.
func (r *countReader[T, PT]) claimAt(page, n int) (endClaim, bool) {
	if r.rd.MaxSize < 2 || r.warnedSize || r.count < 1 || (page > 1 && len(r.prevPrints) != r.count) {
		return endClaim{}, false
	}
	start := (page - 1) * r.count
	return endClaim{end: start + n, from: max(start-r.count, 0)}, true
}

// fetchPrints asks page at count size and fingerprints its records.
func (r *countReader[T, PT]) fetchPrints(ctx context.Context, page, size int) ([]uint64, error) {
	p, err := r.rd.Fetch(ctx, page, size)
	if err != nil {
		return nil, err
	}
	prints := printsOf[T, PT](p.Records)
	r.rd.Recycle(p.Body)
	return prints, nil
}

// confirmEnd believes p's claim c when another question confirms it;
// refuted, page is asked again until it answers otherwise, and that answer
// judged as the first was (once more at most).
func (r *countReader[T, PT]) confirmEnd(page int, p decodedPage[T], c endClaim, depth int) (decodedPage[T], bool, error) {
	v, err := askOther(r.ctx, c, r.count, r.rd.MaxSize, r.fetchPrints)
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
		c2, ok := r.claimAt(page, n)
		if !ok || depth > 0 {
			return r.askAgainIf(true, page, again)
		}
		c2.held = append(slices.Clip(r.prevPrints), printsOf[T, PT](again.records)...)
		return r.confirmEnd(page, again, c2, depth+1)
	}
	r.rd.Answers.record(again.question, again.said)
	return again, true, nil
}
