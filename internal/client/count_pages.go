package client

import (
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"time"
)

// decodedPage is one decoded page of a count-style endpoint.
type decodedPage[T any] struct {
	records []decodedRecord[T]
	digest  uint64
}

// readCountPages reads a count-style endpoint (page, count; JSON array
// responses) to its end: the first page with fewer records than asked for,
// or an empty one (spec rule 4). Page 1 is fetched alone, so a small answer
// costs one request; if it is full, later pages are fetched concurrently.
func readCountPages[T any, PT interface {
	*T
	record
}](ctx context.Context, c *Client, req pageRequest, keepRaw bool) ([]T, error) {
	start := time.Now()
	fetch := func(ctx context.Context, page int) (decodedPage[T], error) {
		r := req
		r.page = page
		body, err := c.fetch(ctx, r)
		if err != nil {
			return decodedPage[T]{}, err
		}
		recs, err := decodeArray[T, PT](body, keepRaw)
		if err != nil {
			return decodedPage[T]{}, &PageError{Endpoint: req.endpoint, Page: page, Reason: "the response could not be decoded", Err: err}
		}
		return decodedPage[T]{records: recs, digest: digestOf(body)}, nil
	}

	acc := newAccumulator[T, PT](req.endpoint, req.size, keepRaw)
	first, err := fetch(ctx, 1)
	if err != nil {
		return nil, err
	}
	done, err := acc.add(1, first)
	if err != nil {
		return nil, err
	}
	pages, discarded := 1, 0
	if !done {
		pages, discarded, err = readPages(ctx, c,
			1,
			func() int { return c.cfg.MaxPages },
			fetch, acc.add)
		if errors.Is(err, errPageCap) {
			return nil, &PageError{Endpoint: req.endpoint, Page: pages, Reason: fmt.Sprintf("the read passed the cap of %d pages without a short page; the server may be ignoring the page parameter", c.cfg.MaxPages), Err: ErrNotAdvancing}
		}
		if err != nil {
			return nil, err
		}
	}
	c.cfg.Logger.Debug(ctx, "read complete", map[string]any{
		"endpoint": req.endpoint, "records": len(acc.out), "pages": pages,
		"page_size": req.size, "duplicates_dropped": acc.duplicates,
		"requests_discarded": discarded, "duration": time.Since(start).String(),
	})
	return acc.out, nil
}

// accumulator keeps records in API order, each once, and notices a server
// that is not advancing.
type accumulator[T any, PT interface {
	*T
	record
}] struct {
	endpoint   string
	size       int
	keepRaw    bool
	out        []T
	seen       map[string]struct{}
	digests    map[uint64]int
	duplicates int
}

func newAccumulator[T any, PT interface {
	*T
	record
}](endpoint string, size int, keepRaw bool) *accumulator[T, PT] {
	return &accumulator[T, PT]{
		endpoint: endpoint, size: size, keepRaw: keepRaw,
		seen: map[string]struct{}{}, digests: map[uint64]int{},
	}
}

func (a *accumulator[T, PT]) add(page int, p decodedPage[T]) (done bool, err error) {
	if len(p.records) == 0 {
		return true, nil
	}
	if earlier, ok := a.digests[p.digest]; ok {
		return false, &PageError{Endpoint: a.endpoint, Page: page, Reason: fmt.Sprintf("the page is identical to page %d", earlier), Err: ErrNotAdvancing}
	}
	a.digests[p.digest] = page
	fresh := a.keep(p.records)
	if fresh == 0 && len(p.records) >= a.size {
		return false, &PageError{Endpoint: a.endpoint, Page: page, Reason: "every record on this full page was already read on earlier pages", Err: ErrNotAdvancing}
	}
	return len(p.records) < a.size, nil
}

// keep appends the records not seen before and returns how many it kept.
// Records shift when the data changes during a read, so one can show up
// on two pages; it is kept at its first position.
func (a *accumulator[T, PT]) keep(records []decodedRecord[T]) int {
	fresh := 0
	for i := range records {
		d := &records[i]
		key := PT(&d.rec).dedupKey()
		if key == "" {
			key = "\x00" + string(d.raw) // no id: compare the whole record
		}
		if _, dup := a.seen[key]; dup {
			a.duplicates++
			continue
		}
		a.seen[key] = struct{}{}
		if a.keepRaw {
			PT(&d.rec).setRaw(d.raw)
		}
		a.out = append(a.out, d.rec)
		fresh++
	}
	return fresh
}

// digestSeed is per process: digests only compare pages of one read.
var digestSeed = maphash.MakeSeed()

// digestOf fingerprints a page to notice a server serving the same page
// again. 64 bits make a false match among a read's pages vanishingly rare.
func digestOf(b []byte) uint64 { return maphash.Bytes(digestSeed, b) }
