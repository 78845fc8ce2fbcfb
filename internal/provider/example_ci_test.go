package provider

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-exec/tfexec"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The published CI example plans against the sandbox as its workflow runs
// it (the organization guard and the floor from the environment): its plan
// log holds counts and a hash, never a member's address; and a floor above
// the organization stops the plan.
func TestAccExample_ciPlan(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	s, url := startSandbox(t, sandbox.Options{Seed: 62, Memberships: 40})
	status := 100
	var emails []string
	for _, raw := range s.MembershipsJSON(&status) {
		var m struct{ Email *string }
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m.Email != nil {
			emails = append(emails, *m.Email)
		}
	}
	active := len(s.MembershipsJSON(&status))
	if len(emails) == 0 {
		t.Fatal("the sandbox has no active member with an address")
	}
	tf := newCLITerraform(t, copyExample(t, "use-cases/ci-plan"), map[string]string{
		envBaseURL: url, envAccessToken: sandbox.DefaultToken, envOrganization: s.OrganizationID(),
	})
	ctx := context.Background()
	if _, err := tf.Plan(ctx, tfexec.Out("plan"), tfexec.Var("min_active_members=1")); err != nil {
		t.Fatalf("terraform plan: %v\n%s", err, tf.output())
	}
	log := tf.output()
	show, err := tf.ShowPlanFileRaw(ctx, "plan")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range emails {
		if strings.Contains(log, e) || strings.Contains(show, e) {
			t.Fatalf("the plan log holds the address %q", e)
		}
	}
	plan, err := tf.ShowPlanFile(ctx, "plan")
	if err != nil {
		t.Fatal(err)
	}
	count, _ := json.Marshal(plan.PlannedValues.Outputs["active_member_count"].Value)
	if string(count) != strconv.Itoa(active) {
		t.Fatalf("active_member_count = %s, want %d", count, active)
	}
	sorted := sortedUnique(emails)
	sum := sha256.Sum256([]byte(strings.Join(sorted, "\n")))
	if got := plan.PlannedValues.Outputs["active_member_emails_sha256"].Value; got != hex.EncodeToString(sum[:]) {
		t.Fatalf("active_member_emails_sha256 = %v, want the hash of the %d sorted addresses", got, len(sorted))
	}

	_, err = tf.Plan(ctx, tfexec.Var("min_active_members="+strconv.Itoa(active+1)))
	out := strings.Join(strings.Fields(tf.output()), " ")
	if err == nil || !strings.Contains(out, "fewer than min_active_members") {
		t.Fatalf("a floor above the organization did not stop the plan: %v\n%s", err, out)
	}
}

// sortedUnique sorts values and drops repeats, as the emails attribute is.
func sortedUnique(values []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, v := range values {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}
