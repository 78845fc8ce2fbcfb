package paging

import (
	"context"
	"slices"
)

// claimAt is the end a page of n results claims, when another question
// can test it (answers.go, askOther): the server serves the limit asked, and
// the page before was full.
func (m *limitReader[T, PT]) claimAt(page, n int) (endClaim, bool) {
	size := m.rd.Size
	if m.rd.MaxSize < 2 || m.servesLess || (page > 1 && len(m.prevPrints) != size) {
		return endClaim{}, false
	}
	start := (page - 1) * size
	return endClaim{end: start + n, from: max(start-size, 0)}, true
}

// fetchPrints asks page with limit size and fingerprints its results.
func (m *limitReader[T, PT]) fetchPrints(ctx context.Context, page, size int) ([]uint64, error) {
	p, err := m.rd.Fetch(ctx, page, size)
	if err != nil {
		return nil, err
	}
	return printsOf[T, PT](p.Records), nil
}

// confirmEnd believes p's claim c when another question confirms it;
// refuted, page is asked again until it answers otherwise, and that answer
// believed as any other.
func (m *limitReader[T, PT]) confirmEnd(page int, p limitPage[T], c endClaim) (limitPage[T], bool, error) {
	c.held = append(slices.Clip(m.prevPrints), printsOf[T, PT](p.records)...)
	v, err := askOther(m.ctx, c, m.rd.Size, m.rd.MaxSize, m.fetchPrints)
	switch {
	case err != nil:
		return p, false, err
	case v == unusable:
		return confirmOrAskAgain(m.ctx, m.rd.Answers, m.rd.Endpoint, page, p, p.question, true, limitSaid[T], m.fetch, nil)
	case v == confirms:
		m.rd.Answers.record(p.question, p.said)
		return p, true, nil
	}
	m.rd.Logger.Warn(m.ctx, "a page ended the list, but the same place asked with another page size holds more records: the answer was not true; asking the page again", map[string]any{
		"endpoint": m.rd.Endpoint, "page": page, "records": len(p.records),
	})
	again, err := askUntilOther(m.ctx, m.rd.Endpoint, page, p.said, m.fetch, limitSaid[T])
	if err != nil {
		return again, false, err
	}
	if m.endsHere(page, again) {
		return confirmOrAskAgain(m.ctx, m.rd.Answers, m.rd.Endpoint, page, again, again.question, true, limitSaid[T], m.fetch, nil)
	}
	m.rd.Answers.record(again.question, again.said)
	return again, true, nil
}
