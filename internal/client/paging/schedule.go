package paging

import (
	"context"
	"errors"
	"maps"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"golang.org/x/sync/errgroup"
)

// pagePlan is what a reader decides after each page: whether the read is
// over, and which pages may be in flight next.
type pagePlan struct {
	done bool
	// inFlight is how many pages may be on the network at once (sent,
	// their answer's bytes not yet in); at least 1. With 1 the read
	// goes one page at a time: the next page leaves only once this one is
	// handed over, since what it held decides what is asked next. Pages
	// already in flight past it stay in flight: cancelling them
	// would only waste what they cost already.
	inFlight int
	// last is the highest page that may be fetched.
	last int
}

// pageSource is a reader of one endpoint, as readPages drives it.
type pageSource[R any] interface {
	// fetch gets and decodes one page. It calls bytesIn (when not nil)
	// as soon as the answer's bytes are in, before decoding them: the page
	// then leaves the network, and the next may go out while it is
	// decoded. A small answer (an empty page, the likeliest end) it may
	// decode first: what it holds then bounds what is sent next
	// (claimsEnd), at no cost in time.
	fetch(ctx context.Context, page int, bytesIn func(size int)) (R, error)
	// claimsEnd says, of a page as it came back, the last page worth
	// sending if its answer is true (0: no claim): an empty page ends the
	// read there, a short page at the page after it. It runs concurrently
	// with other pages.
	claimsEnd(page int, r R) int
	// endInSight is told of the lowest page claiming the end once every
	// page before it has been answered, and whether it claims it as an
	// empty page: what the end needs next (its second answer, the closing
	// check) may leave now, before the pages before it are decoded and
	// handed over.
	endInSight(page int, empty bool)
	// opens says, of the page whose turn it is, how many pages may be in
	// flight once step has taken it, when that is already sure (0: step
	// will say): they leave before step runs, instead of waiting on it.
	// Saying so, it believes the page's answer: step does not doubt it.
	opens(page int, r R) int
	// step takes each page in page order: its result or the error
	// fetching it, and says what comes next.
	step(page int, r R, fetchErr error) (pagePlan, error)
	// beyondEnd looks at a page past the end that was already answered
	// when step said done; its error (records there) ends the read.
	beyondEnd(page int, r R) error
}

// readPages fetches pages 1, 2, … and hands each to src.step strictly in
// page order, whatever order the responses come back in, so the result
// never depends on which request finished first. It keeps as many pages
// on the network as the latest plan allows (never more than
// maxInFlight), counting a page off the network once its bytes are in, so
// decoding runs beside the network instead of holding a place; and it
// holds at most as many pages more, answered and waiting to be
// decoded or handed over, which bounds the memory of a read. No page past
// the lowest end claimed (claimsEnd) and not yet handed over is sent, so
// pages sent past the end are only those that left before the claim was
// known. bound, when not nil, is told when decoding holds the read up
// (every page it may hold is answered, waiting to be decoded or handed
// over, while the network has room) and when it no longer does. When step says done, or fails, every later page in flight is
// cancelled and discarded; but when step says done, the later pages
// already answered are first handed to beyondEnd: records there contradict
// the end, and beyondEnd's error ends the read instead.
func readPages[R any](ctx context.Context, maxInFlight int, plan pagePlan, src pageSource[R], bound func(bool)) (pagesRead int, discarded int, err error) {
	ctx, cancel := context.WithCancel(ctx)
	var g errgroup.Group // bounded by the pages held, below
	type result = struct {
		r   R
		err error
	}
	inFlight := map[int]chan result{}
	// A page's number is sent once, when it leaves the network (bytes
	// in, or done without them): at most the pages on the network are
	// owed one.
	offNetwork := make(chan [2]int, 2*maxInFlight+1) // page and its sending (gens)
	answered := map[int]bool{}                       // pages off the network, not yet handed over
	launched, onNetwork := 0, 0
	// Pages past an end in sight, still unanswered, are cancelled
	// (dropped): their places go to what the end waits on. An end that
	// proves false sends them again; gens tells a page's sendings apart.
	gens := map[int]int{}
	cancels := map[int]context.CancelFunc{}
	dropped := map[int]bool{}
	var claimsMu sync.Mutex
	claims := map[int]int{}  // page -> the last page worth sending, by its answer
	told := 0                // the last page endInSight was told of
	var largest atomic.Int64 // the largest answer so far, in bytes
	defer func() {
		cancel()
		_ = g.Wait() // workers report through their channels, never here
	}()

	// horizon is the last page worth sending, and the lowest page claiming
	// the end (0: none).
	horizon := func(next int) (last, lowest int) {
		last = plan.last
		claimsMu.Lock()
		defer claimsMu.Unlock()
		for p, upTo := range claims {
			if p < next {
				delete(claims, p) // handed over, and the read went on
				continue
			}
			last = min(last, upTo)
			if lowest == 0 || p < lowest {
				lowest = p
			}
		}
		return last, lowest
	}
	send := func(page int) {
		onNetwork++
		ch := make(chan result, 1)
		inFlight[page] = ch
		gens[page]++
		gen := gens[page]
		ctx, cancelPage := context.WithCancel(ctx)
		cancels[page] = cancelPage
		delete(dropped, page)
		g.Go(func() error {
			var once sync.Once
			leave := func() {
				once.Do(func() {
					offNetwork <- [2]int{page, gen}
					// Let the loop send the next page now: on a busy
					// machine this goroutine would decode on, and the
					// loop wait for a core, for up to a time slice.
					runtime.Gosched()
				})
			}
			// A large answer leaves before it is decoded when it is about
			// as large as the largest so far: a smaller one may be the
			// short page that ends the read, and decoded first (a few
			// milliseconds), its claim bounds what is sent next instead
			// of a page past the end going out in its place.
			early := func(size int) {
				if int64(size)*10 >= largest.Load()*9 {
					leave()
				}
				storeMax(&largest, int64(size))
			}
			r, err := src.fetch(ctx, page, early)
			if err == nil {
				if upTo := src.claimsEnd(page, r); upTo > 0 {
					claimsMu.Lock()
					claims[page] = upTo
					claimsMu.Unlock()
				}
			}
			leave() // after the claim: the place it frees sees the horizon
			ch <- result{r, err}
			return nil
		})
	}
	launch := func() {
		launched++
		send(launched)
	}
	// drop cancels the pages past last not yet answered: the end in sight
	// needs their places more (its other question, the closing check).
	drop := func(last int) {
		for p := range inFlight {
			if p > last && !answered[p] {
				cancels[p]()
				delete(inFlight, p)
				gens[p]++ // what its sending still says is stale
				dropped[p] = true
			}
		}
	}
	// tellEnd tells src of the lowest claim once every page before it
	// was answered, and reports whether it did.
	tellEnd := func(next, lowest int) bool {
		if lowest == 0 || lowest <= told {
			return false
		}
		for p := next; p < lowest; p++ {
			if !answered[p] {
				return false
			}
		}
		told = lowest
		claimsMu.Lock()
		empty := claims[lowest] == lowest
		claimsMu.Unlock()
		src.endInSight(lowest, empty)
		return true
	}
	heldUp := false // decoding, not the network, holds the read up
	defer func() {
		if heldUp {
			bound(false)
		}
	}()
	// sendAllowed sends what the plan allows while page next is awaited:
	// the pages dropped for an end that did not hold, then new pages, up to
	// the horizon, the places on the network and the pages that may be
	// held.
	sendAllowed := func(next int) (flight, ahead, last, lowest int) {
		flight = min(max(plan.inFlight, 1), maxInFlight)
		ahead = flight // one page at a time: the next waits for this one's turn
		if flight > 1 {
			ahead = 2 * flight // as many on the network, as many held
		}
		last, lowest = horizon(next)
		for p := next; p <= min(last, launched) && onNetwork < flight; p++ {
			if dropped[p] {
				send(p) // the end it was dropped for did not hold
			}
		}
		for launched < last && onNetwork < flight && launched < next-1+ahead {
			launch()
		}
		return flight, ahead, last, lowest
	}
	for next := 1; ; next++ {
		var res result
		for got := false; !got; {
			flight, ahead, last, lowest := sendAllowed(next)
			if bound != nil && flight > 1 {
				if now := onNetwork < flight && launched >= next-1+ahead && launched < last; now != heldUp {
					heldUp = now
					bound(now)
				}
			}
			if next > launched && launched >= plan.last {
				return next - 1, 0, errPageCap
			}
			// Not yet sent (the pages on the network may be owed their
			// places still): the select below waits for a place, as
			// receiving from the nil channel of a page not sent blocks.
			if tellEnd(next, lowest) {
				drop(last)
			}
			// The page whose turn it is first: the read may end there.
			select {
			case res = <-inFlight[next]:
				got = true
				continue
			default:
			}
			select {
			case off := <-offNetwork:
				onNetwork--
				if p := off[0]; p >= next && off[1] == gens[p] {
					answered[p] = true
				}
			case res = <-inFlight[next]:
				got = true
			}
		}
		delete(inFlight, next)
		delete(answered, next)
		if res.err == nil {
			if f := src.opens(next, res.r); f > plan.inFlight {
				plan.inFlight = f
				sendAllowed(next + 1)
			}
		}
		if plan, err = src.step(next, res.r, res.err); err != nil || plan.done {
			if err == nil {
				err = answeredBeyond(inFlight, src.beyondEnd)
			}
			return next, launched - next, err // sent past the last page taken: not used
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

// storeMax raises m to v when v is larger.
func storeMax(m *atomic.Int64, v int64) {
	for old := m.Load(); v > old; old = m.Load() {
		if m.CompareAndSwap(old, v) {
			return
		}
	}
}

// errPageCap is returned when the plan's last page was reached without the
// read ending.
var errPageCap = errors.New("page cap reached")
