package provider

import (
	"flag"
	"os"
	"strings"
	"testing"
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
	if n := strings.Count(table, "\n") - 2; n != len(providerSchema().Attributes)+4 {
		t.Errorf("the settings table has %d rows, want one per argument and per endpoint path:\n%s", n, table)
	}
}
