package sandbox

import (
	"net/http"
	"slices"
	"sync"
	"time"
)

// Faults are deterministic and selectable per server.
//
// Every count-based fault (ConnectionResets, ServerErrors, RateLimited) is
// counted per (endpoint, requested page number): ServerErrors: 2 means every
// page's first 2 attempts fail, so tests stay deterministic under concurrent
// clients. When several are set they are consumed in sequence, so each is
// observable: attempts 1..ConnectionResets are reset, the next ServerErrors
// attempts get ServerErrorStatus, the next RateLimited attempts get 429, and
// later attempts succeed.
//
// OnlyPages restricts the page-scoped faults (the three count-based ones and
// SlowBody) to those pages; empty means all pages. Latency applies to every
// request. NonJSONPage and TruncatedPage name their page themselves and apply
// to every attempt of it, after the count-based faults are used up.
//
// A reset on a reused keep-alive connection may be retried once by
// net/http's Transport itself (GET is idempotent), so a client can see it
// only as extra latency; Requests and RequestLog still count both attempts.
// Use a client without keep-alives to observe every reset.
//
// Faults apply to all five endpoints; InsertAfterPage affects memberships,
// payments and groups (org metrics are monthly periods, nothing to insert).
type Faults struct {
	Latency time.Duration // sleep before answering every request; ends early if the request is cancelled
	// LatencyJitter spreads Latency: each answer sleeps Latency × (1 + u),
	// u drawn evenly from [-LatencyJitter, +LatencyJitter] by JitterSeed,
	// the request (endpoint and query) and its attempt: one seed is one
	// set of latencies, whatever order requests arrive in. 0.2 is ±20%.
	LatencyJitter     float64
	JitterSeed        uint64
	RateLimited       int           // first N attempts per page answer 429 with Retry-After
	RetryAfter        string        // header value for 429s, e.g. "1" or an HTTP date; "" means "0"
	ServerErrors      int           // first N attempts per page answer ServerErrorStatus
	ServerErrorStatus int           // default 503
	ConnectionResets  int           // first N attempts per page: the connection is reset with no response
	SlowBody          time.Duration // write the body in ~10 flushed chunks spread over this duration
	NonJSONPage       int           // this page answers 200 with an HTML body (Content-Type text/html)
	TruncatedPage     int           // this page answers 200 with valid JSON cut roughly in half
	IgnorePage        bool          // the page parameter is ignored: page 1 is always served (metadata echoes page 1)
	InsertAfterPage   int           // after this page is first served, InsertCount records are inserted at the FRONT of that endpoint's list
	InsertCount       int
	RemoveAfterPage   int // after this page is first served, RemoveCount records are removed from the FRONT of that endpoint's list
	RemoveCount       int
	OnlyPages         []int

	// RateLimit, when above 0, is a token bucket shared by every request
	// to the five endpoints, as a server's rate limit is: RateLimit
	// requests a second, bursts of RateBurst (0: RateLimit, at least 1).
	// A request that finds the bucket empty is answered 429 with
	// Retry-After: the whole seconds until a token is there (at least 1),
	// and takes no token.
	RateLimit float64
	RateBurst int

	// Chaos, when its Share is above 0, is a seeded schedule of transient
	// faults and lies (chaos.go), on top of the faults above.
	Chaos Chaos

	// Deviations from the specification a client must survive (deviations.go).

	// PageSizeCap, when above 0, serves at most this many records a page,
	// whatever count or limit asks.
	PageSizeCap int
	// IgnoreCount names endpoints whose count or limit is ignored: the
	// specification's default is served.
	IgnoreCount []string
	// PastEndStatus, when set, answers a count-style page past the last
	// with this status (e.g. 404) instead of [].
	PastEndStatus int
	// OutOfOrderInsertPage, when above 0: the first request for this page
	// waits until the next page has been served (at most OutOfOrderWait,
	// default 2 s), then InsertCount records are inserted at the front,
	// then this page is served: pages answered out of order around an
	// insert, as a concurrent read meets them.
	OutOfOrderInsertPage int
	OutOfOrderWait       time.Duration
	// EqualOrgMetrics serves every org-metric record as the same all-null
	// record.
	EqualOrgMetrics bool
	// BrokenTextPages are pages of memberships, payments and groups whose
	// first record's text field (display_name, channel, name) starts with
	// an unpaired surrogate escape (\ud83d), and the second record's with
	// an invalid UTF-8 byte (0xff).
	BrokenTextPages []int
	// IgnoreStatusFilter ignores the memberships status filter: every
	// status is served.
	IgnoreStatusFilter bool

	// Oversized answers, which only a bound on what a read holds stops (oversize.go).

	// EndlessPages fills every page of every list endpoint with as many
	// new records as asked: the list never ends (limit-style pages say
	// there is one more page).
	EndlessPages bool
	// HugePage, when above 0, serves this many records ({"_id":"huge-N"})
	// on page 1 of every list endpoint, whatever was asked, and none after.
	HugePage int
	// BloatAnswers gives the first membership of page 1 this many custom
	// answers ({}).
	BloatAnswers int
	// BloatDepth gives the first membership of page 1 a profile address
	// this many arrays deep.
	BloatDepth int
}

// action is what the fault layer decided for one attempt.
type action int

const (
	actServe action = iota
	actReset
	actServerError
	actRateLimit
)

type attemptKey struct {
	ep   int
	page int
}

// faultState holds the active faults and the per-page attempt counters.
type faultState struct {
	mu         sync.Mutex
	f          Faults
	attempts   map[attemptKey]int
	inserted   [numEndpoints]bool
	removed    [numEndpoints]bool
	outOfOrder [numEndpoints]bool      // the out-of-order insert has been claimed
	served     map[attemptKey]struct{} // pages answered with 200 since SetFaults
	// chaosAttempts counts attempts per request (endpoint and query), for
	// the chaos schedule.
	chaosAttempts map[string]int
	// latencyDraws counts the latencies drawn per request, for the jitter.
	latencyDraws map[string]int
	bucket       tokenBucket
}

// set replaces the faults and forgets attempts and inserts, so a test can
// switch fault sets between phases of one server.
func (fs *faultState) set(f Faults) {
	f.OnlyPages = slices.Clone(f.OnlyPages)
	f.IgnoreCount = slices.Clone(f.IgnoreCount)
	f.BrokenTextPages = slices.Clone(f.BrokenTextPages)
	if f.ServerErrorStatus == 0 {
		f.ServerErrorStatus = http.StatusServiceUnavailable
	}
	if f.RetryAfter == "" {
		f.RetryAfter = "0"
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.f = f
	fs.attempts = make(map[attemptKey]int)
	fs.inserted = [numEndpoints]bool{}
	fs.removed = [numEndpoints]bool{}
	fs.outOfOrder = [numEndpoints]bool{}
	fs.served = make(map[attemptKey]struct{})
	fs.chaosAttempts = make(map[string]int)
	fs.latencyDraws = make(map[string]int)
	fs.bucket = newTokenBucket(f.RateLimit, f.RateBurst, time.Now())
}

// latency is how long the answer to an attempt at the request named key
// waits: Latency, spread by LatencyJitter.
func (fs *faultState) latency(key string) time.Duration {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f := fs.f
	if f.LatencyJitter <= 0 || f.Latency <= 0 {
		return f.Latency
	}
	fs.latencyDraws[key]++
	u := 2*unitDraw(f.JitterSeed, key, fs.latencyDraws[key]) - 1 // in [-1, 1)
	return time.Duration(float64(f.Latency) * (1 + u*min(f.LatencyJitter, 1)))
}

// takeToken takes a token from the rate-limit bucket; when there is none it
// returns the Retry-After to answer with.
func (fs *faultState) takeToken() (retryAfter string, ok bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.bucket.take(time.Now())
}

// claimOutOfOrder reports true exactly once per endpoint (until the next
// SetFaults): the request that gets it holds for the out-of-order insert.
func (fs *faultState) claimOutOfOrder(ep int) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.outOfOrder[ep] {
		return false
	}
	fs.outOfOrder[ep] = true
	return true
}

func (fs *faultState) markServed(ep, page int) {
	fs.mu.Lock()
	fs.served[attemptKey{ep, page}] = struct{}{}
	fs.mu.Unlock()
}

func (fs *faultState) wasServed(ep, page int) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	_, ok := fs.served[attemptKey{ep, page}]
	return ok
}

func (fs *faultState) get() Faults {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.f
}

// inScope reports whether page-scoped faults apply to page.
func (f *Faults) inScope(page int) bool {
	return len(f.OnlyPages) == 0 || slices.Contains(f.OnlyPages, page)
}

// attempt counts one attempt at (ep, page) and says which count-based fault,
// if any, it gets.
func (fs *faultState) attempt(ep, page int) (action, Faults) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f := fs.f
	if !f.inScope(page) || f.ConnectionResets+f.ServerErrors+f.RateLimited <= 0 {
		return actServe, f
	}
	k := attemptKey{ep, page}
	fs.attempts[k]++
	n := fs.attempts[k]
	switch {
	case n <= f.ConnectionResets:
		return actReset, f
	case n <= f.ConnectionResets+f.ServerErrors:
		return actServerError, f
	case n <= f.ConnectionResets+f.ServerErrors+f.RateLimited:
		return actRateLimit, f
	}
	return actServe, f
}

// shouldInsert reports, exactly once per endpoint (until the next SetFaults),
// that the insert fault fires now that page has been served, and how many.
func (fs *faultState) shouldInsert(ep, page int) (int, bool) {
	return fs.fireOnce(&fs.inserted, ep, page, func(f Faults) (int, int) { return f.InsertAfterPage, f.InsertCount })
}

// shouldRemove is shouldInsert for RemoveAfterPage: records deleted from
// the front of a list while a client reads it.
func (fs *faultState) shouldRemove(ep, page int) (int, bool) {
	return fs.fireOnce(&fs.removed, ep, page, func(f Faults) (int, int) { return f.RemoveAfterPage, f.RemoveCount })
}

// fireOnce is a change of a list once the page the fault names (of
// afterCount, read under the lock) is first served: that many records,
// once per endpoint (fired), never for org metrics.
func (fs *faultState) fireOnce(fired *[numEndpoints]bool, ep, page int, afterCount func(Faults) (int, int)) (int, bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	after, count := afterCount(fs.f)
	if after <= 0 || count <= 0 || page != after || ep == epOrgMetrics || fired[ep] {
		return 0, false
	}
	fired[ep] = true
	return count, true
}

// chaosAttempt counts an attempt at the request named key and returns what
// it gets.
func (fs *faultState) chaosAttempt(key string) chaosKind {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	c := fs.f.Chaos
	if c.Share <= 0 {
		return chaosClean
	}
	fs.chaosAttempts[key]++
	return c.kindOf(key, fs.chaosAttempts[key])
}
