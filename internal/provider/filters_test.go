package provider

import (
	"fmt"
	"strings"
	"testing"

	"encoding/json"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestFilterMemberships(t *testing.T) {
	t.Parallel()
	m := func(id string, typ, name *string) client.Membership {
		return client.Membership{ID: &id, MembershipType: typ, MembershipName: name}
	}
	s := func(v string) *string { return &v }
	recs := []client.Membership{m("1", s("t1"), s("Gold")), m("2", s("t2"), s("Silver")), m("3", nil, nil), m("4", s("t1"), s("Bronze")), m("5", s("t3"), s("Gold"))}
	unset := newStringFilter("", "", tfattr.Strings{})
	cases := []struct {
		name         string
		types, names stringFilter
		want         []string
	}{
		{"no filter", unset, unset, []string{"1", "2", "3", "4", "5"}},
		{"types", newStringFilter("f", "field", tfattr.Strings{Values: ptrs("t1", "t3"), Set: true}), unset, []string{"1", "4", "5"}},
		{"names", unset, newStringFilter("f", "field", tfattr.Strings{Values: ptrs("Gold"), Set: true}), []string{"1", "5"}},
		{"both must match", newStringFilter("f", "field", tfattr.Strings{Values: ptrs("t1"), Set: true}), newStringFilter("f", "field", tfattr.Strings{Values: ptrs("Gold", "Silver"), Set: true}), []string{"1"}},
		{"none", newStringFilter("f", "field", tfattr.Strings{Values: ptrs("nope"), Set: true}), unset, nil},
	}
	for _, tc := range cases {
		got, _ := filterByType(recs, tc.types, tc.names, func(m *client.Membership) (*string, *string) { return m.MembershipType, m.MembershipName })
		var ids []string
		for _, r := range got {
			ids = append(ids, *r.ID)
		}
		if !equalStrings(ids, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, ids, tc.want)
		}
	}
	if *recs[1].ID != "2" || len(recs) != 5 {
		t.Fatal("filtering changed the records it was given (the client's cache shares them)")
	}
}

// Each filter value is looked for on its own, whatever the other filter
// keeps: a value some record has never warns, even when the two filters
// together keep none; null values are not offered as what was meant.
func TestFilterWarningsWithBothFilters(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	m := func(id string, typ, name *string) client.Membership {
		return client.Membership{ID: &id, MembershipType: typ, MembershipName: name}
	}
	recs := []client.Membership{m("1", s("t1"), s("Gold")), m("2", s("t2"), nil), m("3", nil, s("Silver"))}
	typeOf := func(m *client.Membership) (*string, *string) { return m.MembershipType, m.MembershipName }
	types := newStringFilter("membership_types", "membership_type", tfattr.Strings{Values: ptrs("t2", "T1"), Set: true})
	names := newStringFilter("membership_names", "membership_name", tfattr.Strings{Values: ptrs("Silver", "gold"), Set: true})
	got, warns := filterByType(recs, types, names, typeOf)
	if len(got) != 0 {
		t.Fatalf("kept %d records; t2 has no name and Silver no type, so none", len(got))
	}
	var said []string
	for _, w := range warns {
		said = append(said, w.attr+": "+w.summary+" / "+w.detail)
	}
	want := []string{
		`membership_types: membership_types value "T1" matches no membership / None of the 3 memberships read has membership_type "T1", so this value keeps none (values are compared exactly, case included). Did you mean "t1"?`,
		`membership_names: membership_names value "gold" matches no membership / None of the 3 memberships read has membership_name "gold", so this value keeps none (values are compared exactly, case included). Did you mean "Gold"?`,
	}
	if !equalStrings(said, want) {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(said, "\n"), strings.Join(want, "\n"))
	}
}

// A membership name given as a type (or an id as a name) says which
// argument takes it: the likeliest mistake after a typo.
func TestFilterWarningNamesTheOtherArgument(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	recs := []client.Membership{{MembershipType: s("5e62e40"), MembershipName: s("Corporate")}}
	typeOf := func(m *client.Membership) (*string, *string) { return m.MembershipType, m.MembershipName }
	for _, c := range []struct {
		types, names []string
		want         string
	}{
		{[]string{"Corporate"}, nil, `"Corporate" is a membership_name of the memberships read, not a membership_type: use membership_names = ["Corporate"].`},
		{nil, []string{"5e62e40"}, `"5e62e40" is a membership_type of the memberships read, not a membership_name: use membership_types = ["5e62e40"].`},
	} {
		types := newStringFilter("membership_types", "membership_type", tfattr.Strings{Values: ptrs(c.types...), Set: c.types != nil})
		names := newStringFilter("membership_names", "membership_name", tfattr.Strings{Values: ptrs(c.names...), Set: c.names != nil})
		_, warns := filterByType(recs, types, names, typeOf)
		if len(warns) != 1 || !strings.HasSuffix(warns[0].detail, c.want) {
			t.Errorf("types %v, names %v: %+v\nwant the detail to end %q", c.types, c.names, warns, c.want)
		}
	}
}

// The type filters keep the memberships whose membership_type and
// membership_name are in the sets, in memberships, records, ids and emails
// alike, whichever way the records are read.
func TestAccMemberships_typeAndNameFilters(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 12, Memberships: 260})
	all := rawRecords(sb.MembershipsJSON(nil))
	typeOf := func(r []byte) (typ, name string) {
		var m struct {
			Type string `json:"membership_type"`
			Name string `json:"membership_name"`
		}
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		return m.Type, m.Name
	}
	// Two types by id, and by name the name of the first of them and of
	// a third type: together they keep only the first type.
	var types, names []string
	for _, r := range all {
		typ, name := typeOf(r)
		if len(types) < 2 && (len(types) == 0 || types[0] != typ) {
			types, names = append(types, typ), append(names, name)
		}
		if len(types) == 2 && name != names[0] && name != names[1] && len(names) == 2 {
			names = append(names, name)
		}
	}
	if len(names) != 3 {
		t.Fatalf("the data set should hold three membership types, found %v", names)
	}
	var byType, byName, both [][]byte
	for _, r := range all {
		typ, name := typeOf(r)
		inTypes, inNames := typ == types[0] || typ == types[1], name == names[0] || name == names[2]
		if inTypes {
			byType = append(byType, r)
		}
		if inNames {
			byName = append(byName, r)
		}
		if inTypes && inNames {
			both = append(both, r)
		}
	}
	if len(both) == 0 || len(both) == len(byType) || len(byType) == len(all) || len(byName) == len(all) {
		t.Fatalf("the filters should each drop records: %d by type, %d by name, %d both, of %d", len(byType), len(byName), len(both), len(all))
	}
	idsEmails := func(recs [][]byte) (knownvalue.Check, knownvalue.Check) {
		ids, emails := wantIDsAndEmails(t, recs)
		return listOf(ids), listOf(emails)
	}
	typeIDs, typeEmails := idsEmails(byType)
	nameIDs, nameEmails := idsEmails(byName)
	bothIDs, bothEmails := idsEmails(both)
	bothRecords := make([]knownvalue.Check, len(both))
	for i, r := range both {
		w := wantMembership(t, r, false)
		bothRecords[i] = knownvalue.ObjectExact(map[string]knownvalue.Check{
			"email": orNull(w["email"]), "membership_name": knownvalue.StringExact(fmt.Sprint(w["membership_name"])),
		})
	}
	config := providerBlock(url) + `
data "joinit_memberships" "by_type" {
  membership_types = ["` + types[0] + `", "` + types[1] + `"]
  page_size        = 50
}
data "joinit_memberships" "by_name_lean" {
  membership_names = ["` + names[0] + `", "` + names[2] + `"]
  include_records  = false
}
data "joinit_memberships" "both_fields" {
  membership_types = ["` + types[0] + `", "` + types[1] + `"]
  membership_names = ["` + names[0] + `", "` + names[2] + `"]
  fields           = ["membership_name", "email"]
}
`
	at := func(name, attr string) (string, tfjsonpath.Path) {
		return "data.joinit_memberships." + name, tfjsonpath.New(attr)
	}
	check := func(name, attr string, want knownvalue.Check) statecheck.StateCheck {
		a, p := at(name, attr)
		return statecheck.ExpectKnownValue(a, p, want)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				check("by_type", "memberships", knownvalue.ListSizeExact(len(byType))),
				check("by_type", "ids", typeIDs),
				check("by_type", "emails", typeEmails),
				check("by_name_lean", "memberships", knownvalue.Null()),
				check("by_name_lean", "ids", nameIDs),
				check("by_name_lean", "emails", nameEmails),
				check("both_fields", "records", knownvalue.ListExact(bothRecords)),
				check("both_fields", "ids", bothIDs),
				check("both_fields", "emails", bothEmails),
				check("both_fields", "membership_names", knownvalue.SetExact([]knownvalue.Check{
					knownvalue.StringExact(names[0]), knownvalue.StringExact(names[2])})),
			},
		}},
	})
}
