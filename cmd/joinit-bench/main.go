// Command joinit-bench prints the scale benchmark of `make bench`: client
// reads of N memberships at several latencies and concurrencies, then
// end-to-end `terraform plan` of full and lean reads against the anchor,
// Terraform's own jsondecode of the same records, and joinit_membership
// lookups in a for_each beside one list read. Everything runs against
// the sandbox on loopback; nothing is downloaded.
package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

func main() {
	sizes := flag.String("sizes", "1000,10000,100000", "comma-separated numbers of memberships")
	latencies := flag.String("latencies", "0,50ms", "comma-separated sandbox latencies for the client table")
	concs := flag.String("concurrency", "1,4,8", "comma-separated max_concurrent_requests for the client table")
	skipClient := flag.Bool("skip-client", false, "skip the client tables (reads by size, the paging schedule, twenty reads under a rate limit)")
	tables := flag.String("tables", "all", "comma-separated client tables: "+clientTableNames()+" (or all)")
	skipPlan := flag.Bool("skip-plan", false, "skip the terraform plan tables")
	cases := flag.String("cases", "all", "comma-separated plan cases against the anchor: full, lean, fields (or all)")
	anchor := flag.Bool("anchor", true, "measure the anchor (jsondecode of the same records) and the ratios to it")
	leanSizes := flag.String("lean-sizes", "1000000", "comma-separated numbers of memberships for the lean read alone, without the anchor (empty: none)")
	lookupOrg := flag.Int("lookup-org", 50000, "memberships of the organization of the lookups table (0: skip the table)")
	lookups := flag.Int("lookups", 200, "joinit_membership lookups by e-mail in the lookups table")
	boundsSize := flag.Int("bounds-size", 100000, "memberships of the full read beside the oversized servers in the bounds table (0: skip the table)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "Usage: joinit-bench [flags]\n\nPrints the scale benchmark tables (see GNUmakefile's bench target).\n\n")
		flag.PrintDefaults()
	}
	flag.Parse()

	ns, err := parseInts(*sizes)
	check(err)
	cs, err := parseInts(*concs)
	check(err)
	var ls []time.Duration
	for _, s := range strings.Split(*latencies, ",") {
		if s == "0" {
			ls = append(ls, 0)
			continue
		}
		d, err := time.ParseDuration(s)
		check(err)
		ls = append(ls, d)
	}

	if !*skipClient {
		want := map[string]bool{}
		for _, t := range strings.Split(*tables, ",") {
			want[strings.TrimSpace(t)] = true
		}
		for _, t := range clientTables {
			if want["all"] || want[t.name] {
				check(t.run(ns, ls, cs))
			}
		}
	}
	if !*skipPlan {
		selected, err := selectCases(*cases)
		check(err)
		check(planTable(os.Stdout, "terraform plan reading all N memberships (fresh directory each run)", ns, selected, *anchor))
		if *leanSizes != "" {
			big, err := parseInts(*leanSizes)
			check(err)
			lean, _ := selectCases("lean")
			check(planTable(os.Stdout, "the lean read of a large organization (no anchor: jsondecode of it alone takes minutes)", big, lean, false))
		}
		fmt.Println("Targets at N=100000: full ≤ 0.65× anchor wall and ≤ 1.0× anchor RSS, provider < 250 MB; lean ≤ 0.05× anchor wall, provider < 100 MB;")
		fmt.Println("fields (3 attributes) ≤ 0.10× anchor wall. At N=1000000: lean plan ≤ 25 s, provider < 600 MB.")
		fmt.Println()
		if *lookupOrg > 0 {
			check(lookupTable(os.Stdout, *lookupOrg, *lookups))
		}
		if *boundsSize > 0 {
			check(boundsTable(os.Stdout, *boundsSize))
		}
	}
}

// clientTables are the client's tables, in the order they print.
var clientTables = []struct {
	name string
	run  func(sizes []int, latencies []time.Duration, concs []int) error
}{
	{"reads", func(ns []int, ls []time.Duration, cs []int) error { return clientTable(os.Stdout, ns, ls, cs) }},
	{"schedule", func([]int, []time.Duration, []int) error { return scheduleTable(os.Stdout) }},
	{"full-pages", func([]int, []time.Duration, []int) error { return fullPagesTable(os.Stdout) }},
	{"ends", func([]int, []time.Duration, []int) error {
		if err := endsTable(os.Stdout); err != nil {
			return err
		}
		return concurrentEndRow(os.Stdout)
	}},
	{"jitter", func([]int, []time.Duration, []int) error { return jitterTable(os.Stdout) }},
	{"plan-pages", func([]int, []time.Duration, []int) error { return planPagesTable(os.Stdout) }},
	{"rate-limit", func([]int, []time.Duration, []int) error { return rateLimitTable(os.Stdout) }},
	{"rounds", func([]int, []time.Duration, []int) error { return roundsTable(os.Stdout) }},
}

func clientTableNames() string {
	names := make([]string, len(clientTables))
	for i, t := range clientTables {
		names[i] = t.name
	}
	return strings.Join(names, ", ")
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "joinit-bench:", err)
		os.Exit(1)
	}
}
