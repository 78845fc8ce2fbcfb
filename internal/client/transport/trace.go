package transport

import "time"

// TraceEvent is one moment in the life of a page request, for a timeline of
// a read: where the time goes between the network, the limit on requests in flight and
// decoding.
type TraceEvent struct {
	Endpoint string
	Page     int
	Request  uint64 // the page request: every fetch of a page, a page asked again too, has its own
	Attempt  int    // 1 for the first attempt of this page request
	What     TraceMoment
	At       time.Time
}

// TraceMoment names a moment of a page request, in the order they happen.
type TraceMoment string

const (
	TraceQueued   TraceMoment = "queued"    // the attempt waits for a place among the requests in flight
	TraceSent     TraceMoment = "sent"      // it has its place and leaves
	TraceAnswered TraceMoment = "answered"  // the answer's status and headers are in
	TraceBytesIn  TraceMoment = "bytes in"  // its body is read and the place given back
	TraceDecoded  TraceMoment = "decoded"   // the page is decoded
	TraceHanded   TraceMoment = "handed on" // the reader took the page, in page order
)

// trace reports a moment of the page request a belongs to.
func (t *Transport) trace(a *attempts, what TraceMoment) {
	if t.cfg.Trace == nil {
		return
	}
	t.cfg.Trace(TraceEvent{Endpoint: a.endpoint, Page: a.page, Request: a.request, Attempt: a.sent, What: what, At: time.Now()})
}

// Handed reports a page taken by its reader, in page order.
func (t *Transport) Handed(endpoint string, page int) {
	if t.cfg.Trace != nil {
		t.cfg.Trace(TraceEvent{Endpoint: endpoint, Page: page, What: TraceHanded, At: time.Now()})
	}
}
