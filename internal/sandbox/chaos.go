package sandbox

import (
	"context"
	"encoding/binary"
	"hash/fnv"
	"net/http"
	"time"
)

// Chaos is a seeded schedule of what goes wrong, as a real service goes
// wrong for a moment: transient faults (429, 5xx as JSON and as HTML, a
// reset, a slow first byte, a body cut off) and, with Lies, 200s that lie
// (an empty page where records are, a page cut short at a record boundary,
// a maintenance page, an error object, JSON cut off), the way a lagging
// replica, a cache or a search backend that timed out answers.
//
// What an attempt gets is decided from the seed, the request (its endpoint
// and query, sorted) and the attempt's number for that request alone: one
// seed is one schedule, whatever order concurrent requests arrive in. Only
// the first and second attempts of a request go wrong, a Share of each; at
// most one of the two lies, so that asking again always gets the truth
// (the other may still be a transient fault). Later attempts are clean.
//
// With Tellings above 1, a plausible lie (an empty page, or one cut short)
// drawn for a request's first attempt is told again on its next attempts,
// up to attempt Tellings, as a cache keyed by URL or a lagging replica
// bound to a kept-alive connection answers the same question the same way;
// the attempts after it are clean. Asking the same URL again then cannot
// tell the lie from the truth; another question can.
type Chaos struct {
	Seed     uint64
	Share    float64 // of first and second attempts that go wrong, 0..1
	Lies     bool    // 200s that lie too, not only transient faults
	Tellings int     // attempts a plausible first lie is told on (0 or 1: once)
}

// chaosKind is what one attempt gets.
type chaosKind int

const (
	chaosClean chaosKind = iota
	// Transient faults.
	chaosRateLimited // 429, Retry-After: 0
	chaosServerJSON  // 500 with a JSON error
	chaosGatewayHTML // 502 with an HTML page
	chaosUnavailable // 503 with a JSON error, no Retry-After
	chaosReset       // the connection reset, no answer
	chaosSlowStart   // the answer's first byte 300 ms late, then the truth
	chaosCutBody     // the body cut off mid-way by a closed connection
	lieEmpty         // the lies follow, a 200 each: an empty page
	lieShort         // the page cut short at a record boundary
	lieMaintenance   // an HTML maintenance page
	lieErrorObject   // a JSON error object where the page belongs
	lieCutJSON       // JSON cut off, with a Content-Length that fits it
	numChaosKinds
)

const (
	firstLie          = lieEmpty
	numTransientKinds = int(firstLie) - 1
)

func (k chaosKind) lies() bool { return k >= firstLie }

// plausible is a lie a client cannot tell from a true page by looking at
// it: valid JSON of the page's shape, with fewer records.
func (k chaosKind) plausible() bool { return k == lieEmpty || k == lieShort }

// String names a kind, for tests and the campaign's report.
func (k chaosKind) String() string {
	return [...]string{"clean", "429", "500 JSON", "502 HTML", "503 JSON", "reset", "slow first byte",
		"cut body", "empty page", "short page", "maintenance page", "error object", "cut JSON"}[k]
}

// kindOf is what attempt (1, 2, …) of the request named key gets.
func (c Chaos) kindOf(key string, attempt int) chaosKind {
	if attempt < 1 || c.Share <= 0 {
		return chaosClean
	}
	if c.Tellings > 1 {
		if first := c.roll(key, 1); first.plausible() {
			if attempt <= c.Tellings {
				return first
			}
			return chaosClean
		}
	}
	if attempt > 2 {
		return chaosClean
	}
	k := c.roll(key, attempt)
	if attempt == 2 && k.lies() && c.roll(key, 1).lies() {
		// One lie a request: the second attempt is a transient fault.
		return chaosKind(1 + int(k-firstLie)%numTransientKinds)
	}
	return k
}

// draw is a number drawn from seed, a request's key and an attempt (or
// any count of that request): the same three, the same number.
func draw(seed uint64, key string, attempt int) uint64 {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	h.Write([]byte(key))
	h.Write([]byte{0, byte(attempt)})
	return h.Sum64()
}

// unitDraw is draw as a fraction in [0, 1).
func unitDraw(seed uint64, key string, attempt int) float64 {
	return float64(draw(seed, key, attempt)%1_000_000) / 1_000_000
}

// roll draws an attempt's kind from the schedule, before the one-lie rule.
func (c Chaos) roll(key string, attempt int) chaosKind {
	sum := draw(c.Seed, key, attempt)
	if float64(sum%1_000_000)/1_000_000 >= c.Share {
		return chaosClean
	}
	n := uint64(numTransientKinds)
	if c.Lies {
		n = uint64(numChaosKinds) - 1
	}
	return chaosKind(1 + (sum>>32)%n)
}

// chaosKey names a request for the schedule: its endpoint and its query,
// sorted (url.Values.Encode sorts by key).
func chaosKey(ep int, r *http.Request) string {
	return endpointNames[ep] + "?" + redactQuery(r.URL.Query()).Encode()
}

// serveTransient answers with a transient fault; it reports false for a
// kind that is not one (and for the slow start, after its delay, so the
// truth is served).
func serveTransient(ctx context.Context, w http.ResponseWriter, k chaosKind) (status int, answered bool) {
	switch k {
	case chaosRateLimited:
		w.Header().Set("Retry-After", "0")
		return writeError(w, http.StatusTooManyRequests, "rate_limited", "too many requests"), true
	case chaosServerJSON:
		return writeError(w, http.StatusInternalServerError, "server_error", "simulated server error"), true
	case chaosGatewayHTML:
		return writeHTML(w, http.StatusBadGateway), true
	case chaosUnavailable:
		return writeError(w, http.StatusServiceUnavailable, "unavailable", "simulated outage"), true
	case chaosReset:
		resetConn(w)
		return statusNoResponse, true
	case chaosSlowStart:
		if !sleep(ctx, 300*time.Millisecond) {
			return statusNoResponse, true
		}
	}
	return 0, false
}

// lie is the body a lying 200 carries instead of the page: body is the
// truth, recs its records. For a kind that is not a lie told with a body
// of JSON it returns body, the truth (the maintenance page is served apart).
func lie(ep int, k chaosKind, body []byte, recs [][]byte, pq pageQuery, total int) []byte {
	switch k {
	case lieEmpty:
		return pageBody(ep, nil, pq, 0) // metadata: totalPages 0, as a replica with no data says
	case lieShort:
		return pageBody(ep, recs[:len(recs)/2], pq, total)
	case lieErrorObject:
		return []byte(`{"error":"search_timeout","message":"the search backend timed out"}`)
	case lieCutJSON:
		return body[:len(body)*2/3]
	}
	return body
}
