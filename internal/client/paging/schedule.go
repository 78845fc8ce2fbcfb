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
	// inFlight is how many pages may be on the network at once; with 1
	// the next is sent only once this one is handed over.
	inFlight int
	// keepPlaces: a page keeps its place until handed over, so no more
	// than inFlight pages are out past the page awaited (while the read
	// may yet end on them).
	keepPlaces bool
	// last is the highest page that may be sent.
	last int
}

// pageSource is a reader of one endpoint, as readPages drives it.
type pageSource[R any] interface {
	// fetch gets and decodes one page, concurrently with other pages; it
	// calls Arrived(ctx) once the page's body is off the network.
	fetch(ctx context.Context, page int) (R, error)
	// claimsEnd is the last page worth sending if a page's answer is
	// true (0: no claim).
	claimsEnd(page int, r R) int
	// step takes each page in page order, and says what comes next.
	step(page int, r R, fetchErr error) (pagePlan, error)
	// beyondEnd looks at a page past the end already answered when step
	// said done; an error (records there) ends the read.
	beyondEnd(page int, r R) error
}

// answered is one page's result, or with arrived its body's arrival;
// sending tells a page's sendings apart.
type answered[R any] struct {
	page, sending int
	arrived       bool
	r             R
	err           error
}

// arrivedKey holds, in the context of a fetch the pool sends, what
// Arrived calls.
type arrivedKey struct{}

// Arrived tells the pool that the page asked in ctx has come off the
// network and is being decoded: its place in flight goes to the next page
// meanwhile. It may be called once an attempt; a page asked again after
// it (a body that was not a page) is not counted on the network again,
// and the client's limit on requests in flight bounds it. A fetch that
// never calls it holds its place until it returns; outside the pool it
// does nothing.
func Arrived(ctx context.Context) {
	if arrived, ok := ctx.Value(arrivedKey{}).(func()); ok {
		arrived()
	}
}

// readPages is an ordered pool: it sends pages 1, 2, … with at most the
// plan's inFlight on the network, and hands each to src.step strictly in
// page order, so the result never depends on which request finished first.
// A page whose body has arrived gives its place to the next while it is
// decoded (Arrived); the pages sent and not yet handed over, on the
// network, decoding or answered, are at most twice the places (ahead). No
// page past the lowest end a decoded answer claims is sent; when that
// answer's turn comes, the pages past it still out are cancelled (and
// sent again should the end prove false; a cancelled decoding runs to its
// end). When step says done, the later pages already answered go to
// beyondEnd.
func readPages[R any](ctx context.Context, maxInFlight int, plan pagePlan, src pageSource[R]) (pagesRead int, discarded int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	p := &pool[R]{ctx: ctx, over: make(chan struct{}), src: src, results: make(chan answered[R], 4*max(maxInFlight, 1)),
		waiting: map[int]answered[R]{}, claims: map[int]int{}, onNetwork: map[int]sending{}, decoding: map[int]sending{}}
	defer func() {
		close(p.over)
		cancel()
		_ = p.g.Wait() // workers report through results, never here
	}()
	for next := 1; ; next++ {
		p.takeAnswered(next)
		p.sendAllowed(next, plan, maxInFlight) // also while answered pages are handed over
		res, ok := p.waiting[next]
		for !ok {
			if len(p.onNetwork)+len(p.decoding) == 0 {
				return next - 1, 0, errPageCap // next is past the plan's last page
			}
			p.take(<-p.results, next)
			p.sendAllowed(next, plan, maxInFlight)
			res, ok = p.waiting[next]
		}
		delete(p.waiting, next)
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
	// answer drops it (not ctx: readPages may be waiting for it).
	over    chan struct{}
	g       errgroup.Group // one worker a page on the network
	src     pageSource[R]
	results chan answered[R]
	waiting map[int]answered[R] // answered, waiting for their turn
	claims  map[int]int         // page -> the last page worth sending, by its answer
	// onNetwork are the pages sent and not yet arrived, by page; decoding
	// those arrived and not yet answered.
	onNetwork, decoding map[int]sending
	sent                int // the highest page sent
	sendings            int // requests sent, resent pages included
}

// sending is one page's request on the network.
type sending struct {
	n      int
	cancel context.CancelFunc
}

// sendAllowed sends what the plan allows while page next is awaited or
// handed over.
func (p *pool[R]) sendAllowed(next int, plan pagePlan, maxInFlight int) {
	flight := min(max(plan.inFlight, 1), maxInFlight)
	ahead := flight // the next waits for a page's turn, not its arrival
	if flight > 1 && !plan.keepPlaces {
		ahead = 2 * flight // out, decoding or answered, past the page awaited
	}
	for last := lastWorthSending(plan.last, p.claims, next); p.sent < last && len(p.onNetwork) < flight && p.sent < next-1+ahead; {
		p.sent++
		if _, ok := p.waiting[p.sent]; !ok {
			p.send(p.sent)
		}
	}
}

func (p *pool[R]) send(page int) {
	ctx, cancel := context.WithCancel(p.ctx)
	p.sendings++
	s := sending{n: p.sendings, cancel: cancel}
	p.onNetwork[page] = s
	arrived := func() { // never waits: a full channel leaves the place taken until the answer
		select {
		case p.results <- answered[R]{page: page, sending: s.n, arrived: true}:
		default:
		}
	}
	p.g.Go(func() error {
		r, err := p.src.fetch(context.WithValue(ctx, arrivedKey{}, arrived), page)
		select {
		case p.results <- answered[R]{page: page, sending: s.n, r: r, err: err}:
		case <-p.over:
		}
		return nil
	})
}

// take moves an arrived page to decoding, and keeps an answer for its
// turn, and its claim of the end; a cancelled sending's is dropped.
func (p *pool[R]) take(a answered[R], next int) {
	s, ok := p.onNetwork[a.page]
	if !ok {
		s, ok = p.decoding[a.page]
	}
	if !ok || s.n != a.sending {
		return
	}
	delete(p.onNetwork, a.page)
	if a.arrived {
		p.decoding[a.page] = s
		return
	}
	delete(p.decoding, a.page)
	s.cancel()
	if a.page < next {
		return
	}
	if a.err == nil {
		if upTo := p.src.claimsEnd(a.page, a.r); upTo > 0 {
			p.claims[a.page] = upTo
		}
	}
	p.waiting[a.page] = a
}

// takeAnswered takes every answer already back.
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

// cancelPast cancels the pages past last still on the network or
// decoding.
func (p *pool[R]) cancelPast(last int) {
	for _, sent := range []map[int]sending{p.onNetwork, p.decoding} {
		for page, s := range sent {
			if page > last {
				s.cancel()
				delete(sent, page)
			}
		}
	}
	p.sent = min(p.sent, last)
}

// lastWorthSending is the plan's last page, or a lower one an answer not
// yet handed over claims; claims of pages handed over are dropped.
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

// answeredBeyond hands beyondEnd the pages past the end already answered,
// without waiting for the others (one being retried would hold up the
// read).
func (p *pool[R]) answeredBeyond() error {
	for _, page := range slices.Sorted(maps.Keys(p.waiting)) {
		if a := p.waiting[page]; a.err == nil { // a page past the end may well be refused
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
