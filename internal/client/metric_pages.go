package client

import (
	"context"
	"fmt"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// metadataPage is the object the limit-style endpoints answer: results,
// page, limit and totalPages, as the specification describes it.
type metadataPage struct {
	Results    jsontext.Value `json:"results"` // nil when absent, "null" when null
	Page       *int           `json:"page"`
	Limit      *int           `json:"limit"`
	TotalPages *int           `json:"totalPages"`
}

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
func readMetadataPages(ctx context.Context, c *Client, req pageRequest, keepRaw bool) (*OrgMetrics, error) {
	start := time.Now()
	fetch := func(ctx context.Context, page int) (decodedMetricsPage, error) {
		r := req
		r.page = page
		body, err := c.fetch(ctx, r)
		if err != nil {
			return decodedMetricsPage{}, err
		}
		body = c.repairText(ctx, body, req.endpoint, page)
		p, err := decodeMetadataPage(body, page, keepRaw)
		if err != nil {
			return decodedMetricsPage{}, &PageError{Endpoint: req.endpoint, Page: page, Reason: "the response could not be used", Err: c.withoutToken(err)}
		}
		return p, nil
	}

	acc := newAccumulator[OrgMetric](c.newOrgGuard(req.endpoint))
	total, firstTotal := 0, 0
	emptyAt := 0        // the first page before totalPages that came back empty
	servesLess := false // a page before the last held fewer results than asked for
	step := func(page int, p decodedMetricsPage, fetchErr error) (pagePlan, error) {
		if fetchErr != nil {
			return pagePlan{}, fetchErr
		}
		// Records added during the read can raise totalPages; follow it.
		if p.totalPages > c.cfg.MaxPages {
			return pagePlan{}, &PageError{Endpoint: req.endpoint, Page: page, Reason: fmt.Sprintf("totalPages %d is over the cap of %d pages", p.totalPages, c.cfg.MaxPages)}
		}
		if page == 1 {
			firstTotal = p.totalPages
		}
		total = max(total, p.totalPages)
		n := len(p.records)
		if n > 0 && emptyAt > 0 {
			return pagePlan{}, &PageError{Endpoint: req.endpoint, Page: page, Reason: fmt.Sprintf(
				"page %d came back empty, yet this later page holds results: the server's pages do not agree with its totalPages", emptyAt)}
		}
		if n == 0 && page < total && emptyAt == 0 {
			// Records deleted during the read, or a server at odds with
			// itself: the pages up to totalPages say which.
			emptyAt = page
		}
		if n > 0 && n < req.size && page < total && !servesLess {
			// totalPages may have been counted on the limit asked for, not
			// on what the server serves: read on past it to an empty page.
			servesLess = true
			c.cfg.Logger.Warn(ctx, "the server serves fewer results per page than asked for; reading past totalPages until an empty page", map[string]any{
				"endpoint": req.endpoint, "page": page, "asked": req.size, "served": n, "total_pages": total,
			})
		}
		acc.keep(p.records, keepRaw)
		switch {
		case page < total:
			return pagePlan{window: c.cfg.MaxConcurrency, last: total}, nil
		case n > 0 && servesLess && page < c.cfg.MaxPages:
			return pagePlan{window: 1, last: page + 1}, nil
		}
		return pagePlan{done: true}, nil
	}
	pages, _, err := readPages(ctx, c.cfg.MaxConcurrency, pagePlan{window: 1, last: 1}, fetch, step)
	if err == nil {
		err = acc.guard.err()
	}
	if err != nil {
		return nil, err
	}
	c.cfg.Logger.Debug(ctx, "read complete", map[string]any{
		"endpoint": req.endpoint, "records": len(acc.out), "pages": pages,
		"total_pages": firstTotal, "page_size": req.size,
		"duration": time.Since(start).String(),
	})
	return &OrgMetrics{Results: acc.out, TotalPages: total}, nil
}

// decodeMetadataPage checks the metadata object and decodes its results.
func decodeMetadataPage(body []byte, asked int, keepRaw bool) (decodedMetricsPage, error) {
	if err := expectStart(body, '{'); err != nil {
		return decodedMetricsPage{}, err
	}
	var m metadataPage
	if err := jsonv2.Unmarshal(body, &m); err != nil {
		return decodedMetricsPage{}, describeJSONError(err)
	}
	switch {
	case m.Results == nil:
		return decodedMetricsPage{}, fmt.Errorf("the response has no results array")
	case m.TotalPages == nil:
		return decodedMetricsPage{}, fmt.Errorf("the response has no totalPages")
	case *m.TotalPages < 0:
		return decodedMetricsPage{}, fmt.Errorf("totalPages is negative (%d)", *m.TotalPages)
	case m.Page == nil:
		return decodedMetricsPage{}, fmt.Errorf("the response has no page number")
	case *m.Page != asked:
		return decodedMetricsPage{}, fmt.Errorf("the server answered page %d when page %d was asked for; it is not advancing through pages: %w", *m.Page, asked, ErrNotAdvancing)
	}
	recs, err := decodeArray[OrgMetric](m.Results, keepRaw, nil)
	if err != nil {
		return decodedMetricsPage{}, fmt.Errorf("results: %w", err)
	}
	if *m.TotalPages == 0 && len(recs) > 0 {
		return decodedMetricsPage{}, fmt.Errorf("totalPages is 0 but the page holds %d results", len(recs))
	}
	p := decodedMetricsPage{totalPages: *m.TotalPages}
	p.records = recs
	return p, nil
}
