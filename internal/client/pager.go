package client

import (
	"context"
	"errors"

	"golang.org/x/sync/errgroup"
)

// pagePlan is what a reader decides after each page: whether the read is
// over, and which pages may be in flight next.
type pagePlan struct {
	done bool
	// window is how many pages, counted from the next page to hand over,
	// may be in flight; at least 1. Pages already in flight past it stay
	// in flight: cancelling them would only waste what they cost already.
	window int
	// last is the highest page that may be fetched.
	last int
}

// pageStep is what a reader does with one page, in page order: the page's
// result or the error fetching it, and the plan from there on.
type pageStep[R any] func(page int, r R, fetchErr error) (pagePlan, error)

// readPages fetches pages 1, 2, … and hands each to step strictly in page
// order, whatever order the responses come back in, so the result never
// depends on which request finished first. It keeps as many pages in flight
// as the latest plan's window allows (never more than maxInFlight). When
// step says done, or fails, every later page in flight is cancelled and
// discarded.
func readPages[R any](ctx context.Context, maxInFlight int, plan pagePlan,
	fetch func(ctx context.Context, page int) (R, error), step pageStep[R],
) (pagesRead int, discarded int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	var g errgroup.Group
	g.SetLimit(maxInFlight)
	type result struct {
		r   R
		err error
	}
	inFlight := map[int]chan result{}
	launched := 0
	defer func() {
		cancel()
		_ = g.Wait() // workers report through their channels, never here
		discarded = len(inFlight)
	}()

	for next := 1; ; next++ {
		window := min(max(plan.window, 1), maxInFlight)
		for launched < plan.last && launched < next-1+window {
			launched++
			ch := make(chan result, 1)
			inFlight[launched] = ch
			page := launched
			g.Go(func() error {
				r, err := fetch(ctx, page)
				ch <- result{r, err}
				return nil
			})
		}
		if next > launched {
			return next - 1, 0, errPageCap
		}
		res := <-inFlight[next]
		delete(inFlight, next)
		if plan, err = step(next, res.r, res.err); err != nil || plan.done {
			return next, 0, err
		}
	}
}

// errPageCap is returned when the plan's last page was reached without the
// read ending.
var errPageCap = errors.New("page cap reached")
