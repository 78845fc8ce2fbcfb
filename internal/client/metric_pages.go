package client

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

type decodedMetricsPage struct {
	decodedPage[OrgMetric]
	totalPages int
}

// readMetadataPages reads a limit-style endpoint: page 1 reports totalPages,
// then the rest are fetched concurrently, since the end is known. Pages
// before totalPages that come back empty must stay empty to the end (else
// the read fails); a server that serves fewer results than asked for on a
// page before the last is read past totalPages to an empty page, since it
// may count totalPages on the limit asked for. Metric records have no id,
// so they are never deduplicated (two equal records are two records); a
// server that repeats pages is caught by the page number it echoes.
//
// An answer is believed once two agree (answers.go) when it holds fewer
// results than a page does (empty, or the short last page), when page 1
// alone tells where the read ends (totalPages 0 or 1), or when it
// contradicts the run's earlier answer to the same question. With
// totalPages of 2 or more, page 1 and the last page both say where the read
// ends: the end is confirmed by answers the read needed anyway.
func readMetadataPages(ctx context.Context, c *Client, req pageRequest, keepRaw bool) (*OrgMetrics, error) {
	start := time.Now()
	m := &metricsReader{ctx: ctx, c: c, req: req, keepRaw: keepRaw, perPage: req.size,
		acc: newAccumulator[OrgMetric](c.newOrgGuard(req.endpoint))}
	pages, _, err := readPages(ctx, c.cfg.MaxConcurrency, pagePlan{window: 1, last: 1}, pageSource[decodedMetricsPage](m))
	if err == nil {
		err = m.acc.guard.err()
	}
	if err != nil {
		return nil, err
	}
	c.cfg.Logger.Debug(ctx, "read complete", map[string]any{
		"endpoint": req.endpoint, "records": len(m.acc.out), "pages": pages,
		"total_pages": m.firstTotal, "page_size": req.size,
		"duration": time.Since(start).String(),
	})
	return &OrgMetrics{Results: m.acc.out, TotalPages: m.total}, nil
}

// metricsReader holds one read of a limit-style endpoint.
type metricsReader struct {
	ctx     context.Context
	c       *Client
	req     pageRequest
	keepRaw bool
	acc     *accumulator[OrgMetric, *OrgMetric]

	total, firstTotal int
	emptyAt           int  // the first page before totalPages that came back empty
	servesLess        bool // a page before the last held fewer results than asked for
	perPage           int  // results a page holds: the limit, or what the server serves
	prevConfirmed     bool // the page before was short, and asked twice
}

// fetch gets and decodes one page; a body that is not a page of results is
// retried inside c.fetch.
func (m *metricsReader) fetch(ctx context.Context, page int, bytesIn func()) (decodedMetricsPage, error) {
	r := m.req
	r.page, r.bytesIn = page, bytesIn
	var p decodedMetricsPage
	err := m.c.fetch(ctx, r, func(body []byte) error {
		body = m.c.repairText(ctx, body, r.endpoint, page)
		var err error
		if p, err = decodeMetadataPage(body, page, m.keepRaw); err != nil {
			return m.c.withoutToken(m.c.describeBody(err))
		}
		p.question = r.url(m.c.base)
		return nil
	})
	return p, err
}

func metricsSaid(p decodedMetricsPage) answer { return p.said }

// totalPages bounds what is sent: the pages claim no end of their own, and
// none is sent past totalPages to look at.
func (m *metricsReader) claimsEnd(int, decodedMetricsPage) int   { return 0 }
func (m *metricsReader) endClaimed(int, bool)                    {}
func (m *metricsReader) beyondEnd(int, decodedMetricsPage) error { return nil }

// believe takes a page's answer as true, or first asks the page again.
func (m *metricsReader) believe(page int, p decodedMetricsPage) (decodedMetricsPage, bool, error) {
	n := len(p.records)
	// An empty page is not doubted after a short page asked twice, nor
	// after an empty page before totalPages (believed already): the pages
	// after it must be empty too.
	emptyAgreed := n == 0 && (m.prevConfirmed || m.emptyAt > 0)
	endsHere := (n < m.perPage && !emptyAgreed) || (page == 1 && p.totalPages <= 1)
	ask := func(ctx context.Context, page int) (decodedMetricsPage, error) { return m.fetch(ctx, page, nil) }
	return believeOrAsk(m.ctx, m.c, m.req.endpoint, page, p, p.question, endsHere, metricsSaid, ask, nil)
}

func (m *metricsReader) step(page int, p decodedMetricsPage, fetchErr error) (pagePlan, error) {
	m.c.traceHanded(m.req.endpoint, page)
	if fetchErr != nil {
		return pagePlan{}, fetchErr
	}
	p, confirmed, err := m.believe(page, p)
	if err != nil {
		return pagePlan{}, err
	}
	req, c := m.req, m.c
	// Records added during the read can raise totalPages; follow it.
	if p.totalPages > c.cfg.MaxPages {
		return pagePlan{}, &PageError{Endpoint: req.endpoint, Page: page, Reason: fmt.Sprintf("totalPages %d is over the cap of %d pages", p.totalPages, c.cfg.MaxPages)}
	}
	if page == 1 {
		m.firstTotal = p.totalPages
	}
	m.total = max(m.total, p.totalPages)
	n := len(p.records)
	if n > 0 && m.emptyAt > 0 {
		return pagePlan{}, &PageError{Endpoint: req.endpoint, Page: page, Reason: fmt.Sprintf(
			"page %d came back empty, yet this later page holds results: the server's pages do not agree with its totalPages", m.emptyAt)}
	}
	if n == 0 && page < m.total && m.emptyAt == 0 {
		// Records deleted during the read, or a server at odds with
		// itself: the pages up to totalPages say which.
		m.emptyAt = page
	}
	if n > 0 && n < req.size && page < m.total && !m.servesLess {
		// totalPages may have been counted on the limit asked for, not
		// on what the server serves: read on past it to an empty page.
		m.servesLess = true
		m.perPage = n
		c.cfg.Logger.Warn(m.ctx, "the server serves fewer results per page than asked for; reading past totalPages until an empty page", map[string]any{
			"endpoint": req.endpoint, "page": page, "asked": req.size, "served": n, "total_pages": m.total,
		})
	}
	m.acc.keep(p.records, m.keepRaw)
	m.prevConfirmed = confirmed && n > 0
	switch {
	case page < m.total:
		return pagePlan{window: c.cfg.MaxConcurrency, last: m.total}, nil
	case n > 0 && m.servesLess && page < c.cfg.MaxPages:
		return pagePlan{window: 1, last: page + 1}, nil
	}
	return pagePlan{done: true}, nil
}

// decodeMetadataPage decodes a page of org metrics. A page that names
// another page than was asked for is a server not advancing, not a passing
// fault: it is not retried.
func decodeMetadataPage(body []byte, asked int, keepRaw bool) (decodedMetricsPage, error) {
	m, err := pagejson.DecodeMetadata[OrgMetric](body, asked, keepRaw)
	var other *pagejson.OtherPageError
	if errors.As(err, &other) {
		return decodedMetricsPage{}, fmt.Errorf("%v; it is not advancing through pages: %w", other, ErrNotAdvancing)
	}
	if err != nil {
		return decodedMetricsPage{}, err
	}
	p := decodedMetricsPage{totalPages: m.TotalPages}
	p.records = m.Records
	// Two answers agree when they hold the same results and the same
	// totalPages.
	var h maphash.Hash
	h.SetSeed(digestSeed)
	h.Write(m.Results)
	fmt.Fprintf(&h, "|%d", m.TotalPages)
	p.said = answer{digest: h.Sum64(), records: len(m.Records)}
	return p, nil
}
