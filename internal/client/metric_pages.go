package client

import (
	"context"
	"fmt"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// metadataPage is the object the limit-style endpoints answer (spec rule 5).
type metadataPage struct {
	Results    *jsontext.Value `json:"results"`
	Page       *int            `json:"page"`
	Limit      *int            `json:"limit"`
	TotalPages *int            `json:"totalPages"`
}

type decodedMetricsPage struct {
	decodedPage[OrgMetric]
	totalPages int
}

// readMetadataPages reads a limit-style endpoint: page 1 reports totalPages,
// then the rest are fetched concurrently. totalPages 0 with no results is
// an empty answer; an empty results page also ends the read.
func readMetadataPages(ctx context.Context, c *Client, req pageRequest, keepRaw bool) (*OrgMetrics, error) {
	start := time.Now()
	fetch := func(ctx context.Context, page int) (decodedMetricsPage, error) {
		r := req
		r.page = page
		body, err := c.fetch(ctx, r)
		if err != nil {
			return decodedMetricsPage{}, err
		}
		p, err := decodeMetadataPage(body, page, keepRaw)
		if err != nil {
			return decodedMetricsPage{}, &PageError{Endpoint: req.endpoint, Page: page, Reason: "the response could not be used", Err: err}
		}
		return p, nil
	}

	first, err := fetch(ctx, 1)
	if err != nil {
		return nil, err
	}
	if first.totalPages > c.cfg.MaxPages {
		return nil, &PageError{Endpoint: req.endpoint, Page: 1, Reason: fmt.Sprintf("totalPages %d is over the cap of %d pages", first.totalPages, c.cfg.MaxPages)}
	}
	acc := newAccumulator[OrgMetric](req.endpoint, req.size, keepRaw)
	total := first.totalPages
	step := func(page int, p decodedMetricsPage) (bool, error) {
		// Records added during the read can raise totalPages; follow it.
		if p.totalPages > total {
			if p.totalPages > c.cfg.MaxPages {
				return false, &PageError{Endpoint: req.endpoint, Page: page, Reason: fmt.Sprintf("totalPages %d is over the cap of %d pages", p.totalPages, c.cfg.MaxPages)}
			}
			total = p.totalPages
		}
		if _, err := acc.add(page, p.decodedPage); err != nil {
			return false, err
		}
		return len(p.records) == 0 || page >= total, nil
	}
	done, err := step(1, first)
	if err != nil {
		return nil, err
	}
	pages := 1
	if !done {
		pages, _, err = readPages(ctx, c, 1, func() int { return total }, fetch, step)
		if err != nil {
			return nil, err
		}
	}
	c.cfg.Logger.Debug(ctx, "read complete", map[string]any{
		"endpoint": req.endpoint, "records": len(acc.out), "pages": pages,
		"total_pages": first.totalPages, "page_size": req.size,
		"duplicates_dropped": acc.duplicates, "duration": time.Since(start).String(),
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
	recs, err := decodeArray[OrgMetric](*m.Results, keepRaw)
	if err != nil {
		return decodedMetricsPage{}, fmt.Errorf("results: %w", err)
	}
	if *m.TotalPages == 0 && len(recs) > 0 {
		return decodedMetricsPage{}, fmt.Errorf("totalPages is 0 but the page holds %d results", len(recs))
	}
	// Metric records have no id and pages differ in their page field, so
	// identical pages are told apart by their results alone.
	p := decodedMetricsPage{totalPages: *m.TotalPages}
	p.records = recs
	p.digest = digestOf(*m.Results)
	return p, nil
}
