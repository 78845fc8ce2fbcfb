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
	s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 62, Memberships: 40})
	tf := exampleTerraform(t, "use-cases/ci-plan", s, url)
	active := s.MembershipsJSON(new(100))
	var emails []string
	for _, raw := range active {
		var m struct{ Email *string }
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m.Email != nil {
			emails = append(emails, *m.Email)
		}
	}
	if len(emails) == 0 {
		t.Fatal("the sandbox has no active member with an address")
	}
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
	if got := plannedOutput(t, tf, "active_member_count"); got != strconv.Itoa(len(active)) {
		t.Fatalf("active_member_count = %s, want %d", got, len(active))
	}
	// The emails attribute's addresses: distinct, sorted.
	slices.Sort(emails)
	emails = slices.Compact(emails)
	sum := sha256.Sum256([]byte(strings.Join(emails, "\n")))
	if got := plannedOutput(t, tf, "active_member_emails_sha256"); got != strconv.Quote(hex.EncodeToString(sum[:])) {
		t.Fatalf("active_member_emails_sha256 = %s, want the hash of the %d sorted addresses", got, len(emails))
	}

	_, err = tf.Plan(ctx, tfexec.Var("min_active_members="+strconv.Itoa(len(active)+1)))
	out := strings.Join(strings.Fields(tf.output()), " ")
	if err == nil || !strings.Contains(out, "fewer than min_active_members") {
		t.Fatalf("a floor above the organization did not stop the plan: %v\n%s", err, out)
	}
}
