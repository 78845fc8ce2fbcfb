package client

import (
	"context"
	"errors"
	"maps"
	"slices"

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
// discarded; but when step says done, the later pages already answered are
// first handed to beyondEnd (when not nil): records there contradict the
// end, and beyondEnd's error ends the read instead.
func readPages[R any](ctx context.Context, maxInFlight int, plan pagePlan,
	fetch func(ctx context.Context, page int) (R, error), step pageStep[R],
	beyondEnd func(page int, r R) error,
) (pagesRead int, discarded int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	var g errgroup.Group
	g.SetLimit(maxInFlight)
	type result = struct {
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
			if err == nil && beyondEnd != nil {
				err = answeredBeyond(inFlight, beyondEnd)
			}
			return next, 0, err
		}
	}
}

// answeredBeyond hands beyondEnd the pages past the end that have already
// been answered, without waiting for the others: those are the evidence
// the read already holds, and waiting on a page past the end that is
// being retried would hold up every read that ends.
func answeredBeyond[R any](inFlight map[int]chan struct {
	r   R
	err error
}, beyondEnd func(page int, r R) error) error {
	for _, page := range slices.Sorted(maps.Keys(inFlight)) {
		select {
		case res := <-inFlight[page]:
			delete(inFlight, page)
			if res.err != nil {
				continue // a page past the end may well be refused
			}
			if err := beyondEnd(page, res.r); err != nil {
				return err
			}
		default:
		}
	}
	return nil
}

// errPageCap is returned when the plan's last page was reached without the
// read ending.
var errPageCap = errors.New("page cap reached")
