package transport

import "time"

// attempts is what one page's request went through, for its retry policy,
// its error and its logs; its hooks all run on the request's goroutine.
type attempts struct {
	sent     int // attempts sent
	start    time.Time
	endpoint string
	page     int

	charged int    // retries charged against MaxRetries
	mark    uint64 // the client's successes at the request's last refusal for the rate
	// pausedFor is the pause the last answer set (0: no refusal for the
	// rate): the backoff.
	pausedFor time.Duration
}

func (t *Transport) newAttempts(r Request) *attempts {
	return &attempts{
		start: time.Now(), mark: t.successes.Load(),
		endpoint: r.Endpoint, page: r.Page,
	}
}

// othersProgressed reports successes since the last refusal (or start).
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

// fields adds the endpoint and page to log fields.
func (a *attempts) fields(f map[string]any) map[string]any {
	f["endpoint"], f["page"] = a.endpoint, a.page
	return f
}
