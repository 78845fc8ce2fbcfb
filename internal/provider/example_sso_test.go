package provider

import (
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-exec/tfexec"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The published SSO example, modules and all, plans against the sandbox
// on the real terraform, and its postcondition stops the plan when the
// active list is below the floor: a floor above the organization, or a
// filter typo that matches nobody (which also warns, naming the fix).
func TestAccExample_ssoGroupSync(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 61, Memberships: 80})
	tf := exampleTerraform(t, "use-cases/sso-group-sync", s, url)
	active := len(s.MembershipsJSON(new(100)))
	if active == 0 {
		t.Fatal("the sandbox has no active memberships to sync")
	}
	ctx := context.Background()
	if err := tf.Get(ctx); err != nil {
		t.Fatalf("terraform get: %v\n%s", err, tf.output())
	}

	if _, err := tf.Plan(ctx, tfexec.Out("plan")); err != nil {
		t.Fatalf("terraform plan: %v\n%s", err, tf.output())
	}
	if got := plannedOutput(t, tf, "active_membership_count"); got != strconv.Itoa(active) {
		t.Fatalf("active_membership_count = %s, want %d", got, active)
	}
	tf.output()

	for _, tc := range []struct {
		name string
		vars []tfexec.PlanOption
		want []string
	}{
		{"floor above the organization", []tfexec.PlanOption{tfexec.Var("min_active_members=" + strconv.Itoa(active+1))},
			[]string{"Resource postcondition failed", "Read " + strconv.Itoa(active) + " active memberships, fewer than min_active_members"}},
		{"a filter typo", []tfexec.PlanOption{tfexec.Var(`membership_names=["corporate"]`)},
			[]string{"Resource postcondition failed", "Read 0 active memberships", `Did you mean "Corporate"?`}},
	} {
		_, err := tf.Plan(ctx, tc.vars...)
		out := strings.Join(strings.Fields(tf.output()), " ") // terraform wraps long lines
		if err == nil {
			t.Errorf("%s: the plan succeeded:\n%s", tc.name, out)
			continue
		}
		for _, want := range tc.want {
			if !strings.Contains(out, want) {
				t.Errorf("%s: the plan's output does not say %q:\n%s", tc.name, want, out)
			}
		}
	}
}

// exampleTerraform copies a published example to a directory of its own
// and readies Terraform there against the sandbox s at url, whose address,
// token and organization it takes from the environment, as the examples'
// workflows give them.
func exampleTerraform(t *testing.T, example string, s *sandbox.Server, url string) *cliTerraform {
	t.Helper()
	return newCLITerraform(t, copyExample(t, example), map[string]string{
		envBaseURL: url, envAccessToken: sandbox.DefaultToken, envOrganization: s.OrganizationID(),
	})
}

// plannedOutput is a root output of the plan saved as "plan", as JSON
// text.
func plannedOutput(t *testing.T, tf *cliTerraform, name string) string {
	t.Helper()
	plan, err := tf.ShowPlanFile(context.Background(), "plan")
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(plan.PlannedValues.Outputs[name].Value)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// acceptance reports whether acceptance tests were asked for.
func acceptance() bool { return os.Getenv("TF_ACC") != "" }
