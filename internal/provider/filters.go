package provider

import (
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/setvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The API filters memberships by status only: its filters by membership
// type have no documented parameter names. membership_types and
// membership_names are applied here, after the whole status-filtered list
// is read, so they save state and Terraform's time, not requests.

const filterNote = " Applied by the provider after the read: every page of the `status` filter's result is still fetched."

func membershipTypesArg() attr {
	return asArg(strSet("membership_types", "", func(s *membershipsState) ([]*string, bool) { return s.types.values, s.types.set }),
		schema.SetAttribute{Optional: true, ElementType: types.StringType,
			Description: "Only memberships whose `membership_type` (the type's identifier) is one of these. " +
				"Applies to `memberships`, `records`, `ids` and `emails` alike." + filterNote,
			Validators: []validator.Set{setvalidator.SizeAtLeast(1)}})
}

func membershipNamesArg() attr {
	return asArg(strSet("membership_names", "", func(s *membershipsState) ([]*string, bool) { return s.names.values, s.names.set }),
		schema.SetAttribute{Optional: true, ElementType: types.StringType,
			Description: "Only memberships whose `membership_name` (the type's name) is one of these. " +
				"Applies to `memberships`, `records`, `ids` and `emails` alike. With `membership_types` too, a membership must match both." + filterNote,
			Validators: []validator.Set{setvalidator.SizeAtLeast(1)}})
}

// stringFilter is a set argument as configured; unset keeps everything.
type stringFilter struct {
	values []*string
	set    bool
	in     map[string]bool
}

func newStringFilter(values []*string, set bool) stringFilter {
	f := stringFilter{values: values, set: set, in: make(map[string]bool, len(values))}
	for _, v := range values {
		f.in[*v] = true
	}
	return f
}

// keeps reports whether a record's value passes; a null value passes only
// an unset filter.
func (f stringFilter) keeps(v *string) bool {
	return !f.set || (v != nil && f.in[*v])
}

// filterByType returns the records both filters keep, in order. The
// records may be the client's cached slice, shared with other data
// sources of the run: it is never changed in place.
func filterByType[R any](recs []R, types, names stringFilter, typeOf func(*R) (typ, name *string)) []R {
	if !types.set && !names.set {
		return recs
	}
	out := make([]R, 0, len(recs)/2)
	for i := range recs {
		if typ, name := typeOf(&recs[i]); types.keeps(typ) && names.keeps(name) {
			out = append(out, recs[i])
		}
	}
	return slices.Clip(out)
}
