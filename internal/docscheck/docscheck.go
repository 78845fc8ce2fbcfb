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

import "regexp"

// StatedFloor is how README.md, docs/index.md and CONTRIBUTING.md state
// the oldest Terraform and OpenTofu the provider supports ("Terraform 1.5
// or later (or OpenTofu 1.10 or later)"): TestStatedFloorsAgree holds them
// to one another, and make floor-check runs the examples under README.md's.
var StatedFloor = regexp.MustCompile(`Terraform\s+(\d+\.\d+)\s+(?:or|and)\s+later,?\s+\(?(?:or|and)\s+OpenTofu\s+(\d+\.\d+)\s+(?:or|and)\s+later`)

// Where the registries and GitHub serve this provider's pages and files.
const (
	TerraformRegistry = "https://registry.terraform.io/providers/joinit-community/joinit/latest/docs"
	OpenTofuRegistry  = "https://search.opentofu.org/provider/joinit-community/joinit/latest"
	GitHubRepository  = "https://github.com/joinit-community/terraform-provider-joinit"
)
