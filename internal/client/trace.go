package client

import "time"

// TraceEvent is one moment in the life of a page request, for a timeline of
// a read: where the time goes between the network, the send window and
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
	TraceQueued   TraceMoment = "queued"    // the attempt waits for a place in the send window
	TraceSent     TraceMoment = "sent"      // it has its place and leaves
	TraceAnswered TraceMoment = "answered"  // the answer's status and headers are in
	TraceBytesIn  TraceMoment = "bytes in"  // its body is read and the place given back
	TraceDecoded  TraceMoment = "decoded"   // the page is decoded
	TraceHanded   TraceMoment = "handed on" // the reader took the page, in page order
)

// trace reports a moment of the page request log belongs to.
func (c *Client) trace(log *attemptLog, what TraceMoment) {
	if c.cfg.Trace == nil || log == nil {
		return
	}
	c.cfg.Trace(TraceEvent{Endpoint: log.endpoint, Page: log.page, Request: log.request, Attempt: int(log.count.Load()), What: what, At: time.Now()})
}

// traceHanded reports a page taken by its reader.
func (c *Client) traceHanded(endpoint string, page int) {
	if c.cfg.Trace != nil {
		c.cfg.Trace(TraceEvent{Endpoint: endpoint, Page: page, What: TraceHanded, At: time.Now()})
	}
}
