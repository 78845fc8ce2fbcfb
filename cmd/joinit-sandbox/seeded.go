package main

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// writeSeededData tells a user what the data set of this seed holds, so
// that they can write a filter (membership_names, membership_types, status)
// without calling the API by hand. -h prints it for the default flags; -v
// prints it for the flags given.
func writeSeededData(w io.Writer, seed int64, groups int) {
	fmt.Fprintf(w, "Seeded data with -seed %d and -groups %d:\n\n", seed, groups)
	fmt.Fprintf(w, "    membership types (membership_name, membership_type; the ids depend on -seed):\n")
	for _, t := range sandbox.MembershipTypes(seed) {
		fmt.Fprintf(w, "        %-12s %s\n", t.Name, t.ID)
	}
	fmt.Fprintf(w, "    in shares of 50, 20, 20 and 10%% of the memberships.\n")
	fmt.Fprintf(w, "    status: 100 (active, about half), 300 (expired), 350 (cancelled),\n")
	fmt.Fprintf(w, "        50 (prospective), 75 (pending), and 999, a code the API documentation\n")
	fmt.Fprintf(w, "        does not list (status_name \"unknown\").\n")
	fmt.Fprintf(w, "    groups (name): %s.\n\n", joinWrapped(sandbox.GroupNames(groups), 64, "        "))
}

// joinWrapped joins items with ", ", breaking lines between items so that
// none is longer than width characters, and indenting every line after the
// first.
func joinWrapped(items []string, width int, indent string) string {
	var b strings.Builder
	line := 0
	for i, item := range items {
		n := utf8.RuneCountInString(item)
		switch {
		case i == 0:
		case line+2+n > width:
			b.WriteString(",\n" + indent)
			line = 0
		default:
			b.WriteString(", ")
			line += 2
		}
		b.WriteString(item)
		line += n
	}
	return b.String()
}
