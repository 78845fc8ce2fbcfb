package provider

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// demoData is the organization `joinit-sandbox` serves by default (seed
// 1, the demo numbers of records): what a person trying an example starts.
func demoData() sandbox.Options {
	opts := sandbox.Options{Seed: 1, Records: map[string]int{}}
	for _, name := range apispec.Names() {
		opts.Records[name], _ = sandbox.DemoRecords(name)
	}
	return opts
}

// The joinit_membership example plans as it is pasted, against the demo
// sandbox: its precondition holds and its lookups find what it says they
// find. (It named ana@example.com, whom the sandbox does not hold, and
// failed on its own precondition.)
func TestAccExample_membershipPlansAgainstTheDemoSandbox(t *testing.T) {
	t.Parallel()
	example, err := os.ReadFile("../../examples/data-sources/joinit_membership/data-source.tf")
	if err != nil {
		t.Fatal(err)
	}
	_, url := sandbox.StartForTest(t, demoData())
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), `terraform {
  required_providers {
    joinit = { source = "joinit-community/joinit" }
  }
}
`+providerBlock(url)+string(example))
	tf := newCLITerraform(t, dir, nil) // dev_overrides: no init
	if _, err := tf.Plan(context.Background()); err != nil {
		t.Fatalf("the example does not plan: %v\n%s", err, tf.output())
	}
	out := strings.Join(strings.Fields(tf.output()), " ")
	for _, want := range []string{`on_call_not_active = [ + "bo@example.com", ]`, `"nadia.okafor203@example.com" = "Student"`, `external_member_status = "active"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
}
