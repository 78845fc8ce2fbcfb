package sandbox

import (
	"net/url"
	"strings"
	"sync"
	"time"
)

// RequestRecord describes one request the server received.
type RequestRecord struct {
	Endpoint      string     // "memberships", "payments", "groups", "org_metrics"; "" for an unknown path
	Query         url.Values // the query, with token-like parameters redacted
	Authorization bool       // whether a valid bearer token was presented (false when the request never got to the auth check: 404, 405)
	Status        int        // status answered; 0 when no response was written (connection reset, client gone)
	// Arrived is when the request came in; Finished, when its answer was
	// written (after Latency): the server's view of a read's timeline.
	Arrived, Finished time.Time
	// Latency is the wait drawn for this answer (Faults.Latency, spread by
	// LatencyJitter): the network's share of Finished − Arrived, the rest
	// being the sandbox's own work and the body's transfer. A benchmark's
	// floor is built from it.
	Latency time.Duration
}

// maxLog bounds RequestLog: enough for any test, small enough for a
// benchmark that sends a million requests.
const maxLog = 10000

// counters count requests and keep the latest maxLog of them.
type counters struct {
	mu    sync.Mutex
	total int
	by    [numEndpoints]int
	log   []RequestRecord // ring buffer once it holds maxLog records
	next  int             // oldest record (the next to overwrite) once the ring is full
}

func (c *counters) begin(ep int, known bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.total++
	if known {
		c.by[ep]++
	}
}

func (c *counters) end(rec RequestRecord) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.log) < maxLog {
		c.log = append(c.log, rec)
		return
	}
	c.log[c.next] = rec
	c.next = (c.next + 1) % maxLog
}

// redactQuery copies the query with token-like parameters masked, so logs
// and RequestLog never hold a credential (the legacy API took ?token=).
func redactQuery(q url.Values) url.Values {
	for k, vs := range q {
		switch strings.ToLower(k) {
		case "token", "access_token", "api_key", "client_secret":
			masked := make([]string, len(vs))
			for i := range masked {
				masked[i] = "REDACTED"
			}
			q[k] = masked
		}
	}
	return q
}
