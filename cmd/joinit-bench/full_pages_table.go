package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// readTrace is one read of n memberships in pages of size, at a latency,
// with conc requests in flight.
type readTrace struct {
	n, size, conc int
	latency       time.Duration
	start, end    time.Time // the client's call and return
	log           []sandbox.RequestRecord
}

// traceRead runs one read against a fresh sandbox.
func traceRead(n, size, conc int, latency time.Duration) (*readTrace, error) {
	sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n, Faults: sandbox.Faults{Latency: latency}})
	url := sb.Start()
	defer sb.Close()
	rt := &readTrace{n: n, size: size, conc: conc, latency: latency}
	c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken, MaxConcurrency: conc})
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
// rounds × latency.
func fullPagesTable(out io.Writer) error {
	const (
		pages   = 20
		latency = 50 * time.Millisecond
	)
	fmt.Fprintf(out, "## One read of %d pages at %s latency, by the sandbox's request log (best of 3)\n\n", pages, latency)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "page size\tin flight\tpages asked\trequests\tserved\tclient wall\tideal\tserved/ideal\tmean in flight\t")
	for _, c := range []struct{ size, conc int }{{1000, 1}, {1000, 4}, {1000, 8}, {50, 4}} {
		rt, err := bestOf(pages*c.size, c.size, c.conc, latency)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "%d\t%d\t%d\t%d\t%s\t%s\t%s\t%.2f\t%.1f\t\n", c.size, c.conc, rt.pagesAsked(), len(rt.log),
			round(rt.served()), round(rt.end.Sub(rt.start)), round(rt.ideal()),
			float64(rt.served())/float64(rt.ideal()), rt.meanInFlight())
	}
	w.Flush()
	fmt.Fprintln(out)
	return nil
}
