package main

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// A pkg is what the check needs of one package: its files (without their
// directory), the files the build leaves out on this platform (they may
// still be named by the list), its doc and the uses across its files.
type pkg struct {
	path    string // the import path
	dir     string // its directory, as problems name it
	files   []string
	ignored []string
	doc     string
	uses    []use
}

// A problem is one way a package breaks the order: in a file, or (file "")
// in its list.
type problem struct {
	file string
	msg  string
}

// summary counts what the check saw of one package, as -v prints it.
type summary struct {
	files, refs, against, inCircles int
}

// check finds the files of p that reach each other in a circle, and, when
// its doc lists its files, every use of a file listed after the user, every
// file the list leaves out and every entry that names no file.
func check(p pkg) ([]problem, summary) {
	pairs := byFile(p.uses)
	s := summary{files: len(p.files), refs: len(pairs)}
	var out []problem
	for _, c := range circles(p.files, pairs) {
		s.inCircles += len(c)
		out = append(out, problem{c[0], fmt.Sprintf("in a circle of %d files that reach each other through their uses (%s), as %s; "+
			"move what they share below them", len(c), strings.Join(c, " "), describeCircle(c, pairs))})
	}
	l, listed, err := parseListing(p.doc)
	switch {
	case err != nil:
		return append(out, problem{"", err.Error()}), s
	case !listed:
		return out, s
	}
	place := map[string]int{}
	for _, f := range p.files {
		place[f] = l.place(strings.TrimSuffix(f, ".go"))
		if place[f] < 0 {
			out = append(out, problem{f, "is not in the package doc's list of files; name it where it belongs (" + listIntro + ")"})
		}
	}
	all := slices.Clone(p.files)
	for _, f := range p.ignored {
		if !strings.HasSuffix(f, "_test.go") {
			all = append(all, f)
		}
	}
	for i, n := range l.names {
		if n != "" && !slices.ContainsFunc(all, func(f string) bool { return l.place(strings.TrimSuffix(f, ".go")) == i }) {
			out = append(out, problem{"", fmt.Sprintf("the package doc's list of files names %q, which is no file of the package", n)})
		}
	}
	for _, k := range sortedPairs(pairs) {
		from, to := place[k[0]], place[k[1]]
		if from >= 0 && to >= 0 && to > from {
			s.against++
			out = append(out, problem{k[0], fmt.Sprintf("uses %s of %s, which the package doc lists after it; "+
				"move what it uses below it, or the list is wrong", strings.Join(pairs[k], ", "), k[1])})
		}
	}
	return out, s
}

// circles returns the groups of files that reach each other through their
// uses, each sorted, in the order of their first file.
func circles(files []string, pairs map[[2]string][]string) [][]string {
	next := map[string][]string{}
	for k := range pairs {
		next[k[0]] = append(next[k[0]], k[1])
	}
	reach := map[string]map[string]bool{}
	for _, f := range files {
		reach[f] = map[string]bool{}
		stack := slices.Clone(next[f])
		for len(stack) > 0 {
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if !reach[f][g] {
				reach[f][g] = true
				stack = append(stack, next[g]...)
			}
		}
	}
	var out [][]string
	taken := map[string]bool{}
	for _, f := range slices.Sorted(slices.Values(files)) {
		if taken[f] || !reach[f][f] {
			continue
		}
		var c []string
		for _, g := range files {
			if reach[f][g] && reach[g][f] {
				c = append(c, g)
				taken[g] = true
			}
		}
		sort.Strings(c)
		out = append(out, c)
	}
	return out
}

// describeCircle words one way round a circle, from its first file back
// to it: "a.go uses B of b.go, b.go uses A of a.go".
func describeCircle(c []string, pairs map[[2]string][]string) string {
	in := map[string]bool{}
	for _, f := range c {
		in[f] = true
	}
	// The shortest way from c[0] back to itself, inside the circle.
	prev := map[string]string{}
	queue := []string{c[0]}
	for len(queue) > 0 && prev[c[0]] == "" {
		f := queue[0]
		queue = queue[1:]
		for _, g := range c {
			if _, done := prev[g]; !done && len(pairs[[2]string{f, g}]) > 0 {
				prev[g] = f
				queue = append(queue, g)
			}
		}
	}
	var steps []string
	for g := c[0]; ; {
		f := prev[g]
		steps = append(steps, fmt.Sprintf("%s uses %s of %s", f, pairs[[2]string{f, g}][0], g))
		if g = f; g == c[0] {
			break
		}
	}
	slices.Reverse(steps)
	return strings.Join(steps, ", ")
}

// sortedPairs are the pairs' keys in order.
func sortedPairs(pairs map[[2]string][]string) [][2]string {
	keys := make([][2]string, 0, len(pairs))
	for k := range pairs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	return keys
}
