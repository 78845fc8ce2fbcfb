package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

func TestFilterMemberships(t *testing.T) {
	t.Parallel()
	m := func(id string, typ, name *string) client.Membership {
		return client.Membership{ID: &id, MembershipType: typ, MembershipName: name}
	}
	s := func(v string) *string { return &v }
	recs := []client.Membership{m("1", s("t1"), s("Gold")), m("2", s("t2"), s("Silver")), m("3", nil, nil), m("4", s("t1"), s("Bronze")), m("5", s("t3"), s("Gold"))}
	unset := newStringFilter("", "", stringsValue{})
	cases := []struct {
		name         string
		types, names stringFilter
		want         []string
	}{
		{"no filter", unset, unset, []string{"1", "2", "3", "4", "5"}},
		{"types", newStringFilter("f", "field", stringsValue{values: ptrs("t1", "t3"), set: true}), unset, []string{"1", "4", "5"}},
		{"names", unset, newStringFilter("f", "field", stringsValue{values: ptrs("Gold"), set: true}), []string{"1", "5"}},
		{"both must match", newStringFilter("f", "field", stringsValue{values: ptrs("t1"), set: true}), newStringFilter("f", "field", stringsValue{values: ptrs("Gold", "Silver"), set: true}), []string{"1"}},
		{"none", newStringFilter("f", "field", stringsValue{values: ptrs("nope"), set: true}), unset, nil},
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

func TestOptionalStrings(t *testing.T) {
	t.Parallel()
	list := tftypes.List{ElementType: tftypes.String}
	args := arguments{attrs: map[string]tftypes.Value{
		"set":          tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, "b"), tftypes.NewValue(tftypes.String, "a")}),
		"null":         tftypes.NewValue(list, nil),
		"unknown":      tftypes.NewValue(list, tftypes.UnknownValue),
		"unknown elem": tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}),
		"null elem":    tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, nil)}),
	}}
	if got, err := args.stringsValue("set"); err != nil || !got.set || len(got.values) != 2 || *got.values[0] != "b" || *got.values[1] != "a" {
		t.Errorf("set: %v %v", got, err)
	}
	for _, name := range []string{"null", "absent"} {
		if got, err := args.stringsValue(name); err != nil || got.set || got.values != nil {
			t.Errorf("%s: %v %v", name, got, err)
		}
	}
	for _, name := range []string{"unknown", "unknown elem", "null elem"} {
		var bad *argError
		if _, err := args.stringsValue(name); !errors.As(err, &bad) || bad.attr != name {
			t.Errorf("%s: error %v, want an argError", name, err)
		}
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
	types := newStringFilter("membership_types", "membership_type", stringsValue{values: ptrs("t2", "T1"), set: true})
	names := newStringFilter("membership_names", "membership_name", stringsValue{values: ptrs("Silver", "gold"), set: true})
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
