package provider

import (
	"fmt"
	"math/big"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// An argument is declared once, in its data source's attr list, by one of
// the constructors below: name, description, default, bounds, and the state
// field its value goes to. From that one declaration come
//   - the framework attribute: Optional, and Computed when a default is
//     written back to state; validators from the bounds; the description,
//     ending in its bounds and "Default …";
//   - the getter that writes the value back to state;
//   - parse, which puts the configured value (or the default) into the
//     state before the read, checking the same bounds for a value the
//     validators could not see (unknown at plan).
// A data source's read then finds its arguments in its state, parsed.

// argError is a bad argument value, reported against its attribute.
type argError struct {
	attr string
	msg  string
}

func (e *argError) Error() string { return fmt.Sprintf("%s: %s", e.attr, e.msg) }

func errUnknownArg(name string) error {
	return &argError{name, "the value is not known yet; data sources are read with known arguments only"}
}

// arguments gives typed access to the arguments a data source's
// configuration sets (its other attributes are results, null in it).
type arguments struct{ attrs map[string]tftypes.Value }

func newArguments(v tftypes.Value) (arguments, error) {
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return arguments{}, fmt.Errorf("the configuration is not an object: %w", err)
	}
	return arguments{attrs: attrs}, nil
}

// set returns the argument's value when it is set; an error when it is
// not known yet.
func (a arguments) set(name string) (tftypes.Value, bool, error) {
	v, ok := a.attrs[name]
	if !ok || v.IsNull() {
		return v, false, nil
	}
	if !v.IsKnown() {
		return v, false, errUnknownArg(name)
	}
	return v, true, nil
}

// intSpec declares a whole-number argument.
type intSpec struct {
	name, desc string
	def        *int64 // the value when unset, written to state; nil leaves it null
	min, max   int64  // bounds, when max > min
}

// intArg declares an optional whole number that parse puts in *field(state).
func intArg[S any](sp intSpec, field func(*S) **int64) attr {
	desc := sp.desc
	if sp.max > sp.min {
		desc += fmt.Sprintf(" From %d to %d.", sp.min, sp.max)
	}
	if sp.def != nil {
		desc += fmt.Sprintf(" Default %d.", *sp.def)
	}
	// A Terraform number the provider checks (wholeNumber), not the
	// framework's Int64, which blames the provider for a fraction.
	a := asArg(num(sp.name, "", func(s *S) *int64 { return *field(s) }),
		schema.NumberAttribute{Optional: true, Computed: sp.def != nil, Description: desc, MarkdownDescription: markdown(desc),
			Validators: []validator.Number{wholeNumber{min: sp.min, max: sp.max}}})
	a.parse = func(args arguments, state any) error {
		n, err := args.int64Value(sp)
		*field(parentAs[S](state)) = n
		return err
	}
	return a
}

func (a arguments) int64Value(sp intSpec) (*int64, error) {
	v, ok, err := a.set(sp.name)
	if err != nil || !ok {
		if sp.def == nil {
			return nil, err
		}
		return ptr(*sp.def), err // each state its own: the declaration's is shared
	}
	var f big.Float
	if err := v.As(&f); err != nil {
		return nil, &argError{sp.name, err.Error()}
	}
	n, err := checkWholeNumber(sp.name, &f, sp.min, sp.max)
	if err != nil {
		return nil, &argError{sp.name, err.Error()}
	}
	return &n, nil
}

// boolArg declares an optional bool with a default, written to state.
func boolArg[S any](name, desc string, def bool, field func(*S) **bool) attr {
	a := asArg(boolean(name, "", func(s *S) *bool { return *field(s) }),
		schema.BoolAttribute{Optional: true, Computed: true, Description: desc + " Default " + strconv.FormatBool(def) + ".", MarkdownDescription: markdown(desc + " Default " + strconv.FormatBool(def) + ".")})
	a.parse = func(args arguments, state any) error {
		b, err := args.boolValue(name, def)
		*field(parentAs[S](state)) = b
		return err
	}
	return a
}

func (a arguments) boolValue(name string, def bool) (*bool, error) {
	v, ok, err := a.set(name)
	if err != nil || !ok {
		return &def, err
	}
	var b bool
	if err := v.As(&b); err != nil {
		return nil, &argError{name, err.Error()}
	}
	return &b, nil
}

// optBoolArg declares an optional bool without a default: null in state,
// and nil in *field(state), when unset.
func optBoolArg[S any](name, desc string, field func(*S) **bool) attr {
	a := asArg(boolean(name, "", func(s *S) *bool { return *field(s) }),
		schema.BoolAttribute{Optional: true, Description: desc, MarkdownDescription: markdown(desc)})
	a.parse = func(args arguments, state any) error {
		v, ok, err := args.set(name)
		if err != nil || !ok {
			return err
		}
		var b bool
		if err := v.As(&b); err != nil {
			return &argError{name, err.Error()}
		}
		*field(parentAs[S](state)) = &b
		return nil
	}
	return a
}

// strArg declares an optional string, null in state and nil in
// *field(state) when unset.
func strArg[S any](name, desc string, field func(*S) **string, validators ...validator.String) attr {
	a := asArg(str(name, "", func(s *S) *string { return *field(s) }),
		schema.StringAttribute{Optional: true, Description: desc, MarkdownDescription: markdown(desc), Validators: validators})
	a.parse = func(args arguments, state any) error {
		v, ok, err := args.set(name)
		if err != nil || !ok {
			return err
		}
		var text string
		if err := v.As(&text); err != nil {
			return &argError{name, err.Error()}
		}
		*field(parentAs[S](state)) = &text
		return nil
	}
	return a
}

// stringsValue is a list or set of strings as configured; set is false
// when it is null.
type stringsValue struct {
	values []*string
	set    bool
}

func (v stringsValue) get() ([]*string, bool) { return v.values, v.set }

// stringSetArg declares an optional set of strings.
func stringSetArg[S any](name, desc string, field func(*S) *stringsValue, validators ...validator.Set) attr {
	a := asArg(strSet(name, "", func(s *S) ([]*string, bool) { return field(s).get() }),
		schema.SetAttribute{Optional: true, ElementType: types.StringType, Description: desc, MarkdownDescription: markdown(desc), Validators: validators})
	a.parse = parseStrings(name, field, nil)
	return a
}

// stringListArg declares an optional list of strings; then, when not nil,
// derives more from it once it is parsed (set or not).
func stringListArg[S any](name, desc string, field func(*S) *stringsValue, then func(*S) error, validators ...validator.List) attr {
	a := asArg(strList(name, "", func(s *S) ([]*string, bool) { return field(s).get() }),
		schema.ListAttribute{Optional: true, ElementType: types.StringType, Description: desc, MarkdownDescription: markdown(desc), Validators: validators})
	a.parse = parseStrings(name, field, then)
	return a
}

// parseStrings is the parse of a list or set of strings.
func parseStrings[S any](name string, field func(*S) *stringsValue, then func(*S) error) func(arguments, any) error {
	return func(args arguments, state any) (err error) {
		s := parentAs[S](state)
		if *field(s), err = args.stringsValue(name); err != nil || then == nil {
			return err
		}
		return then(s)
	}
}

// stringsValue returns a list or set of strings argument's elements in
// the order Terraform sent them.
func (a arguments) stringsValue(name string) (stringsValue, error) {
	v, ok, err := a.set(name)
	if err != nil || !ok {
		return stringsValue{}, err
	}
	var vals []tftypes.Value
	if err := v.As(&vals); err != nil {
		return stringsValue{}, &argError{name, err.Error()}
	}
	elems := make([]*string, len(vals))
	for i, e := range vals {
		if !e.IsKnown() {
			return stringsValue{}, errUnknownArg(name)
		}
		if e.IsNull() {
			return stringsValue{}, &argError{name, fmt.Sprintf("element %d is null", i)}
		}
		var s string
		if err := e.As(&s); err != nil {
			return stringsValue{}, &argError{name, err.Error()}
		}
		elems[i] = &s
	}
	return stringsValue{values: elems, set: true}, nil
}

func ptr[T any](v T) *T { return &v }
