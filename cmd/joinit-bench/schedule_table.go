package main

import (
	"context"
	"fmt"
	"io"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// scheduleTable measures the paging schedule alone: one read of 20 pages
// small enough that decoding costs nothing next to the latency, against
// the ideal of pages ÷ concurrency × latency. What it shows is the round
// trips the slow start and the closing check of page 1 add. Best of three.
func scheduleTable(out io.Writer) error {
	const (
		pages = 20
		size  = 50
		lat   = 50 * time.Millisecond
		conc  = 4
	)
	fmt.Fprintf(out, "## One read of %d pages (page size %d) at %s latency, %d in flight: the paging schedule\n\n", pages, size, lat, conc)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "last page\trequests\twall (best of 3)\tideal\twall/ideal\t")
	for _, lastFull := range []bool{true, false} {
		n := pages * size
		label := "full"
		if !lastFull {
			n -= size / 2
			label = "short"
		}
		sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n, Faults: sandbox.Faults{Latency: lat}})
		url := sb.Start()
		best, reqs := time.Duration(0), 0
		for range 3 {
			c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken, MaxConcurrency: conc})
			if err != nil {
				sb.Close()
				return err
			}
			sb.ResetCounters()
			start := time.Now()
			got, err := c.Memberships(context.Background(), client.MembershipQuery{ListOptions: client.ListOptions{PageSize: size}})
			wall := time.Since(start)
			if err != nil || len(got) != n {
				sb.Close()
				return fmt.Errorf("read %d of %d memberships: %v", len(got), n, err) //nolint:errorlint // err may be nil (a short read): %w would print %!w(<nil>)
			}
			if best == 0 || wall < best {
				best, reqs = wall, sb.Requests(sandbox.EndpointMemberships)
			}
		}
		sb.Close()
		ideal := time.Duration(pages) * lat / conc
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%.2f\t\n", label, reqs, round(best), round(ideal), float64(best)/float64(ideal))
	}
	w.Flush()
	fmt.Fprintln(out)
	return nil
}

// rateLimitTable reads twenty lists at once on one client, as twenty data
// sources of one provider do, against a sandbox that allows a few requests
// a second (a token bucket): every read must come back whole. It prints
// the 429s and the wall time against the ideal, requests served ÷ rate.
func rateLimitTable(out io.Writer) error {
	const (
		reads = 20
		rate  = 20.0
		n     = 1000
		conc  = 4
	)
	fmt.Fprintf(out, "## %d reads at once on one client (max concurrency %d) against a rate limit of %.0f requests a second (bucket of %.0f)\n\n", reads, conc, rate, rate)
	sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n, Faults: sandbox.Faults{RateLimit: rate}})
	url := sb.Start()
	defer sb.Close()
	c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken, MaxConcurrency: conc})
	if err != nil {
		return err
	}
	errs := make([]error, reads)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range reads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Different page sizes: no two reads share a fetch.
			got, err := c.Memberships(context.Background(), client.MembershipQuery{ListOptions: client.ListOptions{PageSize: 100 + i}})
			if err == nil && len(got) != n {
				err = fmt.Errorf("%d memberships, want %d", len(got), n)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			fmt.Fprintf(out, "read %d failed: %v\n", i, err)
		}
	}
	limited := 0
	for _, r := range sb.RequestLog() {
		if r.Status == 429 {
			limited++
		}
	}
	served := sb.Requests(sandbox.EndpointMemberships) - limited
	ideal := time.Duration(float64(served) / rate * float64(time.Second))
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "reads whole\trequests served\t429s\twall\tideal\twall/ideal\t")
	fmt.Fprintf(w, "%d of %d\t%d\t%d\t%s\t%s\t%.2f\t\n", reads-failed, reads, served, limited, round(wall), round(ideal), float64(wall)/float64(ideal))
	w.Flush()
	fmt.Fprintln(out)
	if failed > 0 {
		return fmt.Errorf("%d of %d reads failed under the rate limit", failed, reads)
	}
	return nil
}
