package provider

import (
	"context"
	"flag"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite the settings tables of README.md and templates/index.md.tmpl from the settings' declarations (make readme)")

// The tables rendered from providerSettings, and the files that hold them
// between markers: README.md's table of every setting, and the template of
// docs/index.md's table of environment variables. `make readme` rewrites
// them (and `make docs` renders the template); TestGeneratedSettingsTables
// fails when either differs.
var generatedTables = []struct {
	path, begin, end string
	render           func() string
}{
	{"../../README.md", "<!-- settings:begin: generated from the provider schema by `make readme`; do not edit -->", "<!-- settings:end -->",
		settingsTable},
	{"../../templates/index.md.tmpl", "<!-- env:begin: generated from the provider settings by `make readme`; do not edit -->", "<!-- env:end -->",
		environmentTable},
}

// Parallel unless it rewrites the files (make readme), which
// TestEveryDataSourceIsInTheReadmeAndTheIndex reads: the tests that are not
// parallel run before any that are.
func TestGeneratedSettingsTables(t *testing.T) {
	if !*updateReadme {
		t.Parallel()
	}
	for _, g := range generatedTables {
		b, err := os.ReadFile(g.path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := replaceBetween(string(b), g.begin, g.end, g.render())
		if err != nil {
			t.Fatalf("%s: %v", g.path, err)
		}
		if *updateReadme {
			if err := os.WriteFile(g.path, []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if want != string(b) {
			t.Errorf("%s's table differs from the settings' declarations: run `make readme docs` and commit them. Rendered table:\n%s", g.path, g.render())
		}
	}
}

// Every argument, nested ones included, has a row, with its environment
// variable and sensitivity.
func TestSettingsTableRowsFollowSchema(t *testing.T) {
	t.Parallel()
	table := settingsTable()
	for _, want := range []string{
		"| `access_token` (string, sensitive) | `JOINIT_ACCESS_TOKEN` | ",
		"| `base_url` (string) | `JOINIT_BASE_URL` | ",
		"| `max_retry_wait` (string) |  | ",
		"| `max_concurrent_requests` (number) |  | ",
		"| `endpoint_paths` (map of string) |  | ",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("the settings table has no row starting %q:\n%s", want, table)
		}
	}
	if n := strings.Count(table, "\n") - 2; n != len(providerSettings) {
		t.Errorf("the settings table has %d rows, want one per argument:\n%s", n, table)
	}
	env := environmentTable()
	for _, s := range providerSettings {
		if s.env != "" && !strings.Contains(env, "| `"+s.env+"` | `"+s.name+"`") {
			t.Errorf("the environment table has no row of %s:\n%s", s.env, env)
		}
	}
}

// Every setting the client's errors name is declared, so settingName words
// each as the user configures it.
func TestEverySettingTheClientNamesIsDeclared(t *testing.T) {
	t.Parallel()
	for _, s := range []client.Setting{client.SettingBaseURL, client.SettingToken, client.SettingOrganizationID, client.SettingMaxConcurrency,
		client.SettingMaxRetries, client.SettingMaxRetryWait, client.SettingTimeout, client.SettingPath("groups")} {
		if got := settingName(s); strings.Contains(got, "Config.") {
			t.Errorf("%v is worded %q: no setting declares it", s, got)
		}
	}
	if got, want := settingName(client.SettingBaseURL), "base_url (or JOINIT_BASE_URL)"; got != want {
		t.Errorf("base URL: %q, want %q", got, want)
	}
	if got, want := settingName(client.SettingPath("groups")), "endpoint_paths.groups"; got != want {
		t.Errorf("groups path: %q, want %q", got, want)
	}
	if !slices.IsSortedFunc(providerSettings, func(a, b setting) int { return strings.Compare(a.name, b.name) }) {
		t.Error("providerSettings are not sorted by name")
	}
}

// settingsTable is README.md's table: a row per setting, nested ones too.
func settingsTable() string {
	env := map[string]string{}
	for _, s := range providerSettings {
		env[s.name] = s.env
	}
	var b strings.Builder
	b.WriteString("| setting | environment | description |\n|---|---|---|\n")
	writeSettingsRows(&b, "", providerSchema().Attributes, env)
	return b.String()
}

func writeSettingsRows(b *strings.Builder, prefix string, attrs map[string]schema.Attribute, env map[string]string) {
	names := make([]string, 0, len(attrs))
	for name := range attrs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		a := attrs[name]
		kind := settingKind(a)
		if a.IsSensitive() {
			kind += ", sensitive"
		}
		variable := ""
		if e := env[prefix+name]; e != "" {
			variable = "`" + e + "`"
		}
		desc := strings.ReplaceAll(a.GetDescription(), "|", `\|`)
		fmt.Fprintf(b, "| `%s%s` (%s) | %s | %s |\n", prefix, name, kind, variable, desc)
		if n, ok := a.(schema.SingleNestedAttribute); ok {
			writeSettingsRows(b, prefix+name+".", n.Attributes, nil)
		}
	}
}

// environmentTable is docs/index.md's table of environment variables.
func environmentTable() string {
	var b strings.Builder
	b.WriteString("| Variable | Used for |\n|---|---|\n")
	for _, s := range providerSettings {
		if s.env != "" {
			fmt.Fprintf(&b, "| `%s` | `%s`, when the attribute is not set. |\n", s.env, s.name)
		}
	}
	b.WriteString("| `TF_LOG`, `TF_LOG_PROVIDER` | Log level of Terraform and of providers (see [Logging](#logging)). |\n")
	return b.String()
}

func settingKind(a schema.Attribute) string {
	switch a.(type) {
	case schema.StringAttribute:
		return "string"
	case schema.NumberAttribute:
		return "number"
	case schema.MapAttribute:
		return "map of string"
	case schema.BoolAttribute:
		return "bool"
	case schema.SingleNestedAttribute:
		return "object"
	default:
		return strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", a), "schema."), "Attribute")
	}
}

// replaceBetween returns text with what lies between the markers replaced
// by table.
func replaceBetween(text, begin, end, table string) (string, error) {
	start := strings.Index(text, begin)
	stop := strings.Index(text, end)
	if start < 0 || stop < start {
		return "", fmt.Errorf("the file needs the lines %q and %q around the generated table", begin, end)
	}
	return text[:start+len(begin)] + "\n" + table + text[stop:], nil
}

// The endpoint_paths description names the endpoints as prose, however
// many a new apispec row makes them.
func TestAndList(t *testing.T) {
	t.Parallel()
	for want, names := range map[string][]string{"": nil, "a": {"a"}, "a and b": {"a", "b"}, "a, b and c": {"a", "b", "c"}} {
		if got := andList(names); got != want {
			t.Errorf("andList(%q) = %q, want %q", names, got, want)
		}
	}
}

// describedPart is one described part of the served schema: a schema
// (provider or data source), a block or an attribute.
type describedPart struct {
	where, desc string
	kind        tfprotov6.StringKind
	attribute   bool
}

// servedSchemaParts walks the schema the provider serves, as Terraform
// gets it, and returns every part that carries a description.
func servedSchemaParts(t *testing.T) []describedPart {
	t.Helper()
	resp, err := testServer(context.Background(), nil).GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	schemas := map[string]*tfprotov6.Schema{"provider": resp.Provider}
	for name, s := range resp.DataSourceSchemas {
		schemas[name] = s
	}
	var parts []describedPart
	var walk func(where string, b *tfprotov6.SchemaBlock)
	var walkAttrs func(where string, attrs []*tfprotov6.SchemaAttribute)
	walkAttrs = func(where string, attrs []*tfprotov6.SchemaAttribute) {
		for _, a := range attrs {
			parts = append(parts, describedPart{where + "." + a.Name, a.Description, a.DescriptionKind, true})
			if a.NestedType != nil {
				walkAttrs(where+"."+a.Name, a.NestedType.Attributes)
			}
		}
	}
	walk = func(where string, b *tfprotov6.SchemaBlock) {
		parts = append(parts, describedPart{where, b.Description, b.DescriptionKind, false})
		walkAttrs(where, b.Attributes)
		for _, nb := range b.BlockTypes {
			walk(where+"."+nb.TypeName, nb.Block)
		}
	}
	for name, s := range schemas {
		walk(name, s.Block)
	}
	return parts
}

// Every description that holds Markdown (a backtick) is served as
// Markdown, so editors render it instead of showing raw backticks; the
// others stay plain. (terraform providers schema -json showed 71 such
// descriptions as "plain".)
func TestMarkdownDescriptionsAreMarkdown(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, p := range servedSchemaParts(t) {
		if !p.attribute {
			continue
		}
		if md := strings.Contains(p.desc, "`"); md != (p.kind == tfprotov6.StringKindMarkdown) {
			t.Errorf("%s: kind %v for %q", p.where, p.kind, p.desc)
		} else if md {
			checked++
		}
	}
	if checked < 50 {
		t.Fatalf("only %d Markdown descriptions checked: the walk misses attributes", checked)
	}
}

// No part of the served schema is undescribed: the registry page and
// editors show a bare name otherwise (the timeouts blocks were).
func TestNoDescriptionIsEmpty(t *testing.T) {
	t.Parallel()
	parts := servedSchemaParts(t)
	for _, p := range parts {
		if strings.TrimSpace(p.desc) == "" {
			t.Errorf("%s has no description", p.where)
		}
	}
	if len(parts) < 90 {
		t.Fatalf("only %d parts walked: the walk misses some", len(parts))
	}
}
