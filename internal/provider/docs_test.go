package provider

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// registryGuides are where the two registries serve the guides. Both show
// a page at .../docs/<type>/<name>, so a link from one such page to
// another is relative (../guides/<name>) and stays on the registry and
// version it is read on; the index has no such place in common (the
// Terraform Registry serves it at .../docs, the OpenTofu Registry at the
// version's own address), so it links each guide on both.
var registryGuides = []string{
	"https://registry.terraform.io/providers/joinit-community/joinit/latest/docs/guides/",
	"https://search.opentofu.org/provider/joinit-community/joinit/latest/docs/guides/",
}

// The generated docs link pages of their own registry: relative links
// between pages name a page that exists, the index links every guide on
// both registries, and no page but the index links one registry's guide.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	link := regexp.MustCompile(`\]\(([^)#]*)(#[^)]*)?\)`) // the target, then any fragment
	var pages []string
	for _, glob := range []string{"../../docs/*.md", "../../docs/*/*.md"} {
		m, _ := filepath.Glob(glob)
		pages = append(pages, m...)
	}
	if len(pages) < 5 {
		t.Fatalf("found %d pages under docs/", len(pages))
	}
	relatives := 0
	for _, p := range pages {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		index := filepath.Dir(p) == "../../docs"
		for _, m := range link.FindAllSubmatch(outsideFences(b), -1) {
			target := string(m[1])
			switch {
			case strings.HasPrefix(target, "../"):
				relatives++
				if index {
					t.Errorf("%s: relative link %s resolves elsewhere on each registry", p, target)
				} else if _, err := os.Stat(filepath.Join(filepath.Dir(p), target+".md")); err != nil {
					t.Errorf("%s: link %s names no page", p, target)
				}
			case strings.HasPrefix(target, registryGuides[0]) || strings.HasPrefix(target, registryGuides[1]):
				if !index {
					t.Errorf("%s: link %s leaves a reader of the other registry on this one; link ../guides/<name>", p, target)
				}
			case !strings.Contains(target, "://") && target != "":
				t.Errorf("%s: link %s is neither ../<type>/<name> nor an address", p, target)
			}
		}
	}
	if relatives == 0 {
		t.Error("no page links another relatively: the check looked at nothing")
	}
	index, err := os.ReadFile("../../docs/index.md")
	if err != nil {
		t.Fatal(err)
	}
	guides, _ := filepath.Glob("../../docs/guides/*.md")
	for _, g := range guides {
		for _, registry := range registryGuides {
			if link := registry + strings.TrimSuffix(filepath.Base(g), ".md"); !strings.Contains(string(index), "]("+link+")") {
				t.Errorf("docs/index.md does not link %s", link)
			}
		}
	}
}

// The troubleshooting table of docs/index.md has a row for each error and
// warning a user can meet, in the words the provider says them.
func TestDocsTroubleshootingTable(t *testing.T) {
	t.Parallel()
	index, err := os.ReadFile("../../docs/index.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(index), "## Troubleshooting")
	if !ok {
		t.Fatal("docs/index.md has no Troubleshooting section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	for _, said := range []string{
		"Missing access token", "Invalid base URL", "Blank JOINIT_ORGANIZATION_ID", "is not a duration",
		"the access token was refused", "no such endpoint", "the API specification shows", "matches no membership",
		"Unknown membership status code", "does not resolve", "rate limited, and retries were used up",
		"the server failed, and retries were used up", "is not a page", "different answers for this page",
		"not advancing through pages", "did not finish within its read timeout", "that Terraform accepts from a provider in one message",
		"the read was interrupted", "holds the access token in its", "holds records past that end", "No membership found", "Several memberships match",
	} {
		if !strings.Contains(table, said) {
			t.Errorf("the troubleshooting table has no row for %q", said)
		}
	}
}

// The memberships example filters on membership names the sandbox has, so
// that it reads someone when tried against it.
func TestMembershipsExampleNamesExist(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../examples/data-sources/joinit_memberships/data-source.tf")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	s := sandbox.New(sandbox.Options{Seed: 1, Memberships: 200})
	for _, raw := range s.MembershipsJSON(nil) {
		var m struct {
			Name *string `json:"membership_name"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m.Name != nil {
			names[*m.Name] = true
		}
	}
	used := regexp.MustCompile(`membership_names\s*=\s*\[([^\]]*)\]`).FindAllStringSubmatch(string(b), -1)
	if len(used) == 0 {
		t.Fatal("the example filters on no membership_names")
	}
	for _, u := range used {
		for _, q := range regexp.MustCompile(`"([^"]*)"`).FindAllStringSubmatch(u[1], -1) {
			if !names[q[1]] {
				t.Errorf("the example filters on %q, which no sandbox membership has", q[1])
			}
		}
	}
}

// dev.tfrc, which CONTRIBUTING.md's dev_overrides steps write at the root, is
// never committed by mistake.
func TestDevTfrcIsIgnored(t *testing.T) {
	t.Parallel()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	cmd := exec.Command(git, "check-ignore", "-q", "dev.tfrc")
	cmd.Dir = "../.."
	if err := cmd.Run(); err != nil {
		t.Fatalf("git check-ignore dev.tfrc: %v: dev.tfrc is not ignored", err)
	}
}

// The README's table and the index's list of data sources name every data
// source the provider serves: a user reads them before any other page.
func TestEveryDataSourceIsInTheReadmeAndTheIndex(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile("../../docs/index.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, def := range orderedDefs() {
		name := "`joinit_" + def.name + "`"
		if !strings.Contains(string(readme), "\n| "+name+" | ") {
			t.Errorf("README.md's table of data sources has no row for %s", name)
		}
		if !strings.Contains(string(index), "\n* "+name+": ") {
			t.Errorf("docs/index.md's list of data sources (templates/index.md.tmpl) has no item for %s", name)
		}
	}
}

// outsideFences is a page's text with its fenced code blocks left out: in
// code, "[a-z](…)" is a regular expression, not a link.
func outsideFences(page []byte) []byte {
	var prose []byte
	fenced := false
	for _, line := range bytes.SplitAfter(page, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("```")) {
			fenced = !fenced
			continue
		}
		if !fenced {
			prose = append(prose, line...)
		}
	}
	return prose
}
