package transport

import "time"

// attempts is what one page's request went through: the retry policy's
// account, what the error that ends it reports, and the names its logs
// carry. Each request has its own, bound to its hooks and its
// transport stack (Transport.retrying, Transport.stack), which all run on
// the request's goroutine.
type attempts struct {
	sent     int // attempts sent
	start    time.Time
	endpoint string
	page     int

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
		endpoint: r.Endpoint, page: r.Page,
	}
}

// othersProgressed reports whether the client had successes since this
// request was last refused for the rate (or began), given its count now.
func (a *attempts) othersProgressed(successes uint64) bool {
	progressed := successes > a.mark
	a.mark = successes
	return progressed
}

// charge counts one retry against limit and reports whether it may be made.
func (a *attempts) charge(limit int) bool {
	a.charged++
	return a.charged <= limit
}

// fields adds the page request's endpoint and page to log fields: the URL
// logged carries no query.
func (a *attempts) fields(f map[string]any) map[string]any {
	f["endpoint"], f["page"] = a.endpoint, a.page
	return f
}
