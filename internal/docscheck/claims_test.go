package docscheck

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Claims that go stale unseen: a count of runs or tests, a command's
// printed output, a version floor. Each is either checked here against
// what it counts or says, or not written.

// countClaim is a count of runs or tests: "9 runs", "Four tests", "5 of 5
// runs", "17 passed". "one run" is not counted: it is "a run".
var countClaim = regexp.MustCompile(`(?i)\b(\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?: of \d+)?(?: \w+)? (?:runs?|tests?|test files?)\b|\b\d+ passed\b`)

var numberWords = []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"}

// counts are the counts of runs or tests the Markdown may state: the
// phrase, in its file, "#" standing for the number, and what it counts
// (the number must be count's), or why it is no count of ours (count nil).
var counts = []countEntry{
	{file: "CONTRIBUTING.md", phrase: "# tests at a time", count: makefileParallel},
	{file: "CONTRIBUTING.md", phrase: "# runs:", why: "how often a benchmark was measured, for the table's ranges"},
	{file: "docs/guides/webhook-relay.md", phrase: "# runs, none overlapping", why: "a line of make e2e's timeline: TestE2ETimelineIsWhatE2EPrints holds it to e2e's steps"},
	{file: "docs/guides/webhook-relay.md", phrase: "# runs never overlap", why: "any two runs of the sync, not a count"},
}

type countEntry struct {
	file, phrase string
	count        func(t *testing.T) int
	why          string
}

func (c countEntry) pattern() *regexp.Regexp {
	number := `(?i:\d+|` + strings.Join(numberWords, "|") + `)`
	return regexp.MustCompile(strings.ReplaceAll(regexp.QuoteMeta(c.phrase), "#", number))
}

// countPages are the pages whose counts are read: docs/, README.md,
// CONTRIBUTING.md and the READMEs of examples/.
func countPages(t *testing.T, r *Repo) []string {
	t.Helper()
	names, err := r.DocsPages()
	if err != nil {
		t.Fatal(err)
	}
	more, err := r.GitHubPages()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range more {
		if name == "README.md" || name == "CONTRIBUTING.md" || strings.HasPrefix(name, "examples/") {
			names = append(names, name)
		}
	}
	return names
}

// Every count of runs or tests in the Markdown is one of counts: checked
// against what it counts, or said to be no count of ours. A count nothing
// checks fails, named, and so does a stale one.
func TestCountsAreChecked(t *testing.T) {
	r := NewRepo(root)
	used := map[int]bool{}
	for _, name := range countPages(t, r) {
		p, err := r.Page(name)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range p.Lines {
			for _, m := range countClaim.FindAllStringSubmatchIndex(line, -1) {
				claim := line[m[0]:m[1]]
				k := slices.IndexFunc(counts, func(c countEntry) bool {
					at := c.pattern().FindStringIndex(line)
					return c.file == name && at != nil && at[0] <= m[0] && m[1] <= at[1]
				})
				if k < 0 {
					t.Errorf("%s:%d: %q: a count of runs or tests that nothing checks: remove it, or add it to counts (internal/docscheck/claims_test.go) with what it counts%s", name, i+1, claim, r.templateOf(name))
					continue
				}
				used[k] = true
				if c := counts[k]; c.count != nil {
					if got, want := number(line[m[2]:m[3]]), c.count(t); got != want {
						t.Errorf("%s:%d: %q says %d; it is %d%s", name, i+1, claim, got, want, r.templateOf(name))
					}
				}
			}
		}
	}
	for k, c := range counts {
		if !used[k] {
			t.Errorf("counts: %q is no longer in %s: remove it from counts", c.phrase, c.file)
		}
	}
}

func number(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return slices.Index(numberWords, strings.ToLower(s))
}

// makefileParallel is the GNUmakefile's PARALLEL, how many tests make test
// runs at once.
func makefileParallel(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^PARALLEL \?= (\d+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatal("GNUmakefile: no PARALLEL ?= N")
	}
	return number(string(m[1]))
}

// The webhook relay guide shows one run of make e2e's offboarding test:
// each line of it is a step the test prints (e2e/offboarding_test.go,
// numbers aside), every step is there, in the test's order.
func TestE2ETimelineIsWhatE2EPrints(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, "e2e", "offboarding_test.go"))
	if err != nil {
		t.Fatal(err)
	}
	var steps []*regexp.Regexp
	verb := regexp.MustCompile(`%(?:d|s|\.1f)`)
	for _, m := range regexp.MustCompile(`w\.step\("((?:[^"\\]|\\.)*)"`).FindAllStringSubmatch(string(src), -1) {
		format, err := strconv.Unquote(`"` + m[1] + `"`)
		if err != nil {
			t.Fatal(err)
		}
		parts := verb.Split(format, -1)
		for i := range parts {
			parts[i] = regexp.QuoteMeta(parts[i])
		}
		steps = append(steps, regexp.MustCompile(`^\s*[\d.]+s  `+strings.Join(parts, `.+`)+`$`))
	}
	p, err := NewRepo(root).Page("docs/guides/webhook-relay.md")
	if err != nil {
		t.Fatal(err)
	}
	var timeline []string
	for _, b := range p.CodeBlocks {
		if strings.Contains(b.Text, "first apply:") {
			timeline = strings.Split(strings.TrimRight(b.Text, "\n"), "\n")
		}
	}
	if len(timeline) != len(steps) || len(steps) < 5 {
		t.Fatalf("docs/guides/webhook-relay.md: a timeline of %d lines; e2e/offboarding_test.go prints %d steps (written in templates/guides/webhook-relay.md.tmpl)", len(timeline), len(steps))
	}
	for i, line := range timeline {
		if !steps[i].MatchString(line) {
			t.Errorf("docs/guides/webhook-relay.md: timeline line %d, %q, is not step %d of e2e/offboarding_test.go (%s) (written in templates/guides/webhook-relay.md.tmpl)", i+1, line, i+1, steps[i])
		}
	}
}

// The project's floors are stated alike wherever they are stated; make
// floor-check runs the examples under README.md's (StatedFloor).
func TestStatedFloorsAgree(t *testing.T) {
	r := NewRepo(root)
	var want []string
	for _, name := range []string{"README.md", "docs/index.md", "CONTRIBUTING.md"} {
		p, err := r.Page(name)
		if err != nil {
			t.Fatal(err)
		}
		m := StatedFloor.FindStringSubmatch(strings.Join(p.Lines, "\n"))
		switch {
		case m == nil:
			t.Errorf("%s: the floors are not stated as %s%s", name, StatedFloor, r.templateOf(name))
		case want == nil:
			want = m
		case m[1] != want[1] || m[2] != want[2]:
			t.Errorf("%s: Terraform %s and OpenTofu %s; README.md says %s and %s%s", name, m[1], m[2], want[1], want[2], r.templateOf(name))
		}
	}
}

// A guide's "Version Floor" states the Terraform its modules require: the
// required_version of every example it renders from examples/modules and
// examples/use-cases, which make floor-check runs at that floor.
func TestGuideFloorsAreTheExamples(t *testing.T) {
	templates, _ := filepath.Glob(filepath.Join(root, "templates", "guides", "*.md.tmpl"))
	rendered := regexp.MustCompile(`tffile "(examples/(?:modules|use-cases)/[^/"]+)/`)
	stated := regexp.MustCompile(`(?s)## Version Floor\s+Terraform (\d+\.\d+)`)
	required := regexp.MustCompile(`required_version\s*=\s*">= (\d+\.\d+)"`)
	guides := 0
	for _, tmpl := range templates {
		b, err := os.ReadFile(tmpl)
		if err != nil {
			t.Fatal(err)
		}
		name := "templates/guides/" + filepath.Base(tmpl)
		floor := stated.FindSubmatch(b)
		if floor == nil {
			if strings.Contains(string(b), "## Version Floor") {
				t.Errorf("%s: its Version Floor does not begin \"Terraform X.Y\"", name)
			}
			continue
		}
		guides++
		var dirs []string
		for _, m := range rendered.FindAllSubmatch(b, -1) {
			if !slices.Contains(dirs, string(m[1])) {
				dirs = append(dirs, string(m[1]))
			}
		}
		for _, dir := range dirs {
			files, _ := filepath.Glob(filepath.Join(root, dir, "*.tf"))
			var text []byte
			for _, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				text = append(text, b...)
			}
			if req := required.FindSubmatch(text); req == nil || string(req[1]) != string(floor[1]) {
				t.Errorf("%s: Version Floor Terraform %s, but %s does not require \">= %s\" (%s)", name, floor[1], dir, floor[1], required.Find(text))
			}
		}
	}
	if guides < 3 {
		t.Errorf("%d guides state a Version Floor: the check looked at too little", guides)
	}
}
