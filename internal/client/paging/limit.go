package paging

import (
	"context"
	"fmt"
	"hash/maphash"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

type limitPage[T any] struct {
	decodedPage[T]
	totalPages int
}

// ReadLimit reads a limit-style endpoint to totalPages (DESIGN.md, "Org
// metrics end at totalPages"): the records, and the largest totalPages.
func ReadLimit[T any, PT interface {
	*T
	Record
}](ctx context.Context, rd Read[T]) ([]T, int, Stats, error) {
	rd.withDefaults()
	m := &limitReader[T, PT]{ctx: ctx, rd: &rd, perPage: rd.Size, acc: newAccumulator[T, PT](&rd)}
	pages, _, err := readPages(ctx, rd.MaxInFlight, pagePlan{inFlight: 1, last: 1}, pageSource[limitPage[T]](m))
	if err = m.acc.passError(err); err != nil {
		return nil, 0, Stats{}, err
	}
	return m.acc.out, m.total, Stats{Pages: pages, TotalPages: m.firstTotal}, nil
}

// limitReader holds one read of a limit-style endpoint.
type limitReader[T any, PT interface {
	*T
	Record
}] struct {
	ctx context.Context
	rd  *Read[T]
	acc *accumulator[T, PT]

	total, firstTotal int
	emptyAt           int      // the first page before totalPages that came back empty
	servesLess        bool     // a page before the last held fewer results than asked for
	perPage           int      // results a page holds: the limit, or what the server serves
	prevConfirmed     bool     // the page before was short, and asked twice
	prevPrints        []uint64 // the results of the page before, for an other question
}

// fetch gets and decodes one page; two answers agree when they hold the
// same results and totalPages.
func (m *limitReader[T, PT]) fetch(ctx context.Context, page int) (limitPage[T], error) {
	p, err := m.rd.Fetch(ctx, page, m.rd.Size)
	if err != nil {
		return limitPage[T]{}, err
	}
	var h maphash.Hash
	h.SetSeed(hashSeed)
	h.Write(p.Results)
	fmt.Fprintf(&h, "|%d", p.TotalPages)
	d := limitPage[T]{totalPages: p.TotalPages}
	d.records = p.Records
	d.question = m.rd.Question(page, m.rd.Size)
	d.said = answer{digest: h.Sum64(), records: len(p.Records)}
	return d, nil
}

func limitSaid[T any](p limitPage[T]) answer { return p.said }

// totalPages bounds what is sent: pages claim no end of their own.
func (m *limitReader[T, PT]) claimsEnd(int, limitPage[T]) int   { return 0 }
func (m *limitReader[T, PT]) beyondEnd(int, limitPage[T]) error { return nil }

// believe takes a page's answer as true, or first asks the page again.
func (m *limitReader[T, PT]) believe(page int, p limitPage[T]) (limitPage[T], bool, error) {
	endsHere := m.endsHere(page, p)
	if endsHere {
		if c, ok := claimAt(page, m.rd.Size, m.rd.MaxSize, !m.servesLess, m.prevPrints, printsOf[T, PT](p.records)); ok {
			return m.confirmEnd(page, p, c)
		}
	}
	return confirmOrAskAgain(m.ctx, m.rd.Answers, m.rd.Endpoint, page, p, p.question, endsHere, limitSaid[T], m.fetch, nil)
}

// endsHere reports an answer that would end the read: a short page, or
// page 1 saying it is the only one; not an empty page after a confirmed
// short one or after an empty page already believed.
func (m *limitReader[T, PT]) endsHere(page int, p limitPage[T]) bool {
	n := len(p.records)
	emptyAgreed := n == 0 && (m.prevConfirmed || m.emptyAt > 0)
	return (n < m.perPage && !emptyAgreed) || (page == 1 && p.totalPages <= 1)
}

func (m *limitReader[T, PT]) step(page int, p limitPage[T], fetchErr error) (pagePlan, error) {
	if fetchErr != nil {
		return pagePlan{}, fetchErr
	}
	p, confirmed, err := m.believe(page, p)
	if err != nil {
		return pagePlan{}, err
	}
	rd := m.rd
	// Records added during the read can raise totalPages; follow it.
	if p.totalPages > rd.MaxPages {
		return pagePlan{}, &failure.PageError{Endpoint: rd.Endpoint, Page: page, Reason: fmt.Sprintf("totalPages %d is over the cap of %d pages", p.totalPages, rd.MaxPages)}
	}
	if page == 1 {
		m.firstTotal = p.totalPages
	}
	m.total = max(m.total, p.totalPages)
	n := len(p.records)
	short := n < m.perPage // as believed: a full page asked twice confirms no end
	if n > 0 && m.emptyAt > 0 {
		return pagePlan{}, &failure.PageError{Endpoint: rd.Endpoint, Page: page, Reason: fmt.Sprintf(
			"page %d came back empty, yet this later page holds results: the server's pages do not agree with its totalPages", m.emptyAt)}
	}
	if n == 0 && page < m.total && m.emptyAt == 0 {
		// Records deleted meanwhile, or a server at odds with itself: the
		// pages up to totalPages say which.
		m.emptyAt = page
	}
	if n > 0 && n < rd.Size && page < m.total && !m.servesLess {
		// totalPages may count pages of the limit asked: read on to an
		// empty page.
		m.servesLess = true
		m.perPage = n
		rd.Logger.Warn(m.ctx, "the server serves fewer results per page than asked for; reading past totalPages until an empty page", map[string]any{
			"endpoint": rd.Endpoint, "page": page, "asked": rd.Size, "served": n, "total_pages": m.total,
		})
	}
	if _, err := m.acc.keep(page, p.records, rd.KeepRaw); err != nil {
		return pagePlan{}, err
	}
	m.prevConfirmed = confirmed && n > 0 && short
	m.prevPrints = printsOf[T, PT](p.records)
	switch {
	case page < m.total:
		return pagePlan{inFlight: rd.MaxInFlight, last: m.total}, nil
	case n > 0 && m.servesLess && page < rd.MaxPages:
		return pagePlan{inFlight: 1, last: page + 1}, nil
	}
	return pagePlan{done: true}, nil
}

// confirmEnd believes p's claim c when another question confirms it;
// refuted, page is asked again until it answers otherwise, and that answer
// believed as any other.
func (m *limitReader[T, PT]) confirmEnd(page int, p limitPage[T], c endClaim) (limitPage[T], bool, error) {
	v, err := askOther[T, PT](m.ctx, m.rd, c, m.rd.Size, nil)
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
