package client

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
)

// pageStep is what a reader does with one page, in page order: it reports
// whether the read is complete, or an error that ends it.
type pageStep[R any] func(page int, r R) (done bool, err error)

// readPages fetches pages first+1, first+2, … with up to MaxConcurrency in
// flight, and hands them to step strictly in page order. lastPage bounds
// the pages that may be fetched (it can grow while reading). When step says
// done, or fails, every later page in flight is cancelled and discarded, so
// the result never depends on which request finished first.
func readPages[R any](ctx context.Context, c *Client, first int, lastPage func() int,
	fetch func(ctx context.Context, page int) (R, error), step pageStep[R],
) (pagesRead int, discarded int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	var g errgroup.Group
	g.SetLimit(c.cfg.MaxConcurrency)
	type result struct {
		r   R
		err error
	}
	inFlight := map[int]chan result{}
	launched := first
	defer func() {
		cancel()
		_ = g.Wait() // workers report through their channels, never here
		discarded = len(inFlight)
	}()

	launch := func(page int) {
		ch := make(chan result, 1)
		inFlight[page] = ch
		g.Go(func() error {
			r, err := fetch(ctx, page)
			ch <- result{r, err}
			return nil
		})
	}

	for next := first + 1; ; next++ {
		for launched < lastPage() && launched-next+1 < c.cfg.MaxConcurrency {
			launched++
			launch(launched)
		}
		if next > launched {
			return next - 1, 0, errPageCap
		}
		res := <-inFlight[next]
		delete(inFlight, next)
		if res.err != nil {
			return next, 0, res.err
		}
		done, err := step(next, res.r)
		if err != nil || done {
			return next, 0, err
		}
	}
}

// errPageCap is returned when lastPage was reached without the read ending.
var errPageCap = fmt.Errorf("page cap reached")
