package docscheck

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// root is the repository's, from this package.
const root = "../.."

// The relay's alert rules link each alert to its runbook, a section of
// the webhook relay guide: each runbook_url of the rules file (and of the
// PrometheusRule made from it) names a page and a heading of docs/ that
// exist, as a Markdown link to the registry would.
func TestAlertRunbooksLeadSomewhere(t *testing.T) {
	r := NewRepo(root)
	runbook := regexp.MustCompile(`(?m)^\s*runbook_url:\s*(\S+)\s*$`)
	for _, file := range []string{"examples/relay-alerts/joinit-relay.rules.yml", "examples/relay-kubernetes/prometheusrule.yaml"} {
		data, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		urls := runbook.FindAllSubmatch(data, -1)
		if len(urls) == 0 {
			t.Errorf("%s: no runbook_url", file)
		}
		for _, m := range urls {
			where, fragment, _ := strings.Cut(string(m[1]), "#")
			if !strings.HasPrefix(where, TerraformRegistry) || fragment == "" {
				t.Errorf("%s: runbook_url %s: want a heading of a page of %s", file, m[1], TerraformRegistry)
				continue
			}
			if problem := r.resolveAddress(where, fragment); problem != "" {
				t.Errorf("%s: runbook_url %s: %s", file, m[1], problem)
			}
		}
	}
}

// Every link of docs/, README.md and the repository's other Markdown leads
// to a page, a file and a heading that exist, as the registries and GitHub resolve it (the package
// comment). `make docs-check` runs this on the generated docs.
func TestLinksLeadSomewhere(t *testing.T) {
	problems, checked, err := NewRepo(root).CheckLinks()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		t.Error(p)
	}
	if checked < 50 {
		t.Errorf("checked %d links: the check looked at too little", checked)
	}
}

// Code cites the rules of API.md by their section, API.md#paging: each
// cited section exists, so renaming a heading fails here, not silently.
func TestCodeCitesSectionsOfAPIMdThatExist(t *testing.T) {
	api, err := NewRepo(root).Page("API.md")
	if err != nil {
		t.Fatal(err)
	}
	cite := regexp.MustCompile(`API\.md#([A-Za-z0-9_-]+)`)
	cited := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "bin" || d.Name() == "dist") {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".go" && ext != ".sh" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			for _, m := range cite.FindAllStringSubmatch(line, -1) {
				cited++
				if !api.Anchors[m[1]] {
					t.Errorf("%s:%d cites API.md#%s, which is no heading of API.md", p, i+1, m[1])
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if cited < 20 {
		t.Errorf("found %d citations of API.md: the walk looked at too little", cited)
	}
}

// Each kind of link that leads nowhere is named, with its file, line and
// target; those that lead somewhere pass.
func TestCheckLinksNamesEachBreak(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"README.md": `# Read me

[ok](docs/guides/a.md) [ok](docs/guides/a.md#a-heading) [ok](CONTRIBUTING.md#release-make-release-check) [ok](docs/data-sources)
[no file](docs/guides/gone.md)
[no heading](CONTRIBUTING.md#release)
[ok](main.tf#L3) [no line](main.tf#top)
` + "`[in code](nowhere.md)`" + `
[ok](#read-me) [no heading](#readme)
`,
		"CONTRIBUTING.md": "# Contributing\n\n## Release: `make release-check`\n",
		"CHANGELOG.md":    "[not checked](docs/guides/gone.md)\n",
		"cmd/x/README.md": "[no file](../y)\n",
		"main.tf":         "# nothing\n",
		"docs/index.md": `---
page_title: "Index"
description: |-
  The index.
---

# Index

[ok](https://registry.terraform.io/providers/joinit-community/joinit/latest/docs/guides/a#a-heading)
[ok](https://search.opentofu.org/provider/joinit-community/joinit/latest/docs/guides/a)
[no page](https://registry.terraform.io/providers/joinit-community/joinit/latest/docs/guides/gone)
[relative](../guides/a)
`,
		"docs/guides/a.md": `# A

## A Heading

## A Heading

[ok](#a-heading-1) [ok](../guides/b) [ok](../guides/b#bs-heading) [ok](https://example.com/x#y)
[ok](https://github.com/joinit-community/terraform-provider-joinit/blob/main/main.tf)
[no heading](#a-heading-2)
[no page](../guides/gone)
[no heading](../guides/b#b-heading)
[.md](../guides/b.md)
[a file](../../main.tf)
[no file](https://github.com/joinit-community/terraform-provider-joinit/tree/main/examples/gone)

` + "```terraform\n# [in a block](nowhere)\n## not a heading\n```\n",
		"docs/guides/b.md":           "# B\n\n## B's Heading\n",
		"docs/data-sources/x.md":     "# X\n\n[ok](../guides/a)\n",
		"templates/guides/a.md.tmpl": "(the template)\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	problems, _, err := NewRepo(dir).CheckLinks()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range problems {
		got = append(got, p.File+":"+strconv.Itoa(p.Line)+": "+p.Target)
	}
	want := []string{
		"docs/guides/a.md:9: #a-heading-2",
		"docs/guides/a.md:10: ../guides/gone",
		"docs/guides/a.md:11: ../guides/b#b-heading",
		"docs/guides/a.md:12: ../guides/b.md",
		"docs/guides/a.md:13: ../../main.tf",
		"docs/guides/a.md:14: https://github.com/joinit-community/terraform-provider-joinit/tree/main/examples/gone",
		"docs/index.md:11: https://registry.terraform.io/providers/joinit-community/joinit/latest/docs/guides/gone",
		"docs/index.md:12: ../guides/a",
		"README.md:4: docs/guides/gone.md",
		"README.md:5: CONTRIBUTING.md#release",
		"README.md:6: main.tf#top",
		"README.md:8: #readme",
		"cmd/x/README.md:1: ../y",
	}
	if !slices.Equal(got, want) {
		t.Errorf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, p := range problems {
		if p.File == "docs/guides/a.md" && !strings.HasSuffix(p.Reason, "(written in templates/guides/a.md.tmpl)") {
			t.Errorf("%s does not name the template to fix", p)
		}
	}
}

// The anchors are GitHub's, for the headings these pages have.
func TestSlug(t *testing.T) {
	for heading, want := range map[string]string{
		"What Is in the State":                    "what-is-in-the-state",
		"Release: `make release-check`":           "release-make-release-check",
		"Several Relays, One State Directory":     "several-relays-one-state-directory",
		"Okta (`okta/okta`)":                      "okta-oktaokta",
		"`min_members` and `max_removals`":        "min_members-and-max_removals",
		"A — B":                                   "a--b",
		"Café Club ☕":                             "café-club-",
		"東京 Chapter":                              "東京-chapter",
		"The [webhook guide](../guides/x) again":  "the-webhook-guide-again",
		"Nested Schema for `memberships.profile`": "nested-schema-for-membershipsprofile",
		"Install and configure":                   "install-and-configure",
		"Try it without an account: `make demo`":  "try-it-without-an-account-make-demo",
	} {
		if got := Slug(heading); got != want {
			t.Errorf("Slug(%q) = %q, want %q", heading, got, want)
		}
	}
	p := Parse("x.md", "# Usage\n\n## Usage\n\n### Usage ###\n")
	for _, a := range []string{"usage", "usage-1", "usage-2"} {
		if !p.Anchors[a] {
			t.Errorf("no anchor %s among %v", a, p.Anchors)
		}
	}
}

// syncSubcategory groups the sync pages in the registries' sidebars.
const syncSubcategory = "Syncing groups"

// corePage is the sync pages' core, whose table under downstreamSection
// links every other sync page.
const (
	corePage          = "docs/guides/sso-group-sync.md"
	downstreamSection = "one-module-per-downstream"
)

// Every page has the frontmatter the registries show: a title and a
// description, and every guide a subcategory (the sidebar's group). The sync
// pages share theirs, and the core page's table links each of them; the
// core page is at most 200 lines, each other sync page 400.
func TestFrontmatter(t *testing.T) {
	r := NewRepo(root)
	names, err := r.DocsPages()
	if err != nil {
		t.Fatal(err)
	}
	var sync []string
	for _, name := range names {
		p, err := r.Page(name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Front == nil {
			t.Errorf("%s: no frontmatter", name)
			continue
		}
		for _, key := range []string{"page_title", "description"} {
			if strings.TrimSpace(p.Front[key]) == "" {
				t.Errorf("%s: frontmatter without %s", name, key)
			}
		}
		if _, ok := p.Front["subcategory"]; strings.HasPrefix(name, "docs/guides/") && !ok {
			t.Errorf("%s: frontmatter without subcategory", name)
		}
		if p.Front["subcategory"] == syncSubcategory {
			sync = append(sync, name)
		}
	}
	core, err := r.Page(corePage)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(sync, corePage) {
		t.Errorf("%s: subcategory %q, want %q", corePage, core.Front["subcategory"], syncSubcategory)
	}
	listed := tableLinks(t, core, downstreamSection)
	for _, name := range listed {
		if !slices.Contains(sync, name) {
			t.Errorf("%s is in the table of %s#%s but not in subcategory %q", name, corePage, downstreamSection, syncSubcategory)
		}
	}
	for _, name := range sync {
		if name != corePage && !slices.Contains(listed, name) {
			t.Errorf("%s is in subcategory %q but not in the table of %s#%s", name, syncSubcategory, corePage, downstreamSection)
		}
		p, _ := r.Page(name)
		limit := 400
		if name == corePage {
			limit = 200
		}
		if n := len(p.Lines) - 1; n > limit {
			t.Errorf("%s: %d lines, more than the %d a sync page may have", name, n, limit)
		}
	}
	if len(listed) < 6 {
		t.Errorf("the table of %s#%s links %d pages: %v", corePage, downstreamSection, len(listed), listed)
	}
}

// tableLinks are the pages of docs/ that the table rows of a page's
// section (by anchor) link.
func tableLinks(t *testing.T, p *Page, anchor string) []string {
	t.Helper()
	start, end := -1, len(p.Lines)
	for i, h := range p.Headings {
		if h.Anchor == anchor {
			start = h.Line
			for _, next := range p.Headings[i+1:] {
				if next.Level <= h.Level {
					end = next.Line - 1
					break
				}
			}
			break
		}
	}
	if start < 0 {
		t.Fatalf("%s: no heading with the anchor #%s", p.Path, anchor)
	}
	var pages []string
	for _, l := range p.Links {
		if l.Line > start && l.Line <= end && strings.HasPrefix(strings.TrimSpace(p.Lines[l.Line-1]), "|") {
			if m := pageLink.FindStringSubmatch(strings.Split(l.Target, "#")[0]); m != nil {
				pages = append(pages, "docs/"+m[1]+"/"+m[2]+".md")
			}
		}
	}
	return pages
}

// inlineHCL are the pages whose HCL is not (yet) rendered from a file
// under examples/, and how many such blocks each has: the pages of
// issue 64's split have none, and no page may gain one.
var inlineHCL = map[string]int{
	"docs/data-sources/memberships.md": 2,
	"docs/index.md":                    2,
	"docs/guides/access-token.md":      1,
	"docs/guides/testing-modules.md":   1,
}

// The HCL of docs/ is rendered from files under examples/ (tfplugindocs'
// tffile), which `make fmtcheck` formats and the tests validate: a block
// pasted into a template is checked by nothing.
func TestHCLIsRenderedFromExamples(t *testing.T) {
	examples := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		examples[strings.Trim(string(b), "\n")] = true
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	r := NewRepo(root)
	names, err := r.DocsPages()
	if err != nil {
		t.Fatal(err)
	}
	blocks := 0
	for _, name := range names {
		p, err := r.Page(name)
		if err != nil {
			t.Fatal(err)
		}
		var inline []int
		for _, b := range p.CodeBlocks {
			if b.Info != "terraform" && b.Info != "hcl" && b.Info != "tf" {
				continue
			}
			blocks++
			if !examples[strings.Trim(b.Text, "\n")] {
				inline = append(inline, b.Line)
			}
		}
		switch allowed := inlineHCL[name]; {
		case len(inline) > allowed:
			t.Errorf("%s: HCL at lines %v is not a file under examples/: move it into one and render it with tffile (%d such blocks allowed here)", name, inline, allowed)
		case len(inline) < allowed:
			t.Errorf("%s: %d blocks of HCL not from examples/, fewer than inlineHCL allows (%d): lower it", name, len(inline), allowed)
		}
	}
	if blocks < 10 {
		t.Errorf("found %d blocks of HCL in docs/: the check looked at too little", blocks)
	}
}
