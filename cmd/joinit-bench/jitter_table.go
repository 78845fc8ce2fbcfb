package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// jitterTable reads 20 full pages of 1,000 memberships (the lean read)
// through a real terraform plan against a sandbox whose answers take
// 50 ms ± 20%, each drawn from a seed, 4 requests in flight: answers that
// do not arrive in lockstep, as on a real network. The time is the span of
// the sandbox's log (first request in, last answer out), against the ideal
// of rounds of 4 requests × 50 ms for the 21 pages the read must ask,
// against the paging rules' floor at the latencies that run drew
// (rulesFloor), and beside the same requests asked by a bare client
// (bareRead) at the same seed: what this machine allows. Best of three
// seeds.
func jitterTable(out io.Writer) error {
	const (
		n       = 20_000
		size    = 1000
		latency = 50 * time.Millisecond
		jitter  = 0.2
		conc    = 4
	)
	tmp, cliConfig, err := buildProvider()
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "jitter")
	if err := writeConfig(dir, providerHeader()+"data \"joinit_memberships\" \"all\" {\n  include_records = false\n}\noutput \"n\" { value = length(data.joinit_memberships.all.ids) }\n"); err != nil {
		return err
	}
	last := n/size + 1 // the empty page
	ideal := time.Duration((last+conc-1)/conc) * latency
	fmt.Fprintf(out, "## %d full pages at %s ± %.0f%%, %d in flight, through terraform plan (the sandbox's log; best of 3)\n\n", n/size, latency, jitter*100, conc)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "jitter seed\trequests\tserved\tbare client\tfloor\tideal\tserved/ideal\tbare/ideal\tfloor/ideal\tserved/bare\t")
	var best, bestBare, bestFloor time.Duration
	for seed := uint64(1); seed <= 3; seed++ {
		sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n, Faults: sandbox.Faults{Latency: latency, LatencyJitter: jitter, JitterSeed: seed}})
		url := sb.Start()
		_, err := plan(dir, cliConfig, url)
		time.Sleep(latency * 2) // requests cancelled past the end finish
		log := sb.RequestLog()
		sb.Close()
		if err != nil {
			return err
		}
		served, requests := servedSpan(log)
		floor, err := rulesFloor(log, last, size, conc)
		if err != nil {
			return fmt.Errorf("seed %d: %w", seed, err)
		}
		sb = sandbox.New(sandbox.Options{Seed: 7, Memberships: n, Faults: sandbox.Faults{Latency: latency, LatencyJitter: jitter, JitterSeed: seed}})
		err = bareRead(context.Background(), sb.Start(), last, size, conc)
		var bareLog []sandbox.RequestRecord
		if err == nil {
			bareLog, err = settledLog(sb, bareRequests(last))
		}
		sb.Close()
		if err != nil {
			return fmt.Errorf("seed %d, the bare client: %w", seed, err)
		}
		bare, _ := servedSpan(bareLog)
		best, bestBare, bestFloor = minOr(best, served), minOr(bestBare, bare), minOr(bestFloor, floor)
		fmt.Fprintf(w, "%d\t%d\t%s\t%s\t%s\t%s\t%.2f\t%.2f\t%.2f\t%.2f\t\n", seed, requests, round(served), round(bare), round(floor), round(ideal),
			float64(served)/float64(ideal), float64(bare)/float64(ideal), float64(floor)/float64(ideal), float64(served)/float64(bare))
	}
	w.Flush()
	fmt.Fprintf(out, "\nbest: %.2f× the ideal (goal ≤ 1.4×, issue 51); the bare client's best %.2f×, the rules' floor's %.2f×; the provider's best over the bare client's %.2f×\n\n",
		float64(best)/float64(ideal), float64(bestBare)/float64(ideal), float64(bestFloor)/float64(ideal), float64(best)/float64(bestBare))
	return nil
}

// rulesFloor is how long a read of pages 1 to last (the empty one) in
// pages of size, conc in flight, takes at the latencies the sandbox drew
// for its requests (RequestRecord.Latency), when the client costs nothing:
// no decoding, no transfer, no gap between an answer and the next request.
// The paging rules give it its shape (DESIGN.md, "Paging rules"): page 1
// alone, then pages 2 to last, each to the first of conc places to free,
// then the end's other question (page last at another size) beside the
// closing check (page 1 asked again). Against the ideal it is what the
// rules cost at those draws; against the time served, the client's own
// cost. An error says the log does not hold that read.
func rulesFloor(log []sandbox.RequestRecord, last, size, conc int) (time.Duration, error) {
	log = slices.Clone(log)
	slices.SortStableFunc(log, func(a, b sandbox.RequestRecord) int { return a.Arrived.Compare(b.Arrived) })
	first := map[int]time.Duration{} // page -> the wait of its first ask at size
	var closing, other *time.Duration
	for _, r := range log {
		if r.Endpoint != sandbox.EndpointMemberships {
			continue
		}
		page, _ := strconv.Atoi(r.Query.Get("page"))
		count, _ := strconv.Atoi(r.Query.Get("count"))
		_, seen := first[page]
		switch {
		case count == size && !seen:
			first[page] = r.Latency
		case count == size && page == 1 && closing == nil:
			closing = &r.Latency
		case count != size && page == last && other == nil:
			other = &r.Latency
		}
	}
	for p := 1; p <= last; p++ {
		if _, ok := first[p]; !ok {
			return 0, fmt.Errorf("the log has no page %d of %d", p, size)
		}
	}
	if closing == nil {
		return 0, errors.New("the log has no closing check (page 1 asked again)")
	}
	if other == nil {
		return 0, fmt.Errorf("the log has no other question of page %d (another size than %d)", last, size)
	}
	places := slices.Repeat([]time.Duration{first[1]}, conc)
	for p := 2; p <= last; p++ {
		free := slices.Index(places, slices.Min(places))
		places[free] += first[p]
	}
	return slices.Max(places) + max(*closing, *other), nil
}

// minOr is the smaller of best and d, or d when there is no best yet.
func minOr(best, d time.Duration) time.Duration {
	if best == 0 {
		return d
	}
	return min(best, d)
}

// servedSpan is the span of the memberships requests in a sandbox's log
// that were answered (cancelled ones, status 0, are left out: nobody
// waited for them), and how many requests arrived.
func servedSpan(log []sandbox.RequestRecord) (time.Duration, int) {
	var first, last time.Time
	requests := 0
	for _, r := range log {
		if r.Endpoint != sandbox.EndpointMemberships {
			continue
		}
		requests++
		if r.Status == 0 {
			continue
		}
		if first.IsZero() || r.Arrived.Before(first) {
			first = r.Arrived
		}
		if r.Finished.After(last) {
			last = r.Finished
		}
	}
	return last.Sub(first), requests
}

// concurrentEndRow counts the requests of a concurrent read whose last
// page is short (2,225 memberships in pages of 1,000, 4 in flight) against
// answers of 50 ms ± 20%, over five seeds: the paging rules ask pages 1-4,
// the short page 3's other question, and page 1 again (the closing check),
// with page 5 sent past the end at most.
func concurrentEndRow(out io.Writer) error {
	counts := []int{}
	for seed := uint64(1); seed <= 5; seed++ {
		sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: 2225, Faults: sandbox.Faults{Latency: 50 * time.Millisecond, LatencyJitter: 0.2, JitterSeed: seed}})
		url := sb.Start()
		c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken, MaxConcurrency: 4})
		if err != nil {
			sb.Close()
			return err
		}
		ms, err := c.Memberships(context.Background(), client.MembershipQuery{})
		time.Sleep(120 * time.Millisecond)
		counts = append(counts, sb.Requests(sandbox.EndpointMemberships))
		sb.Close()
		if err != nil || len(ms) != 2225 {
			return fmt.Errorf("read %d of 2225: %v", len(ms), err) //nolint:errorlint // err may be nil (a short read)
		}
	}
	fmt.Fprintf(out, "memberships: 2,225 in pages of 1,000, 4 in flight, 50 ms ± 20%% (five seeds): requests %v\n\n", counts)
	return nil
}
