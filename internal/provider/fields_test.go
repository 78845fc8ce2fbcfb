package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"regexp"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// Each attribute chosen alone reads the JSON members it needs: its value
// in a record read with only that field equals its value in the full
// record, for every registered data source with `fields`. A wrong JSON name
// for an attribute (id is _id, status_name reads status) fails here.
func TestEachFieldAloneReadsAsTheFullRecord(t *testing.T) {
	t.Parallel()
	for _, d := range registeredTests() {
		if d.def.fields == nil {
			continue
		}
		t.Run(d.def.name, func(t *testing.T) {
			t.Parallel()
			sb := sandbox.New(sandbox.Options{Seed: 17, Records: sandboxRecords(30)})
			url := fixtureAPI(t, map[string][]string{d.def.endpoint: append(slices.Clone(d.edge), recordTexts(sb.RecordsJSON(d.def.endpoint))...)})
			c := testClient(t, client.Config{BaseURL: url, Token: sandbox.DefaultToken})
			raw := map[string]tftypes.Value{"include_raw_json": tftypes.NewValue(tftypes.Bool, true)}
			full := readRecords(t, c, d.def, fullRecordsAttr(t, d.def), raw)
			for _, a := range d.def.fields.attrs {
				raw["fields"] = stringList(a.Name())
				got := readRecords(t, c, d.def, "records", raw)
				sameAttr(t, a.Name(), full, got)
			}
		})
	}
}

// fullRecordsAttr is the name of the attribute holding the full records:
// the list of objects of every attribute `fields` chooses from.
func fullRecordsAttr(t *testing.T, def *dataSourceDef) string {
	t.Helper()
	want := tftypes.List{ElementType: tfattr.ObjectType(def.fields.attrs)}
	for name, typ := range def.stateType.AttributeTypes {
		if typ.Equal(want) {
			return name
		}
	}
	t.Fatalf("joinit_%s: no attribute is a list of its %ss", def.name, def.fields.what)
	return ""
}

// readRecords reads def with args and returns the elements of its list
// attribute name, each as its attributes.
func readRecords(t *testing.T, c *client.Client, def *dataSourceDef, name string, args map[string]tftypes.Value) []map[string]tftypes.Value {
	t.Helper()
	state, _, err := def.readChecked(context.Background(), c, configOf(def, args), maxResultBytes)
	if err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	var attrs map[string]tftypes.Value
	var elems []tftypes.Value
	if err := tfattr.ReferenceValue(def.attrs, state).As(&attrs); err != nil {
		t.Fatal(err)
	}
	if err := attrs[name].As(&elems); err != nil {
		t.Fatal(err)
	}
	out := make([]map[string]tftypes.Value, len(elems))
	for i, e := range elems {
		if err := e.As(&out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// sameAttr compares attribute name of each record, and says when no record
// had a value for it (the comparison would prove nothing).
func sameAttr(t *testing.T, name string, full, got []map[string]tftypes.Value) {
	t.Helper()
	if len(got) != len(full) {
		t.Fatalf("%s: %d records, full read %d", name, len(got), len(full))
	}
	valued := 0
	for i := range full {
		want, have := full[i][name], got[i][name]
		if !have.Equal(want) {
			t.Fatalf("%s of record %d: %s, full record %s", name, i, have, want)
		}
		if !want.IsNull() {
			valued++
		}
	}
	if valued == 0 {
		t.Errorf("%s: no record has a value", name)
	}
}

func TestChooseFields(t *testing.T) {
	t.Parallel()
	if chosen, err := membershipFields.choose(nil, false); chosen != nil || err != nil {
		t.Fatalf("unset fields: %v, %v", chosen, err)
	}
	chosen, err := membershipFields.choose(ptrs("status", "email"), true)
	if err != nil || len(chosen) != 2 || chosen[0].Name() != "status" || chosen[1].Name() != "email" {
		t.Fatalf("choose: %v, %v", chosen, err)
	}
	for _, bad := range [][]string{{"email", "phone"}, {"email", "email"}, {}} {
		if _, err := membershipFields.choose(ptrs(bad...), true); err == nil {
			t.Errorf("fields %q accepted", bad)
		}
	}
	_, err = membershipFields.choose(ptrs("phone"), true)
	if err == nil || !strings.Contains(err.Error(), "Valid names: id, organization_id") || !strings.Contains(err.Error(), "custom_answers, raw_json") {
		t.Errorf("an unknown name should list the valid ones: %v", err)
	}
	_, err = membershipFields.choose(ptrs("Email"), true)
	if err == nil || !strings.Contains(err.Error(), `"Email" is not an attribute of a membership. Did you mean "email"?`) {
		t.Errorf("a near name should be suggested: %v", err)
	}
	if got := membershipFields.jsonMembers(ptrAttrs("id", "status_name", "raw_json", "email")); !equalStrings(got, []string{"_id", "status", "email"}) {
		t.Errorf("json members %v", got)
	}
}

func ptrAttrs(names ...string) []tfattr.Attr {
	chosen, err := membershipFields.choose(ptrs(names...), true)
	if err != nil {
		panic(err)
	}
	return chosen
}

// The lean read and a read with fields decode only what they return: a
// record whose other fields do not even have their documented types reads
// fine, where the full read refuses it.
func TestLeanAndChosenReadsDecodeOnlyWhatTheyReturn(t *testing.T) {
	t.Parallel()
	odd := `{"_id":"a","email":"a@example.com","membership_name":"Gold","display_name":5,"profile":"not an object","status":"active"}`
	url := fixtureAPI(t, map[string][]string{apispec.EndpointMemberships: {odd}})
	c := testClient(t, client.Config{BaseURL: url, Token: sandbox.DefaultToken})
	read := func(set map[string]tftypes.Value) error {
		cfg := map[string]tftypes.Value{}
		for name, typ := range membershipsDef.stateType.AttributeTypes {
			cfg[name] = tftypes.NewValue(typ, nil)
		}
		for name, v := range set {
			cfg[name] = v
		}
		_, _, err := membershipsDef.readChecked(context.Background(), c, tftypes.NewValue(membershipsDef.stateType, cfg), maxResultBytes)
		return err
	}
	strs := func(values ...string) tftypes.Value {
		elems := make([]tftypes.Value, len(values))
		for i, v := range values {
			elems[i] = tftypes.NewValue(tftypes.String, v)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
	}
	if err := read(nil); err == nil {
		t.Fatal("the full read should refuse a display_name that is a number")
	}
	if err := read(map[string]tftypes.Value{"include_records": tftypes.NewValue(tftypes.Bool, false)}); err != nil {
		t.Errorf("lean read: %v", err)
	}
	if err := read(map[string]tftypes.Value{"fields": strs("membership_name", "email", "id")}); err != nil {
		t.Errorf("fields read: %v", err)
	}
}

func listOf(values []any) knownvalue.Check {
	checks := make([]knownvalue.Check, len(values))
	for i, v := range values {
		checks[i] = orNull(v)
	}
	return knownvalue.ListExact(checks)
}

func orNull(v any) knownvalue.Check {
	if s, ok := v.(string); ok {
		return knownvalue.StringExact(s)
	}
	return knownvalue.Null()
}

// Bad fields are refused at validation, naming what is valid.
func TestAccFields_invalid(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 13, Memberships: 1})
	step := func(config, want string) resource.TestStep {
		return resource.TestStep{Config: providerBlock(url) + config, ExpectError: regexp.MustCompile(want)}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			step(`data "joinit_memberships" "x" { fields = ["email", "phone"] }`,
				`(?s)Invalid fields.*"phone" is not an attribute of a\s+membership.*Valid\s+names:.*id,.*email,.*membership_name,.*status_name,.*profile,.*custom_answers,.*raw_json\.`),
			step(`data "joinit_memberships" "x" { fields = ["emial"] }`, `(?s)"emial" is not an attribute of a\s+membership\.\s+Did\s+you\s+mean\s+"email"\?`),
			step(`data "joinit_payments" "x" { fields = ["total", "email"] }`, `(?s)"email" is not an attribute of a\s+payment.*Valid\s+names:.*membership_ids,.*currency,.*total`),
			step(`data "joinit_memberships" "x" { fields = ["email", "email"] }`, `(?s)Duplicate List Value.*duplicate values of: "email"`),
			step(`data "joinit_memberships" "x" { fields = [] }`, `(?s)fields.*at least 1`),
			step(`data "joinit_memberships" "x" {
  fields          = ["email"]
  include_records = false
}`, `(?s)Invalid fields.*include_records = false reads\s+none`),
		},
	})
}

// fields unknown at plan (from a resource not yet created): Terraform reads
// at apply, once the value is known, and records has the chosen attributes.
func TestAccFields_unknownAtPlan(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 14, Memberships: 12})
	first := wantMembership(t, sb.MembershipsJSON(nil)[0], false)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "terraform_data" "fields" {
  input = ["status_name", "id"]
}
data "joinit_memberships" "m" {
  fields = terraform_data.fields.output
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue("data.joinit_memberships.m", tfjsonpath.New("records")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("records"), knownvalue.ListSizeExact(12)),
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("records").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id": knownvalue.StringExact(fmt.Sprint(first["id"])), "status_name": knownvalue.StringExact(fmt.Sprint(first["status_name"])),
				})),
			},
		}},
	})
}

// fields unknown at plan next to include_records = false is not refused at
// validation: it may turn out null, and then the lean read is valid.
func TestAccFields_unknownAtPlanWithLeanRead(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 15, Memberships: 12})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "terraform_data" "fields" {
  input = { v = null }
}
data "joinit_memberships" "m" {
  include_records = false
  fields          = terraform_data.fields.output.v
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("ids"), knownvalue.ListSizeExact(12)),
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("records"), knownvalue.Null()),
			},
		}},
	})
}
