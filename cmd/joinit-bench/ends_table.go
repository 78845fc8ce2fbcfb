package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// endsTable counts the requests of one read by the way it ends, one page
// at a time and four in flight: what believing an end only on a second
// agreeing answer costs (DESIGN.md, "Paging rules"). Requests, not time:
// the sandbox answers at once.
func endsTable(out io.Writer) error {
	const size = 10
	cases := []struct {
		label   string
		records int
		metrics bool
	}{
		{"memberships: empty list", 0, false},
		{"memberships: a short page 1 (7)", 7, false},
		{"memberships: 3 full pages (30)", 30, false},
		{"memberships: 3 full pages and a short one (37)", 37, false},
		{"org metrics: none (totalPages 0)", 0, true},
		{"org metrics: one full page (10)", 10, true},
		{"org metrics: 3 full pages (30)", 30, true},
		{"org metrics: 2 full pages and a short one (27)", 27, true},
	}
	fmt.Fprintf(out, "## Requests of one read by how it ends (page size %d)\n\n", size)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "read\t1 in flight\t4 in flight\t")
	for _, tc := range cases {
		fmt.Fprintf(w, "%s\t", tc.label)
		for _, conc := range []int{1, 4} {
			n, err := requestsToEnd(tc.records, tc.metrics, size, conc)
			if err != nil {
				return fmt.Errorf("%s: %w", tc.label, err)
			}
			fmt.Fprintf(w, "%d\t", n)
		}
		fmt.Fprintln(w)
	}
	w.Flush()
	fmt.Fprintln(out)
	return nil
}

// requestsToEnd reads n records from a fresh sandbox and client and
// returns how many requests the read sent.
func requestsToEnd(n int, metrics bool, size, conc int) (int, error) {
	opts := sandbox.Options{Seed: 7}
	endpoint := sandbox.EndpointMemberships
	if metrics {
		opts.OrgMetrics, endpoint = n, sandbox.EndpointOrgMetrics
	} else {
		opts.Memberships = n
	}
	sb := sandbox.New(opts)
	url := sb.Start()
	defer sb.Close()
	c, err := client.New(client.Config{BaseURL: url, Token: sandbox.DefaultToken, MaxConcurrency: conc})
	if err != nil {
		return 0, err
	}
	got := 0
	if metrics {
		om, err := c.OrgMetrics(context.Background(), client.ListOptions{PageSize: size})
		if err != nil {
			return 0, err
		}
		got = len(om.Results)
	} else {
		ms, err := c.Memberships(context.Background(), client.MembershipQuery{ListOptions: client.ListOptions{PageSize: size}})
		if err != nil {
			return 0, err
		}
		got = len(ms)
	}
	if got != n {
		return 0, fmt.Errorf("read %d of %d records", got, n)
	}
	return sb.Requests(endpoint), nil
}
