package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// lookupTable times one terraform plan of k joinit_membership lookups by
// e-mail (a for_each) in an organization of n memberships, beside a plan
// of one joinit_memberships read of the same organization with
// fields = ["email"], and counts the requests each made: the lookups'
// goal is the requests of one list read, at most 3× the list's wall time,
// and a provider under 300 MB.
func lookupTable(out io.Writer, n, k int) error {
	tmp, cliConfig, err := buildProvider()
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	sb := sandbox.New(sandbox.Options{Seed: 7, Memberships: n})
	url := sb.Start()
	defer sb.Close()
	emails, err := uniqueEmails(sb, k)
	if err != nil {
		return err
	}
	cases := []planCase{
		{"one joinit_memberships, fields = [\"email\"]", "list",
			"data \"joinit_memberships\" \"all\" {\n  fields = [\"email\"]\n}\noutput \"n\" { value = length(data.joinit_memberships.all.records) }\n"},
		{fmt.Sprintf("%d joinit_membership lookups by e-mail (for_each)", len(emails)), "lookups",
			"data \"joinit_membership\" \"m\" {\n  for_each = toset([" + strings.Join(emails, ", ") + "])\n  email    = each.value\n}\n" +
				"output \"found\" { value = length([for m in data.joinit_membership.m : m if m.found]) }\n"},
	}
	fmt.Fprintf(out, "## %d lookups in an organization of %d memberships (terraform plan, fresh directory each)\n\n", len(emails), n)
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight|tabwriter.Debug)
	fmt.Fprintln(w, "case\trequests\twall\tterraform peak RSS\tprovider peak RSS\twall/list\t")
	var list planRun
	for i, c := range cases {
		dir := filepath.Join(tmp, c.short)
		if err := writeConfig(dir, providerHeader()+c.config); err != nil {
			return err
		}
		before := sb.Requests(sandbox.EndpointMemberships)
		r, err := plan(dir, cliConfig, url)
		if err != nil {
			return fmt.Errorf("%s plan: %w", c.name, err)
		}
		if i == 0 {
			list = r
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%.2f\t\n", c.name, sb.Requests(sandbox.EndpointMemberships)-before,
			round(r.wall), mb(r.terraformKB), mb(r.providerKB), float64(r.wall)/float64(list.wall))
	}
	w.Flush()
	fmt.Fprintln(out, "\nGoals: the lookups make the requests of the one list read, take at most 3× its wall time, and the provider stays under 300 MB.")
	fmt.Fprintln(out)
	return nil
}

// uniqueEmails are up to k e-mails of the sandbox held by one membership
// each (a lookup of a shared one fails, listing the matches), spread over
// the whole list, as HCL strings.
func uniqueEmails(sb *sandbox.Server, k int) ([]string, error) {
	recs := sb.MembershipsJSON(nil)
	count := map[string]int{}
	var order []string
	for _, r := range recs {
		var m struct{ Email *string }
		if err := json.Unmarshal(r, &m); err != nil {
			return nil, err
		}
		if m.Email != nil {
			e := strings.ToLower(*m.Email)
			if count[e] == 0 {
				order = append(order, *m.Email)
			}
			count[e]++
		}
	}
	var unique []string
	for _, e := range order {
		if count[strings.ToLower(e)] == 1 {
			unique = append(unique, e)
		}
	}
	if len(unique) == 0 || k <= 0 {
		return nil, fmt.Errorf("no e-mail of the sandbox's %d memberships is held once", len(recs))
	}
	step := max(len(unique)/k, 1)
	var out []string
	for i := 0; i < len(unique) && len(out) < k; i += step {
		out = append(out, strconv.Quote(unique[i]))
	}
	return out, nil
}
