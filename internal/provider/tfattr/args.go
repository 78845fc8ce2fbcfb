package tfattr

import (
	"context"
	"fmt"
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
//   - the parse (Parse), which puts the configured value (or the default)
//     into the state before the read, checking the same bounds for a value
//     the validators could not see (unknown at plan).
// A data source's read then finds its arguments in its state, parsed.

// Parse puts the arguments the configuration sets (or their defaults) into
// state, by each argument's declaration among attrs.
func Parse(attrs []Attr, config tftypes.Value, state any) error {
	args, err := newArguments(config)
	if err != nil {
		return err
	}
	for _, a := range attrs {
		if a.parse != nil {
			if err := a.parse(args, state); err != nil {
				return err
			}
		}
	}
	return nil
}

// IntSpec declares a whole-number argument.
type IntSpec struct {
	Name, Desc string
	Default    *int64 // the value when unset, written to state; nil leaves it null
	Min, Max   int64  // bounds, when Max > Min
}

// IntArg declares an optional whole number that the parse puts in *field(state).
func IntArg[S any](sp IntSpec, field func(*S) **int64) Attr {
	desc := sp.Desc
	if sp.Max > sp.Min {
		desc += fmt.Sprintf(" From %d to %d.", sp.Min, sp.Max)
	}
	if sp.Default != nil {
		desc += fmt.Sprintf(" Default %d.", *sp.Default)
	}
	// A Terraform number the provider checks (WholeNumber), not the
	// framework's Int64, which blames the provider for a fraction.
	rule := WholeNumber{Min: sp.Min, Max: sp.Max}
	a := asArg(Num(sp.Name, "", func(s *S) *int64 { return *field(s) }),
		schema.NumberAttribute{Optional: true, Computed: sp.Default != nil, Description: desc, MarkdownDescription: Markdown(desc),
			Validators: []validator.Number{rule}})
	a.parse = func(args arguments, state any) error {
		v, ok, err := args.set(sp.Name)
		if err != nil || !ok {
			if sp.Default != nil {
				*field(parentAs[S](state)) = new(*sp.Default) // each state its own: the declaration's is shared
			}
			return err
		}
		n, err := rule.Parse(sp.Name, v)
		if err != nil {
			return &ArgError{sp.Name, err.Error()}
		}
		*field(parentAs[S](state)) = &n
		return nil
	}
	return a
}

// BoolArg declares an optional bool with a default, written to state.
func BoolArg[S any](name, desc string, def bool, field func(*S) **bool) Attr {
	return boolArg(name, desc+" Default "+strconv.FormatBool(def)+".", &def, field)
}

// OptBoolArg declares an optional bool without a default: null in state,
// and nil in *field(state), when unset.
func OptBoolArg[S any](name, desc string, field func(*S) **bool) Attr {
	return boolArg(name, desc, nil, field)
}

func boolArg[S any](name, desc string, def *bool, field func(*S) **bool) Attr {
	a := asArg(Bool(name, "", func(s *S) *bool { return *field(s) }),
		schema.BoolAttribute{Optional: true, Computed: def != nil, Description: desc, MarkdownDescription: Markdown(desc)})
	a.parse = func(args arguments, state any) error {
		b, err := args.boolean(name)
		if b == nil && def != nil {
			b = new(*def)
		}
		*field(parentAs[S](state)) = b
		return err
	}
	return a
}

// boolean is a bool argument's value; nil when unset.
func (a arguments) boolean(name string) (*bool, error) {
	v, ok, err := a.set(name)
	if err != nil || !ok {
		return nil, err
	}
	var b bool
	if err := v.As(&b); err != nil {
		return nil, &ArgError{name, err.Error()}
	}
	return &b, nil
}

// StrArg declares an optional string, null in state and nil in
// *field(state) when unset.
func StrArg[S any](name, desc string, field func(*S) **string, validators ...validator.String) Attr {
	a := asArg(Str(name, "", func(s *S) *string { return *field(s) }),
		schema.StringAttribute{Optional: true, Description: desc, MarkdownDescription: Markdown(desc), Validators: validators})
	a.parse = func(args arguments, state any) error {
		v, ok, err := args.set(name)
		if err != nil || !ok {
			return err
		}
		var text string
		if err := v.As(&text); err != nil {
			return &ArgError{name, err.Error()}
		}
		*field(parentAs[S](state)) = &text
		return nil
	}
	return a
}

// ParsedStrArg declares an optional string kept in state as configured
// (Terraform requires a configured value back unchanged) and turned by
// parse into the value the read uses, in *to(state). The same parse is its
// validator, so `terraform validate` refuses what the read would, in the
// same words; the read's parse checks a value unknown at validation. A
// number written for it is a string by then: Terraform converts it.
func ParsedStrArg[S, T any](name, desc string, field func(*S) **string, parse func(string) (T, error), to func(*S) **T) Attr {
	a := StrArg(name, desc, field, parsedString[T](parse))
	configured := a.parse
	a.parse = func(args arguments, state any) error {
		s := parentAs[S](state)
		if err := configured(args, state); err != nil || *field(s) == nil {
			return err
		}
		v, err := parse(**field(s))
		if err != nil {
			return &ArgError{name, err.Error()}
		}
		*to(s) = &v
		return nil
	}
	return a
}

// parsedString is a ParsedStrArg's parse as its validator. Its error
// names the attribute and the value itself, as the read's does.
type parsedString[T any] func(string) (T, error)

func (p parsedString[T]) Description(context.Context) string {
	return "must be one of the values the attribute's description lists"
}

func (p parsedString[T]) MarkdownDescription(ctx context.Context) string { return p.Description(ctx) }

func (p parsedString[T]) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := p(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+req.Path.String(), err.Error())
	}
}

// StringSetArg declares an optional set of strings.
func StringSetArg[S any](name, desc string, field func(*S) *Strings, validators ...validator.Set) Attr {
	a := asArg(StrSet(name, "", func(s *S) ([]*string, bool) { return field(s).get() }),
		schema.SetAttribute{Optional: true, ElementType: types.StringType, Description: desc, MarkdownDescription: Markdown(desc), Validators: validators})
	a.parse = parseStrings(name, field, nil)
	return a
}

// StringListArg declares an optional list of strings; then, when not nil,
// derives more from it once it is parsed (set or not).
func StringListArg[S any](name, desc string, field func(*S) *Strings, then func(*S) error, validators ...validator.List) Attr {
	a := asArg(StrList(name, "", func(s *S) ([]*string, bool) { return field(s).get() }),
		schema.ListAttribute{Optional: true, ElementType: types.StringType, Description: desc, MarkdownDescription: Markdown(desc), Validators: validators})
	a.parse = parseStrings(name, field, then)
	return a
}

// parseStrings is the parse of a list or set of strings.
func parseStrings[S any](name string, field func(*S) *Strings, then func(*S) error) func(arguments, any) error {
	return func(args arguments, state any) (err error) {
		s := parentAs[S](state)
		if *field(s), err = args.strings(name); err != nil || then == nil {
			return err
		}
		return then(s)
	}
}
