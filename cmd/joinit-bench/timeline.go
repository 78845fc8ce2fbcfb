package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// A read's timeline: when each page request leaves, when its answer
// arrives, when its bytes are in, when it is decoded and handed on (the
// client's trace), and what the sandbox saw of the same requests (its
// request log). It shows where a read's time goes: the network, the send
// window, or decoding.

// readTrace is one read of n memberships in pages of size, at a latency,
// with conc requests in flight.
type readTrace struct {
	n, size, conc int
	latency       time.Duration
	start, end    time.Time // the client's call and return
	events        []client.TraceEvent
	log           []sandbox.RequestRecord
}

// traceRead runs one read against a fresh sandbox.
func traceRead(n, size, conc int, latency time.Duration) (*readTrace, error) {
	sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n, Faults: sandbox.Faults{Latency: latency}})
	url := sb.Start()
	defer sb.Close()
	rt := &readTrace{n: n, size: size, conc: conc, latency: latency}
	var mu sync.Mutex
	c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken, MaxConcurrency: conc,
		Trace: func(ev client.TraceEvent) {
			mu.Lock()
			rt.events = append(rt.events, ev)
			mu.Unlock()
		}})
	if err != nil {
		return nil, err
	}
	rt.start = time.Now()
	got, err := c.Memberships(context.Background(), client.MembershipQuery{ListOptions: client.ListOptions{PageSize: size}})
	rt.end = time.Now()
	if err != nil || len(got) != n {
		return nil, fmt.Errorf("read %d of %d memberships: %v", len(got), n, err) //nolint:errorlint // err may be nil (a short read): %w would print %!w(<nil>)
	}
	// Requests cancelled past the end finish as the client lets them go.
	time.Sleep(latency + 20*time.Millisecond)
	for _, r := range sb.RequestLog() {
		if r.Endpoint == sandbox.EndpointMemberships {
			rt.log = append(rt.log, r)
		}
	}
	return rt, nil
}

// pagesAsked is how many pages the read must ask for: every page with
// records, and the empty page after them.
func (rt *readTrace) pagesAsked() int { return (rt.n+rt.size-1)/rt.size + 1 }

// ideal is the network's time: rounds of conc requests, one latency each.
func (rt *readTrace) ideal() time.Duration {
	return time.Duration((rt.pagesAsked()+rt.conc-1)/rt.conc) * rt.latency
}

// served is the span of the sandbox's log: from the first request's
// arrival to the last answer written. Requests cancelled past the end
// (status 0) are left out: nobody waited for them.
func (rt *readTrace) served() time.Duration {
	span, _ := servedSpan(rt.log) // rt.log holds the memberships requests only
	return span
}

// meanInFlight is how many requests the sandbox held at once, on average
// over the span it served the read.
func (rt *readTrace) meanInFlight() float64 {
	span := rt.served()
	if span <= 0 {
		return 0
	}
	var busy time.Duration
	for _, r := range rt.log {
		if r.Status != 0 {
			busy += r.Finished.Sub(r.Arrived)
		}
	}
	return float64(busy) / float64(span)
}

// decodeTime adds up the time between each page's bytes being in and its
// being decoded: CPU the network could overlap.
func (rt *readTrace) decodeTime() time.Duration {
	in := map[[2]uint64]time.Time{}
	var total time.Duration
	for _, ev := range rt.events {
		k := [2]uint64{ev.Request, uint64(ev.Attempt)}
		switch ev.What {
		case client.TraceBytesIn:
			in[k] = ev.At
		case client.TraceDecoded:
			total += ev.At.Sub(in[k])
		}
	}
	return total
}

// bestOf traces the read three times and keeps the fastest by the
// sandbox's log.
func bestOf(n, size, conc int, latency time.Duration) (*readTrace, error) {
	var best *readTrace
	for range 3 {
		rt, err := traceRead(n, size, conc, latency)
		if err != nil {
			return nil, err
		}
		if best == nil || rt.served() < best.served() {
			best = rt
		}
	}
	return best, nil
}

// fullPagesTable reads 20 pages at 50 ms latency: pages of 1,000 records
// at 1, 4 and 8 in flight, and of 50 records at 4, against the ideal of
// rounds × latency. Then the timeline of the 1,000-record read at 4.
func fullPagesTable(out io.Writer) error {
	const (
		pages   = 20
		latency = 50 * time.Millisecond
	)
	fmt.Fprintf(out, "## One read of %d pages at %s latency, by the sandbox's request log (best of 3)\n\n", pages, latency)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "page size\tin flight\tpages asked\trequests\tserved\tclient wall\tideal\tserved/ideal\tmean in flight\tdecoding\t")
	var timeline *readTrace
	for _, c := range []struct{ size, conc int }{{1000, 1}, {1000, 4}, {1000, 8}, {50, 4}} {
		rt, err := bestOf(pages*c.size, c.size, c.conc, latency)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%d\t%d\t%d\t%d\t%s\t%s\t%s\t%.2f\t%.1f\t%s\t\n", c.size, c.conc, rt.pagesAsked(), len(rt.log),
			round(rt.served()), round(rt.end.Sub(rt.start)), round(rt.ideal()),
			float64(rt.served())/float64(rt.ideal()), rt.meanInFlight(), round(rt.decodeTime()))
		if c.size == 1000 && c.conc == 4 {
			timeline = rt
		}
	}
	w.Flush()
	fmt.Fprintln(out)
	printTimeline(out, timeline)
	return nil
}

// printTimeline lists a read's page requests in the order they were sent,
// each moment in milliseconds from the client's call.
func printTimeline(out io.Writer, rt *readTrace) {
	fmt.Fprintf(out, "### Timeline of the read of %d pages of %d at %d in flight (ms from the call; the server's arrival and answer from its log)\n\n", rt.pagesAsked()-1, rt.size, rt.conc)
	type row struct {
		page, attempt int
		at            map[client.TraceMoment]time.Time
	}
	rows := map[uint64]*row{}
	handed := map[int]time.Time{} // the first time each page was handed on
	for _, ev := range rt.events {
		if ev.What == client.TraceHanded {
			if _, ok := handed[ev.Page]; !ok {
				handed[ev.Page] = ev.At
			}
			continue
		}
		// One row per attempt of a page request: its first moment, when
		// a retry of it is queued, starts the next.
		k := ev.Request<<8 | uint64(ev.Attempt)
		r := rows[k]
		if r == nil {
			r = &row{page: ev.Page, attempt: ev.Attempt, at: map[client.TraceMoment]time.Time{}}
			rows[k] = r
		}
		r.at[ev.What] = ev.At
	}
	sorted := slices.SortedFunc(func(yield func(*row) bool) {
		for _, r := range rows {
			if !yield(r) {
				return
			}
		}
	}, func(a, b *row) int {
		return cmp.Compare(a.at[client.TraceQueued].UnixNano(), b.at[client.TraceQueued].UnixNano())
	})
	ms := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return fmt.Sprintf("%.0f", float64(t.Sub(rt.start))/float64(time.Millisecond))
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "page\tqueued\tsent\tanswered\tbytes in\tdecoded\thanded on\t")
	for _, r := range sorted {
		h := time.Time{}
		if r.at[client.TraceDecoded] != (time.Time{}) {
			h = handed[r.page]
		}
		fmt.Fprintf(w, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.page, ms(r.at[client.TraceQueued]), ms(r.at[client.TraceSent]),
			ms(r.at[client.TraceAnswered]), ms(r.at[client.TraceBytesIn]), ms(r.at[client.TraceDecoded]), ms(h))
	}
	w.Flush()
	fmt.Fprintf(out, "\nclient wall %s, served %s, ideal %s; mean requests in flight at the server %.1f; decoding %s in all\n\n",
		round(rt.end.Sub(rt.start)), round(rt.served()), round(rt.ideal()), rt.meanInFlight(), round(rt.decodeTime()))
}
