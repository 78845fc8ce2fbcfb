package paging

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
	// inFlight is how many pages may be on the network at once; at least
	// 1. With 1 the read goes one page at a time: the next page is sent
	// only once this one is handed over, since what it held decides what
	// is asked next. Pages already in flight past it stay in flight.
	inFlight int
	// last is the highest page that may be sent.
	last int
}

// pageSource is a reader of one endpoint, as readPages drives it.
type pageSource[R any] interface {
	// fetch gets and decodes one page. It runs concurrently with other
	// pages.
	fetch(ctx context.Context, page int) (R, error)
	// claimsEnd says, of a page as it came back, the last page worth
	// sending if its answer is true (0: no claim): an empty page ends the
	// read there, a short page at the page after it.
	claimsEnd(page int, r R) int
	// step takes each page in page order: its result or the error
	// fetching it, and says what comes next.
	step(page int, r R, fetchErr error) (pagePlan, error)
	// beyondEnd looks at a page past the end that was already answered
	// when step said done; its error (records there) ends the read.
	beyondEnd(page int, r R) error
}

// answered is one page's result, as a worker of readPages hands it back;
// sending tells a page's sendings apart.
type answered[R any] struct {
	page, sending int
	r             R
	err           error
}

// readPages is an ordered pool: it sends pages 1, 2, … with at most the
// plan's inFlight on the network, and hands each to src.step strictly in
// page order, whatever order the answers come back in, so the result never
// depends on which request finished first. Pages answered ahead of their
// turn wait, at most as many as may be in flight, which bounds a read's
// memory. No page past the lowest end an answer claims (claimsEnd) is
// sent, and when that answer's turn comes, the pages past it still on the
// network are cancelled: what the end asks next needs their places (they
// are sent again should the end prove false). When step says done, the
// later pages already answered are handed to beyondEnd (records there
// contradict the end); every page still in flight is cancelled and
// discarded.
func readPages[R any](ctx context.Context, maxInFlight int, plan pagePlan, src pageSource[R]) (pagesRead int, discarded int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	p := &pool[R]{ctx: ctx, over: make(chan struct{}), src: src, results: make(chan answered[R], max(maxInFlight, 1)),
		held: map[int]answered[R]{}, claims: map[int]int{}, onNetwork: map[int]sending{}}
	defer func() {
		close(p.over)
		cancel()
		_ = p.g.Wait() // workers report through results, never here
	}()
	for next := 1; ; next++ {
		p.takeAnswered(next)
		res, ok := p.held[next]
		for !ok {
			p.sendAllowed(next, plan, maxInFlight)
			if len(p.onNetwork) == 0 {
				return next - 1, 0, errPageCap // next is past the plan's last page
			}
			p.take(<-p.results, next)
			res, ok = p.held[next]
		}
		delete(p.held, next)
		if upTo := p.claims[next]; upTo > 0 {
			p.cancelPast(upTo)
		}
		if plan, err = src.step(next, res.r, res.err); err != nil || plan.done {
			if err == nil {
				p.takeAnswered(next + 1)
				err = p.answeredBeyond()
			}
			return next, p.sendings - next, err // each page taken used one sending's answer; the others were not used
		}
	}
}

// pool is the state of one readPages.
type pool[R any] struct {
	ctx context.Context
	// over is closed when readPages returns: a worker still holding an
	// answer then drops it. (Not ctx: a worker must hand its answer over
	// while readPages waits for it, even as a cancelled read ends.)
	over    chan struct{}
	g       errgroup.Group // one worker a page on the network
	src     pageSource[R]
	results chan answered[R]
	held    map[int]answered[R] // answered, waiting for their turn
	claims  map[int]int         // page -> the last page worth sending, by its answer
	// onNetwork are the pages sent and not yet answered, by page.
	onNetwork map[int]sending
	sent      int // the highest page sent
	sendings  int // requests sent, resent pages included
}

// sending is one page's request on the network.
type sending struct {
	n      int
	cancel context.CancelFunc
}

// sendAllowed sends the pages the plan allows while page next is awaited:
// up to the last page worth sending, the places on the network, and the pages that may be
// held.
func (p *pool[R]) sendAllowed(next int, plan pagePlan, maxInFlight int) {
	flight := min(max(plan.inFlight, 1), maxInFlight)
	ahead := flight // one page at a time: the next waits for this one's turn
	if flight > 1 {
		ahead = 2 * flight // as many on the network, as many held
	}
	for last := lastWorthSending(plan.last, p.claims, next); p.sent < last && len(p.onNetwork) < flight && p.sent < next-1+ahead; {
		p.sent++
		if _, ok := p.held[p.sent]; !ok {
			p.send(p.sent)
		}
	}
}

func (p *pool[R]) send(page int) {
	ctx, cancel := context.WithCancel(p.ctx)
	p.sendings++
	s := sending{n: p.sendings, cancel: cancel}
	p.onNetwork[page] = s
	p.g.Go(func() error {
		r, err := p.src.fetch(ctx, page)
		select {
		case p.results <- answered[R]{page, s.n, r, err}:
		case <-p.over:
		}
		return nil
	})
}

// take keeps an answer for its turn, and its claim of the end; an answer
// of a sending that was cancelled is dropped.
func (p *pool[R]) take(a answered[R], next int) {
	s, ok := p.onNetwork[a.page]
	if !ok || s.n != a.sending {
		return
	}
	delete(p.onNetwork, a.page)
	s.cancel()
	if a.page < next {
		return
	}
	if a.err == nil {
		if upTo := p.src.claimsEnd(a.page, a.r); upTo > 0 {
			p.claims[a.page] = upTo
		}
	}
	p.held[a.page] = a
}

// takeAnswered takes every answer already back: its claim bounds what is
// sent next.
func (p *pool[R]) takeAnswered(next int) {
	for {
		select {
		case a := <-p.results:
			p.take(a, next)
		default:
			return
		}
	}
}

// cancelPast cancels the pages past last still on the network; they are
// sent again if the read goes on past last.
func (p *pool[R]) cancelPast(last int) {
	for page, s := range p.onNetwork {
		if page > last {
			s.cancel()
			delete(p.onNetwork, page)
		}
	}
	p.sent = min(p.sent, last)
}

// lastWorthSending is the last page worth sending: the plan's, or a lower one an
// answer not yet handed over claims. Claims of pages handed over are
// dropped: the read went on past them.
func lastWorthSending(last int, claims map[int]int, next int) int {
	for p, upTo := range claims {
		if p < next {
			delete(claims, p)
			continue
		}
		last = min(last, upTo)
	}
	return last
}

// answeredBeyond hands beyondEnd the pages past the end that have already
// been answered, without waiting for the others: those are the evidence
// the read already holds, and waiting on a page past the end that is
// being retried would hold up every read that ends.
func (p *pool[R]) answeredBeyond() error {
	for _, page := range slices.Sorted(maps.Keys(p.held)) {
		if a := p.held[page]; a.err == nil { // a page past the end may well be refused
			if err := p.src.beyondEnd(page, a.r); err != nil {
				return err
			}
		}
	}
	return nil
}

// errPageCap is returned when the plan's last page was reached without the
// read ending.
var errPageCap = errors.New("page cap reached")
