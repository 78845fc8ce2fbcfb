package provider

import (
	"slices"
	"strconv"
	"strings"

	"github.com/agext/levenshtein"
)

// closest returns the values of candidates a user most likely meant by v:
// those equal to it but for case, or else those at the least edit distance,
// when that distance is small enough to be a typo (at most a third of the
// value's length, and at least 2). The result is sorted; empty when nothing
// is near.
func closest(v string, candidates []string) []string {
	var out []string
	for _, c := range candidates {
		if c != v && strings.EqualFold(c, v) {
			out = append(out, c)
		}
	}
	if len(out) > 0 {
		slices.Sort(out)
		return slices.Compact(out)
	}
	best := max(2, len([]rune(v))/3)
	for _, c := range candidates {
		if c == v {
			continue
		}
		switch d := levenshtein.Distance(v, c, nil); {
		case d < best:
			best, out = d, []string{c}
		case d == best:
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// didYouMean is " did you mean "a" or "b"?" for the closest candidates,
// "" when none is near.
func didYouMean(v string, candidates []string) string {
	near := closest(v, candidates)
	if len(near) == 0 {
		return ""
	}
	return " Did you mean " + quotedList(near, "or") + "?"
}

// quotedList joins quoted values: "a", "b" or "c".
func quotedList(values []string, conj string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(v)
	}
	return joined(q, conj)
}

// andList writes names as prose: "a", "a and b", "a, b and c".
func andList(names []string) string { return joined(names, "and") }

func joined(items []string, conj string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}
