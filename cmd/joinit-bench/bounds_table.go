package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/tabwriter"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// boundsTable plans one joinit_memberships read, with the provider's
// defaults, against each server that sends more than a read may hold (the
// sandbox's oversized answers) and beside them the full read of n
// memberships that the default budget lets through: how long until the
// read fails, what it said, and the peak memory of Terraform and the
// provider (DESIGN.md, "Bounds").
func boundsTable(out io.Writer, n int) error {
	tmp, cliConfig, err := buildProvider()
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	rows := []struct {
		name   string
		opts   sandbox.Options
		config string
	}{
		{fmt.Sprintf("full read of %d memberships", n), sandbox.Options{Seed: 7, Memberships: n}, ""},
		{"a server that pages forever", sandbox.Options{Seed: 7, Memberships: 10, Faults: sandbox.Faults{EndlessPages: true}}, ""},
		{"the same, the lean read", sandbox.Options{Seed: 7, Memberships: 10, Faults: sandbox.Faults{EndlessPages: true}}, "  include_records = false\n"},
		{"one page of 1,000,000 records", sandbox.Options{Seed: 7, Memberships: 10, Faults: sandbox.Faults{HugePage: 1_000_000}}, ""},
		{"one record of 1,000,000 custom answers", sandbox.Options{Seed: 7, Memberships: 10, Faults: sandbox.Faults{BloatAnswers: 1_000_000}}, ""},
		{"an address 9,000 arrays deep", sandbox.Options{Seed: 7, Memberships: 10, Faults: sandbox.Faults{BloatDepth: 9_000}}, ""},
	}
	fmt.Fprintf(out, "## Bounds: one joinit_memberships read with the provider's defaults (terraform plan, fresh directory each)\n\n")
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.Debug)
	fmt.Fprintln(w, "server\twall\tterraform peak RSS\tprovider peak RSS\toutcome\t")
	for i, r := range rows {
		sb := sandbox.New(r.opts)
		url := sb.Start()
		dir := filepath.Join(tmp, fmt.Sprintf("bounds-%d", i))
		if err := writeConfig(dir, providerHeader()+"data \"joinit_memberships\" \"all\" {\n"+r.config+"}\n"); err != nil {
			sb.Close()
			return err
		}
		run, output, err := planOutcome(dir, cliConfig, url)
		sb.Close()
		outcome := "planned"
		if err != nil {
			outcome = "failed: " + firstWords(output, 14)
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t\n", r.name, round(run.wall), mb(run.terraformKB), mb(run.providerKB), outcome)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out)
	return nil
}

var diagnosticStart = regexp.MustCompile(`(?s)Error: Failed to read joinit_memberships.*?\n\s*\n.*?\n\s*\n(.*)`)

// firstWords are the first k words of the diagnostic's detail.
func firstWords(output string, k int) string {
	m := diagnosticStart.FindStringSubmatch(output)
	if m == nil {
		return "(no diagnostic)"
	}
	words := strings.Fields(m[1])
	return strings.Join(words[:min(k, len(words))], " ") + " …"
}
