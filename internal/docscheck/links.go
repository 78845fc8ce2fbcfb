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
	"strings"
)

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
