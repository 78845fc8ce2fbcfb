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

// clientTable reads N memberships with a fresh client per cell and prints
// wall time, requests made, and the ideal time: requests ÷ concurrency ×
// latency. (Small concurrent reads cannot reach it: page 1 alone and the
// closing check of page 1 are round trips of their own.)
func clientTable(out io.Writer, ns []int, latencies []time.Duration, concs []int) error {
	fmt.Fprintln(out, "## Client read of N memberships (page size 1000)")
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "N\tlatency\tconcurrency\trequests\texpected requests\twall\tideal\twall/ideal\t")
	for _, n := range ns {
		sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n})
		url := sb.Start()
		for _, lat := range latencies {
			sb.SetFaults(sandbox.Faults{Latency: lat})
			for _, conc := range concs {
				c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken, MaxConcurrency: conc})
				if err != nil {
					sb.Close()
					return err
				}
				sb.ResetCounters()
				start := time.Now()
				got, err := c.Memberships(context.Background(), client.MembershipQuery{})
				wall := time.Since(start)
				if err != nil {
					sb.Close()
					return err
				}
				if len(got) != n {
					sb.Close()
					return fmt.Errorf("read %d memberships, want %d", len(got), n)
				}
				reqs := sb.Requests(sandbox.EndpointMemberships)
				ideal := time.Duration(float64(reqs) / float64(conc) * float64(lat))
				ratio := "n/a"
				if ideal > 0 {
					ratio = fmt.Sprintf("%.2f", float64(wall)/float64(ideal))
				}
				fmt.Fprintf(w, "%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t\n", n, lat, conc, reqs, expectedRequests(n, conc), round(wall), round(ideal), ratio)
			}
		}
		sb.Close()
	}
	w.Flush()
	fmt.Fprintln(out)
	return nil
}

// expectedRequests is the target (see the client's paging rules): every
// page with records, the empty page that ends the read, and the answer
// that ends it asked a second time; with more than one request in flight,
// at most 2×concurrency−1 requests past the end (those sent before the end
// came back), and page 1 once more to check that the list did not change
// at its front.
func expectedRequests(n, conc int) string {
	const size = 1000
	base := n/size + 3
	if n%size == 0 {
		base = n/size + 2
	}
	if conc == 1 {
		return fmt.Sprint(base)
	}
	extra := 2*conc - 1
	if n >= size {
		extra++
	}
	return fmt.Sprintf("%d..%d", base, base+extra)
}

func round(d time.Duration) time.Duration {
	switch {
	case d > time.Second:
		return d.Round(10 * time.Millisecond)
	case d > time.Millisecond:
		return d.Round(100 * time.Microsecond)
	}
	return d
}
