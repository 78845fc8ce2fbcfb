package provider

import (
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
)

var updateReadme = flag.Bool("update-readme", false, "rewrite README.md's settings table from the provider schema (make readme)")

const readmePath = "../../README.md"

// TestReadmeSettingsTable holds README.md's settings table equal to the one
// rendered from the provider schema.
func TestReadmeSettingsTable(t *testing.T) {
	b, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := replaceSettingsTable(string(b), settingsTable(providerSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if *updateReadme {
		if err := os.WriteFile(readmePath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != string(b) {
		t.Errorf("README.md's settings table differs from the provider schema: run `make readme` and commit README.md. Rendered table:\n%s",
			settingsTable(providerSchema()))
	}
}

// TestSettingsTableRowsFollowSchema: every argument, nested ones included,
// has a row, with its environment variable and sensitivity.
func TestSettingsTableRowsFollowSchema(t *testing.T) {
	table := settingsTable(providerSchema())
	for _, want := range []string{
		"| `access_token` (string, sensitive) | `JOINIT_ACCESS_TOKEN` | ",
		"| `base_url` (string) | `JOINIT_BASE_URL` | ",
		"| `max_retry_wait` (string) |  | ",
		"| `max_concurrent_requests` (number) |  | ",
		"| `endpoint_paths` (object) |  | ",
		"| `endpoint_paths.payments` (string) |  | ",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("the settings table has no row starting %q:\n%s", want, table)
		}
	}
	if n := strings.Count(table, "\n") - 2; n != len(providerSchema().Attributes)+len(apispec.Endpoints) {
		t.Errorf("the settings table has %d rows, want one per argument and per endpoint path:\n%s", n, table)
	}
}

// README.md's table of provider settings is rendered from providerSchema()
// between these markers, so that it cannot drift from the schema (and from
// docs/index.md, which tfplugindocs renders from the same descriptions).
// TestReadmeSettingsTable fails when it differs; `make readme` rewrites it.
const (
	readmeSettingsBegin = "<!-- settings:begin: generated from the provider schema by `make readme`; do not edit -->"
	readmeSettingsEnd   = "<!-- settings:end -->"
)

// envVarRe finds the environment variable an attribute's description names.
var envVarRe = regexp.MustCompile("`(JOINIT_[A-Z0-9_]+)`")

// settingsTable renders the provider's arguments as a Markdown table, nested
// attributes as parent.child, in name order.
func settingsTable(s schema.Schema) string {
	var b strings.Builder
	b.WriteString("| setting | environment | description |\n|---|---|---|\n")
	writeSettingsRows(&b, "", s.Attributes)
	return b.String()
}

func writeSettingsRows(b *strings.Builder, prefix string, attrs map[string]schema.Attribute) {
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
		env := ""
		if m := envVarRe.FindStringSubmatch(a.GetDescription()); m != nil {
			env = "`" + m[1] + "`"
		}
		desc := strings.ReplaceAll(a.GetDescription(), "|", `\|`)
		fmt.Fprintf(b, "| `%s%s` (%s) | %s | %s |\n", prefix, name, kind, env, desc)
		if n, ok := a.(schema.SingleNestedAttribute); ok {
			writeSettingsRows(b, prefix+name+".", n.Attributes)
		}
	}
}

func settingKind(a schema.Attribute) string {
	switch a.(type) {
	case schema.StringAttribute:
		return "string"
	case schema.Int64Attribute:
		return "number"
	case schema.BoolAttribute:
		return "bool"
	case schema.SingleNestedAttribute:
		return "object"
	default:
		return strings.TrimSuffix(strings.TrimPrefix(fmt.Sprintf("%T", a), "schema."), "Attribute")
	}
}

// replaceSettingsTable returns readme with the text between the markers
// replaced by table.
func replaceSettingsTable(readme, table string) (string, error) {
	start := strings.Index(readme, readmeSettingsBegin)
	end := strings.Index(readme, readmeSettingsEnd)
	if start < 0 || end < start {
		return "", fmt.Errorf("README.md needs the lines %q and %q around the settings table", readmeSettingsBegin, readmeSettingsEnd)
	}
	head := readme[:start+len(readmeSettingsBegin)]
	return head + "\n" + table + readme[end:], nil
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
