package provider

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// The API filters memberships by status only: its filters by membership
// type have no documented parameter names. membership_types and
// membership_names are applied here, after the whole status-filtered list
// is read, so they save state and Terraform's time, not requests.

const filterNote = " Applied by the provider after the read: every page of the `status` filter's result is still fetched. " +
	"Values are compared exactly, case included (`\"corporate\"` does not match `\"Corporate\"`). A value that matches no membership read " +
	"gives a warning naming the value and the closest values present, since a typo here reads an empty list."

// The filter arguments, and the record attribute each compares.
const (
	argMembershipTypes = "membership_types"
	argMembershipNames = "membership_names"
)

func membershipTypesArg[S any](field func(*S) *tfattr.Strings) tfattr.Attr {
	return tfattr.StringSetArg(argMembershipTypes, "Only memberships whose `membership_type` (the type's identifier) is one of these. "+
		"Applies to `memberships`, `records`, `ids` and `emails` alike."+filterNote,
		field, setvalidator.SizeAtLeast(1))
}

func membershipNamesArg[S any](field func(*S) *tfattr.Strings) tfattr.Attr {
	return tfattr.StringSetArg(argMembershipNames, "Only memberships whose `membership_name` (the type's name) is one of these. "+
		"Applies to `memberships`, `records`, `ids` and `emails` alike. With `membership_types` too, a membership must match both."+filterNote,
		field, setvalidator.SizeAtLeast(1))
}

// typeFilters are the two filters as configured, of a read with that
// status filter.
func typeFilters(status *int64, typeValues, nameValues tfattr.Strings, clean func(string) string) (types, names stringFilter) {
	scope := readScope{status: status, clean: clean}
	types = newStringFilter(argMembershipTypes, "membership_type", typeValues)
	names = newStringFilter(argMembershipNames, "membership_name", nameValues)
	types.scope, names.scope = scope, scope
	return types, names
}

// readScope is what a filter's warnings say of the read: its status
// filter, and how to quote values the server sent (redacted of the token
// and cut, as all server text in a message is).
type readScope struct {
	status *int64
	clean  func(string) string // nil keeps values as they are
}

// of says which memberships were read: " (status = 100)", or "".
func (r readScope) of() string {
	if r.status == nil {
		return ""
	}
	return fmt.Sprintf(" (status = %d)", *r.status)
}

func (r readScope) cleaned(values []string) []string {
	if r.clean == nil {
		return values
	}
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = r.clean(v)
	}
	return out
}

// stringFilter is a set argument as configured; unset keeps everything.
type stringFilter struct {
	attr  string // the argument's name, for its warnings
	field string // the record attribute it compares, for its warnings
	scope readScope
	tfattr.Strings
	in map[string]bool
}

func newStringFilter(attr, field string, v tfattr.Strings) stringFilter {
	f := stringFilter{attr: attr, field: field, Strings: v, in: make(map[string]bool, len(v.Values))}
	for _, v := range v.Values {
		f.in[*v] = true
	}
	return f
}

// keeps reports whether a record's value passes; a null value passes only
// an unset filter.
func (f stringFilter) keeps(v *string) bool {
	return !f.Set || (v != nil && f.in[*v])
}

// filterByType returns the records both filters keep, in order, and a
// warning for each filter value that no record read has. A value that
// matches nothing is most often a typo ("corporate" for "Corporate"), and
// in an SSO sync a silently empty list revokes everyone's access. The
// records may be the client's cached slice, shared with other data
// sources of the run: it is never changed in place.
func filterByType[R any](recs []R, types, names stringFilter, typeOf func(*R) (typ, name *string)) ([]R, []readWarning) {
	if !types.Set && !names.Set {
		return recs, nil
	}
	out := make([]R, 0, len(recs)/2)
	seenTypes, seenNames := map[string]bool{}, map[string]bool{}
	for i := range recs {
		typ, name := typeOf(&recs[i])
		okType, okName := types.keeps(typ), names.keeps(name)
		if types.Set && okType {
			seenTypes[*typ] = true
		}
		if names.Set && okName {
			seenNames[*name] = true
		}
		if okType && okName {
			out = append(out, recs[i])
		}
	}
	var warns []readWarning
	present := func(pick func(typ, name *string) *string) []string {
		values := map[string]bool{}
		for i := range recs {
			if v := pick(typeOf(&recs[i])); v != nil {
				values[*v] = true
			}
		}
		return slices.Sorted(maps.Keys(values))
	}
	typesPresent := sync.OnceValue(func() []string { return present(func(typ, _ *string) *string { return typ }) })
	namesPresent := sync.OnceValue(func() []string { return present(func(_, name *string) *string { return name }) })
	// A name where an id belongs (or the other way round) is the likeliest
	// mistake after a typo: say which argument takes it.
	warns = append(warns, types.unmatched(seenTypes, len(recs), typesPresent, otherArgument(names, namesPresent))...)
	warns = append(warns, names.unmatched(seenNames, len(recs), namesPresent, otherArgument(types, typesPresent))...)
	return slices.Clip(out), warns
}

// otherArgument is a hint for a value that the other type filter would
// match: "Corporate" in membership_types is a membership_name.
func otherArgument(other stringFilter, present func() []string) func(v, field string) string {
	return func(v, field string) string {
		if !slices.Contains(present(), v) {
			return ""
		}
		return fmt.Sprintf(" %q is a %s of the memberships read, not a %s: use %s = [%q].", v, other.field, field, other.attr, v)
	}
}

// unmatched warns of each value of the filter that no record had, naming
// the closest values the records do have, or the other filter that would
// match it (other). present is called only when a warning is due: it walks
// every record again.
func (f stringFilter) unmatched(seen map[string]bool, read int, present func() []string, other func(v, field string) string) []readWarning {
	if !f.Set {
		return nil
	}
	var warns []readWarning
	var values []string
	for _, v := range f.Values {
		if seen[*v] {
			continue
		}
		if values == nil {
			values = f.scope.cleaned(present())
		}
		detail := noMatchDetail(*v, f.field, values, read, f.scope.of())
		if hint := other(*v, f.field); hint != "" {
			detail += hint
		}
		warns = append(warns, readWarning{attr: f.attr, filter: true,
			summary: fmt.Sprintf("%s value %q matches no membership", f.attr, *v),
			detail:  detail, strictDetail: detail})
	}
	return warns
}

// noMatchDetail explains a filter value that matched nothing, with what it
// may have meant.
func noMatchDetail(v, field string, present []string, read int, of string) string {
	if read == 0 {
		return fmt.Sprintf("The read%s returned no memberships, so no record has %s %q and this value keeps none.", of, field, v)
	}
	detail := fmt.Sprintf("None of the %d memberships read%s has %s %q, so this value keeps none (values are compared exactly, case included).", read, of, field, v)
	if hint := didYouMean(v, present); hint != "" {
		return detail + hint
	}
	const listed = 10
	switch {
	case len(present) == 0:
		return detail + fmt.Sprintf(" No membership read has a %s.", field)
	case len(present) <= listed:
		return detail + fmt.Sprintf(" The values read are %s.", quotedList(present, "and"))
	default:
		return detail + fmt.Sprintf(" %d distinct values were read, among them %s.", len(present), quotedList(present[:listed], "and"))
	}
}
