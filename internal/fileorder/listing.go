package main

import (
	"fmt"
	"path"
	"regexp"
	"strings"
)

// listIntro opens a package doc's list of its files. The list runs to the
// end of its sentence: the first full stop outside parentheses.
const listIntro = "Its files, bottom up (each uses only those above it):"

// A listing is a package doc's list of its files, bottom up: entries are
// separated by commas, semicolons or "and"; what is in parentheses is a
// remark. An entry is a file's name without .go, which also names its
// variants name_*.go (statedir_unix.go, waits_testbuild.go) that no entry
// names more closely; or a pattern of names (ds_*, as path.Match has it);
// or, once a list, "one file ..." (one file an endpoint), which stands for
// every file no other entry names.
type listing struct {
	names []string // the entries in order; "" is the entry of the unnamed files
	any   int      // the index of that entry, or -1
}

var (
	remark    = regexp.MustCompile(`\([^()]*\)`)
	separator = regexp.MustCompile(`[,;]|\band\b`)
	fileName  = regexp.MustCompile(`^[A-Za-z0-9_*]+$`)
)

// parseListing finds the list in a package doc. ok is false when the doc
// has none; the error says which entry cannot be read.
func parseListing(doc string) (l listing, ok bool, err error) {
	_, text, ok := strings.Cut(doc, listIntro)
	if !ok {
		return listing{}, false, nil
	}
	text, _, _ = strings.Cut(text, "\n\n")
	text = strings.Join(strings.Fields(text), " ")
	for remark.MatchString(text) { // innermost first, so nested ones go too
		text = remark.ReplaceAllString(text, "")
	}
	text, _, _ = strings.Cut(text+" ", ". ")
	l.any = -1
	for _, part := range separator.Split(text, -1) {
		part = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(part), "."))
		part = strings.TrimPrefix(part, "then ")
		switch {
		case part == "":
		case strings.HasPrefix(part, "one file "):
			if l.any >= 0 {
				return l, true, fmt.Errorf("the list of files has two entries of the unnamed files (%q)", part)
			}
			l.any = len(l.names)
			l.names = append(l.names, "")
		case fileName.MatchString(part):
			l.names = append(l.names, part)
		default:
			return l, true, fmt.Errorf("the list of files has an entry that is no file's name: %q (a remark goes in parentheses)", part)
		}
	}
	return l, true, nil
}

// place is the index of the entry that names a file (its name without .go),
// or -1: the entry of its own name, else the pattern it matches, else the
// longest entry it is a variant of, else the entry of the unnamed files.
func (l listing) place(stem string) int {
	pattern, variant := -1, -1
	for i, n := range l.names {
		switch {
		case n == "":
		case n == stem:
			return i
		case strings.Contains(n, "*"):
			if ok, _ := path.Match(n, stem); ok && pattern < 0 {
				pattern = i
			}
		case strings.HasPrefix(stem, n+"_") && (variant < 0 || len(n) > len(l.names[variant])):
			variant = i
		}
	}
	switch {
	case pattern >= 0:
		return pattern
	case variant >= 0:
		return variant
	}
	return l.any
}
