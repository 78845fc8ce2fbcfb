// Package docscheck reads the repository's Markdown as its readers get it,
// for the checks of `make docs-check`: every link of docs/, README.md and
// the repository's other Markdown leads to a page, file and heading that
// exist, the pages' frontmatter is
// what the registries' sidebars show, and the HCL of docs/ is rendered from
// files under examples/.
//
// Where a link resolves:
//
//   - docs/<type>/<name>.md is served by the Terraform Registry at
//     .../latest/docs/<type>/<name> and by the OpenTofu Registry at the same
//     tail, so a link between pages is ../<type>/<name>, without .md. Any
//     other relative link from docs/ (../../examples/..., a file with .md)
//     resolves under the registry's .../docs/, where only pages are: it is
//     refused, and a repository file is linked by its GitHub address
//     (https://github.com/joinit-community/terraform-provider-joinit/blob/main/<path>),
//     whose path must exist here. docs/index.md is served at .../docs on the
//     one registry and at the version's address on the other, so it links
//     no page relatively.
//   - README.md, and the repository's other Markdown (GitHubPages), is
//     served by GitHub: a relative link names a file or directory from the
//     file's directory, and a fragment on a Markdown
//     file names one of its headings (on another file, only GitHub's line
//     anchors, #L10 or #L10-L20).
//   - A link to either registry's page of this provider names a page of
//     docs/; a link to this repository on GitHub (blob or tree) names a path
//     that exists. Other addresses are not followed (no network).
//
// A fragment names a heading by its anchor, made as GitHub makes it (the
// github-slugger rule), which the registries follow for headings of
// letters, digits, spaces and punctuation: the heading's text as rendered
// (the text of links and code spans, no markup), lower-cased; every
// character that is not a letter, a digit, a combining mark, "-" or "_"
// dropped, a space included in neither; each space then a hyphen, so
// "Release: `make release-check`" is release-make-release-check and
// "A — B" is a--b. The second heading of the same anchor gets "-1", the
// third "-2". An HTML anchor (<a id="..."> or <a name="...">, as
// tfplugindocs writes for nested schemas) is named by its id.
package docscheck

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Where the registries and GitHub serve this provider's pages and files.
const (
	TerraformRegistry = "https://registry.terraform.io/providers/joinit-community/joinit/latest/docs"
	OpenTofuRegistry  = "https://search.opentofu.org/provider/joinit-community/joinit/latest"
	GitHubRepository  = "https://github.com/joinit-community/terraform-provider-joinit"
)

// Page is one Markdown file: its lines, the anchors of its headings, its
// links, its frontmatter and its fenced code.
type Page struct {
	Path       string // slash-separated, from the repository's root
	Lines      []string
	Anchors    map[string]bool
	Headings   []Heading
	Links      []Link
	Front      map[string]string // frontmatter keys and values; nil without frontmatter
	CodeBlocks []CodeBlock
}

// Heading is an ATX heading and the anchor it gets.
type Heading struct {
	Line   int
	Level  int
	Text   string
	Anchor string
}

// Link is the target of an inline link, on its line.
type Link struct {
	Line   int
	Target string
}

// CodeBlock is a fenced block: its info string and its text.
type CodeBlock struct {
	Line int // the opening fence's
	Info string
	Text string
}

var (
	atxHeading = regexp.MustCompile(`^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	// The target of an inline link or image: after "](", up to a space
	// (before a title) or the closing parenthesis.
	linkTarget = regexp.MustCompile(`\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)`)
	codeSpan   = regexp.MustCompile("`+[^`]*`+")
	inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	htmlTag    = regexp.MustCompile(`<[^>]+>`)
)

// Parse reads a Markdown file's text.
func Parse(name, text string) *Page {
	p := &Page{Path: name, Lines: strings.Split(text, "\n"), Anchors: map[string]bool{}}
	start := 0
	if len(p.Lines) > 0 && p.Lines[0] == "---" {
		if end := slices.Index(p.Lines[1:], "---"); end >= 0 {
			p.Front = frontmatter(p.Lines[1 : end+1])
			start = end + 2
		}
	}
	seen := map[string]int{}
	var fence string // the opening fence of the block we are in
	var block *CodeBlock
	for i := start; i < len(p.Lines); i++ {
		line, n := p.Lines[i], i+1
		trimmed := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "" {
				fence = ""
				p.CodeBlocks = append(p.CodeBlocks, *block)
				continue
			}
			block.Text += line + "\n"
			continue
		}
		if f := openingFence(trimmed); f != "" {
			fence = f
			block = &CodeBlock{Line: n, Info: strings.TrimSpace(strings.TrimLeft(trimmed, f[:1]))}
			continue
		}
		if m := atxHeading.FindStringSubmatch(line); m != nil {
			anchor := Slug(m[2])
			if k := seen[anchor]; k > 0 {
				seen[anchor] = k + 1
				anchor += "-" + strconv.Itoa(k)
			} else {
				seen[anchor] = 1
			}
			p.Anchors[anchor] = true
			p.Headings = append(p.Headings, Heading{Line: n, Level: len(m[1]), Text: m[2], Anchor: anchor})
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(line, -1) {
			p.Anchors[m[1]] = true
		}
		for _, m := range linkTarget.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, "``"), -1) {
			p.Links = append(p.Links, Link{Line: n, Target: m[1]})
		}
	}
	return p
}

// openingFence is the run of backticks or tildes that opens a fenced
// block on this (trimmed) line, or "".
func openingFence(trimmed string) string {
	for _, c := range []string{"`", "~"} {
		run := len(trimmed) - len(strings.TrimLeft(trimmed, c))
		if run >= 3 {
			return strings.Repeat(c, run)
		}
	}
	return ""
}

// frontmatter reads the YAML subset tfplugindocs writes: `key: "value"`,
// `key: value` and `key: |-` followed by indented lines.
func frontmatter(lines []string) map[string]string {
	front := map[string]string{}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		key, value, ok := strings.Cut(line, ":")
		if !ok || strings.HasPrefix(line, " ") {
			continue
		}
		value = strings.TrimSpace(value)
		switch {
		case value == "|-" || value == "|" || value == ">-" || value == ">":
			var parts []string
			for i+1 < len(lines) && (strings.HasPrefix(lines[i+1], " ") || lines[i+1] == "") {
				i++
				parts = append(parts, strings.TrimSpace(lines[i]))
			}
			value = strings.TrimSpace(strings.Join(parts, " "))
		case strings.HasPrefix(value, `"`):
			if u, err := strconv.Unquote(value); err == nil {
				value = u
			}
		}
		front[strings.TrimSpace(key)] = value
	}
	return front
}

// Slug is the anchor GitHub gives a heading of this text (see the package
// comment).
func Slug(heading string) string {
	text := inlineLink.ReplaceAllString(heading, "$1")
	text = htmlTag.ReplaceAllString(text, "")
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Problem is a link that leads nowhere, or a page that breaks a rule.
type Problem struct {
	File   string
	Line   int
	Target string
	Reason string
}

func (p Problem) String() string {
	if p.Target == "" {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Reason)
	}
	return fmt.Sprintf("%s:%d: %s: %s", p.File, p.Line, p.Target, p.Reason)
}

// Repo is a checkout: its root, and the Markdown files read so far.
type Repo struct {
	Root  string
	pages map[string]*Page
}

// NewRepo reads nothing yet.
func NewRepo(root string) *Repo { return &Repo{Root: root, pages: map[string]*Page{}} }

// Page reads the Markdown file at name (slash-separated, from the root)
// once.
func (r *Repo) Page(name string) (*Page, error) {
	if p, ok := r.pages[name]; ok {
		return p, nil
	}
	b, err := os.ReadFile(filepath.Join(r.Root, filepath.FromSlash(name)))
	if err != nil {
		return nil, err
	}
	p := Parse(name, string(b))
	r.pages[name] = p
	return p, nil
}

// DocsPages are the pages under docs/, sorted.
func (r *Repo) DocsPages() ([]string, error) {
	var names []string
	err := filepath.WalkDir(filepath.Join(r.Root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, err := filepath.Rel(r.Root, p)
			if err != nil {
				return err
			}
			names = append(names, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(names)
	return names, err
}

// GitHubPages are the Markdown files GitHub serves from the repository,
// sorted: README.md, CONTRIBUTING.md, DESIGN.md and those of cmd/,
// examples/ and the rest, but not docs/ (the registries' pages), nor
// CHANGELOG.md, whose entries keep the links they were written with, nor
// what is not tracked (directories of dot names, bin/, dist/).
func (r *Repo) GitHubPages() ([]string, error) {
	var names []string
	err := filepath.WalkDir(r.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(r.Root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir() && rel != "." && (strings.HasPrefix(d.Name(), ".") || rel == "docs" || rel == "bin" || rel == "dist"):
			return filepath.SkipDir
		case !d.IsDir() && strings.HasSuffix(rel, ".md") && rel != "CHANGELOG.md":
			names = append(names, rel)
		}
		return nil
	})
	slices.Sort(names)
	return names, err
}

// CheckLinks checks every link of docs/ and of the Markdown GitHub serves
// (GitHubPages), and returns how many it checked.
func (r *Repo) CheckLinks() ([]Problem, int, error) {
	names, err := r.DocsPages()
	if err != nil {
		return nil, 0, err
	}
	more, err := r.GitHubPages()
	if err != nil {
		return nil, 0, err
	}
	names = append(names, more...)
	var problems []Problem
	checked := 0
	for _, name := range names {
		p, err := r.Page(name)
		if err != nil {
			return nil, 0, err
		}
		for _, l := range p.Links {
			checked++
			if reason := r.resolve(p, l.Target); reason != "" {
				problems = append(problems, Problem{File: name, Line: l.Line, Target: l.Target, Reason: reason + r.templateOf(name)})
			}
		}
	}
	return problems, checked, nil
}

// templateOf names the template a page of docs/ is generated from, when
// there is one, where the fix goes.
func (r *Repo) templateOf(name string) string {
	if !strings.HasPrefix(name, "docs/") {
		return ""
	}
	t := "templates/" + strings.TrimPrefix(name, "docs/") + ".tmpl"
	if _, err := os.Stat(filepath.Join(r.Root, filepath.FromSlash(t))); err != nil {
		return ""
	}
	return " (written in " + t + ")"
}

// resolve says why target, linked from p, leads nowhere, or "".
func (r *Repo) resolve(p *Page, target string) string {
	if target == "" {
		return "an empty link"
	}
	where, fragment, _ := strings.Cut(target, "#")
	if f, err := url.PathUnescape(fragment); err == nil {
		fragment = f
	}
	if strings.Contains(where, ":") { // an address: https://, mailto:
		return r.resolveAddress(where, fragment)
	}
	if where == "" {
		if !p.Anchors[fragment] {
			return "no heading of this page has the anchor #" + fragment
		}
		return ""
	}
	if strings.HasPrefix(p.Path, "docs/") {
		return r.resolveRegistryRelative(p, where, fragment)
	}
	return r.resolveFile(path.Join(path.Dir(p.Path), where), fragment)
}

var pageLink = regexp.MustCompile(`^\.\./([a-z-]+)/([A-Za-z0-9_.-]+)$`)

// resolveRegistryRelative resolves a relative link of a page of docs/, as
// both registries do.
func (r *Repo) resolveRegistryRelative(p *Page, where, fragment string) string {
	if p.Path == "docs/index.md" {
		return "the index is served at .../docs on the Terraform Registry and at the version's address on the OpenTofu Registry, so a relative link from it leads elsewhere on each: link the page on both registries"
	}
	m := pageLink.FindStringSubmatch(where)
	switch {
	case m == nil:
		return "a relative link from docs/ resolves under the registry's .../docs/, where only pages are: link a page as ../<type>/<name>, a repository file by its address " + GitHubRepository + "/blob/main/<path>"
	case strings.HasSuffix(m[2], ".md"):
		return "the registries serve pages without .md: link ../" + m[1] + "/" + strings.TrimSuffix(m[2], ".md")
	}
	return r.resolvePage("docs/"+m[1]+"/"+m[2]+".md", fragment)
}

// resolvePage checks that a page of docs/ exists and has the fragment.
func (r *Repo) resolvePage(name, fragment string) string {
	target, err := r.Page(name)
	if err != nil {
		return "no page " + name
	}
	if fragment != "" && !target.Anchors[fragment] {
		return "no heading of " + name + " has the anchor #" + fragment
	}
	return ""
}

var lineAnchor = regexp.MustCompile(`^L\d+(-L\d+)?$`)

// resolveFile checks a path of the repository, as GitHub resolves a
// relative link: a file or a directory, and a fragment on a Markdown file
// one of its headings.
func (r *Repo) resolveFile(name, fragment string) string {
	name = strings.TrimSuffix(name, "/")
	if name == ".." || strings.HasPrefix(name, "../") {
		return "leaves the repository"
	}
	info, err := os.Stat(filepath.Join(r.Root, filepath.FromSlash(name)))
	if err != nil {
		return "no file or directory " + name
	}
	switch {
	case fragment == "":
		return ""
	case info.IsDir():
		return r.resolveFile(path.Join(name, "README.md"), fragment)
	case strings.HasSuffix(name, ".md"):
		target, err := r.Page(name)
		if err != nil {
			return err.Error()
		}
		if !target.Anchors[fragment] {
			return "no heading of " + name + " has the anchor #" + fragment
		}
		return ""
	case lineAnchor.MatchString(fragment):
		return ""
	}
	return "#" + fragment + " names no line of " + name + " (#L10 or #L10-L20)"
}

var (
	registryPage = regexp.MustCompile(`^(?:` + regexp.QuoteMeta(TerraformRegistry) + `|` + regexp.QuoteMeta(OpenTofuRegistry) + `/docs)/([a-z-]+)/([A-Za-z0-9_-]+)$`)
	repoPath     = regexp.MustCompile(`^` + regexp.QuoteMeta(GitHubRepository) + `/(?:blob|tree)/[^/]+/(.+)$`)
)

// resolveAddress checks an address of a registry's page of this provider,
// or of this repository on GitHub; other addresses pass.
func (r *Repo) resolveAddress(where, fragment string) string {
	where = strings.TrimSuffix(where, "/")
	if where == TerraformRegistry || where == OpenTofuRegistry || where == OpenTofuRegistry+"/docs" {
		return r.resolvePage("docs/index.md", fragment)
	}
	if m := registryPage.FindStringSubmatch(where); m != nil {
		return r.resolvePage("docs/"+m[1]+"/"+m[2]+".md", fragment)
	}
	if strings.HasPrefix(where, TerraformRegistry) || strings.HasPrefix(where, OpenTofuRegistry) {
		return "names no page of the registry: .../docs/<type>/<name>"
	}
	if m := repoPath.FindStringSubmatch(where); m != nil {
		return r.resolveFile(m[1], fragment)
	}
	return ""
}
