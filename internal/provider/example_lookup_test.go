package provider

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-exec/tfexec"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The published joinit_membership example plans on the real terraform,
// for_each and all: the people on call who are active members are found,
// a non-member is listed as not active, and the precondition on found
// stops the plan, naming the person, when the contractor is no member.
func TestAccExample_membershipLookups(t *testing.T) {
	if testing.Short() || !acceptance() {
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	s, url := sandbox.StartForTest(t, sandbox.Options{Seed: 62, Memberships: 80})
	tf := exampleTerraform(t, "data-sources/joinit_membership", s, url)
	writeFile(t, filepath.Join(tf.WorkingDir(), "terraform.tf"),
		"terraform {\n  required_providers {\n    joinit = { source = \""+RegistryAddress+"\" }\n  }\n}\n")
	active := rawRecords(s.MembershipsJSON(new(100)))
	member := uniqueBy(t, active, "email", true)
	email := textOf(t, member, "email")
	external := uniqueBy(t, rawRecords(s.MembershipsJSON(nil)), "external_id", false)
	vars := func(contractor string) []tfexec.PlanOption {
		return []tfexec.PlanOption{
			tfexec.Var("contractor_email=" + strings.ToUpper(email)),
			tfexec.Var(`on_call_emails=["` + email + `", "` + contractor + `"]`),
			tfexec.Var("member_external_id=" + textOf(t, external, "external_id")),
		}
	}
	ctx := context.Background()
	if _, err := tf.Plan(ctx, append(vars("nobody@example.invalid"), tfexec.Out("plan"))...); err != nil {
		t.Fatalf("terraform plan: %v\n%s", err, tf.output())
	}
	if got := plannedOutput(t, tf, "on_call_not_active"); got != `["nobody@example.invalid"]` {
		t.Errorf("on_call_not_active = %s", got)
	}
	if got, want := plannedOutput(t, tf, "on_call_membership_names"), `{"`+email+`":"`+textOf(t, member, "membership_name")+`"}`; got != want {
		t.Errorf("on_call_membership_names = %s, want %s", got, want)
	}
	tf.output()

	// The contractor is no active member: the precondition stops the plan.
	opts := vars("nobody@example.invalid")
	opts[0] = tfexec.Var("contractor_email=nobody@example.invalid")
	_, err := tf.Plan(ctx, opts...)
	out := strings.Join(strings.Fields(tf.output()), " ")
	if err == nil || !strings.Contains(out, "Resource precondition failed") || !strings.Contains(out, "nobody@example.invalid holds no active membership") {
		t.Errorf("the plan for a contractor who is no member: %v\n%s", err, out)
	}
}
