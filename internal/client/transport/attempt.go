package transport

import (
	"sync"
	"sync/atomic"
	"time"
)

// attempts is what one page's request went through: the retry policy's
// account, what the error that ends it reports, and the names its trace
// and logs carry. Each request has its own, bound to its hooks and its
// transport stack (Transport.retrying, Transport.stack).
type attempts struct {
	count atomic.Int32 // attempts sent
	start time.Time
	// endpoint, page and request name the page request, for its trace.
	endpoint string
	page     int
	request  uint64

	mu      sync.Mutex
	charged int    // retries charged against MaxRetries
	mark    uint64 // the client's successes at the request's last refusal for the rate
	// pausedFor is the wait the send stage set the client's pause to for
	// the answer to this request's last attempt (0: that answer was no
	// refusal for the rate): its backoff.
	pausedFor time.Duration
}

func (t *Transport) newAttempts(r Request) *attempts {
	return &attempts{
		start: time.Now(), mark: t.successes.Load(),
		endpoint: r.Endpoint, page: r.Page, request: t.requests.Add(1),
	}
}

// sent is how many attempts were sent.
func (a *attempts) sent() int { return int(a.count.Load()) }

// othersProgressed reports whether the client had answers that were not
// refused since this request was last refused for the rate (or began),
// given the client's count of successes now.
func (a *attempts) othersProgressed(successes uint64) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if successes > a.mark {
		a.mark = successes
		return true
	}
	return false
}

// charge counts one retry against limit and reports whether it may be made.
func (a *attempts) charge(limit int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.charged++
	return a.charged <= limit
}

// chargedRetries reports the retries charged so far: the backoff grows
// with them.
func (a *attempts) chargedRetries() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.charged
}

// paused notes the wait the client's pause was set to for the answer to
// the last attempt, 0 for none: the send stage writes it, the backoff
// reads it.
func (a *attempts) paused(wait time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.pausedFor = wait
}

// pause is the wait set for the last attempt's answer, if any.
func (a *attempts) pause() (time.Duration, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.pausedFor, a.pausedFor > 0
}

// fields adds the page request's endpoint and page to log fields: the URL
// logged carries no query.
func (a *attempts) fields(f map[string]any) map[string]any {
	f["endpoint"], f["page"] = a.endpoint, a.page
	return f
}
