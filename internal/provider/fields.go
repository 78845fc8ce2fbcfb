package provider

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// `fields` chooses the attributes of each record; the records then come in
// `records`, a dynamic attribute whose objects have exactly those
// attributes. Terraform's cost is per value, so leaving the other
// attributes out (rather than null) is what makes a large read cheap, and
// keeps them out of state.

// recordFields is how a data source's records are chosen from: the attrs of
// one record, declared once in its ds_*.go, and the JSON members each attr
// needs decoded.
type recordFields struct {
	what  string // "membership": what a record is, for messages
	attrs []tfattr.Attr
	// json names the member an attr reads when it is not the attr's own
	// name; "" for an attr no member fills (raw_json).
	json map[string]string
}

// containers are the names of the attributes that hold others (objects,
// lists of objects): a nested name in `fields` is inside one of them.
func (r recordFields) containers() []string {
	var out []string
	for _, a := range r.attrs {
		if len(a.Children()) > 0 {
			out = append(out, a.Name())
		}
	}
	return out
}

func (r recordFields) names() []string {
	out := make([]string, len(r.attrs))
	for i, a := range r.attrs {
		out[i] = a.Name()
	}
	return out
}

// chosenFields is `fields` as configured, and the attrs it chooses; chosen
// is nil when fields is not set.
type chosenFields struct {
	tfattr.Strings
	chosen []tfattr.Attr
}

// fieldsArg declares `fields`: validation lists the valid names, and parse
// chooses the attrs.
func fieldsArg[S any](r recordFields, field func(*S) *chosenFields) tfattr.Attr {
	names, what := r.names(), r.what
	return tfattr.StringListArg("fields",
		fmt.Sprintf("The attributes wanted of each %s, named as in `%ss`; a nested object comes whole. "+
			"When set, the %ss come in `records`, objects with exactly these attributes, and `%ss` is null: "+
			"the other attributes are not decoded, not sent to Terraform and not stored in state. "+
			"Name at least one, each once: an empty list or a name given twice is refused. Valid names: %s.",
			what, what, what, what, "`"+strings.Join(names, "`, `")+"`"),
		func(s *S) *tfattr.Strings { return &field(s).Strings },
		func(s *S) (err error) {
			f := field(s)
			f.chosen, err = r.choose(f.Values, f.Set)
			return err
		},
		listvalidator.SizeAtLeast(1),
		listvalidator.UniqueValues(),
		listvalidator.ValueStringsAre(attributeName{what: what, names: names, containers: r.containers()}),
		fieldsNeedRecords{},
	)
}

// recordsAttr declares `records`: the chosen attributes of each record.
func recordsAttr[S, R any](what string, get func(*S) (chosen []tfattr.Attr, records []R)) tfattr.Attr {
	return tfattr.Dynamic("records",
		fmt.Sprintf("The %ss with only the attributes named in `fields`, in API order, each once; null when `fields` is not set. "+
			"A list of objects whose type follows from `fields`.", what),
		func(s *S) tfattr.DynamicView {
			chosen, recs := get(s)
			if chosen == nil {
				return tfattr.DynamicView{Null: true}
			}
			return tfattr.DynamicView{Parent: s, Of: tfattr.ObjectList("records", "", func(*S) ([]R, bool) { return recs, true }, chosen...)}
		})
}

// choose returns the attrs fields names, nil when fields is not set. The
// schema's validators refuse bad names at validation; this holds the same
// rule for any read that gets here without them.
func (r recordFields) choose(fields []*string, set bool) ([]tfattr.Attr, error) {
	if !set {
		return nil, nil
	}
	if len(fields) == 0 {
		return nil, &tfattr.ArgError{Attr: "fields", Msg: "name at least one attribute"}
	}
	byName := make(map[string]tfattr.Attr, len(r.attrs))
	for _, a := range r.attrs {
		byName[a.Name()] = a
	}
	chosen := make([]tfattr.Attr, 0, len(fields))
	seen := map[string]bool{}
	for _, f := range fields {
		a, ok := byName[*f]
		if !ok {
			return nil, &tfattr.ArgError{Attr: "fields", Msg: unknownAttributeMessage(r.what, *f, r.names(), r.containers())}
		}
		if seen[*f] {
			return nil, &tfattr.ArgError{Attr: "fields", Msg: fmt.Sprintf("%q is named twice", *f)}
		}
		seen[*f] = true
		chosen = append(chosen, a)
	}
	return chosen, nil
}

// jsonMembers are the JSON members the chosen attrs read, for the client's
// field mask.
func (r recordFields) jsonMembers(chosen []tfattr.Attr) []string {
	out := make([]string, 0, len(chosen))
	for _, a := range chosen {
		name, renamed := r.json[a.Name()]
		if !renamed {
			name = a.Name()
		}
		if name != "" {
			out = append(out, name)
		}
	}
	return out
}

// fieldsNeedRecords refuses `fields` with `include_records = false`: one
// asks for records, the other for none.
type fieldsNeedRecords struct{}

func (fieldsNeedRecords) Description(context.Context) string {
	return "cannot be set with include_records = false"
}

func (v fieldsNeedRecords) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (fieldsNeedRecords) ValidateList(ctx context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return // unknown at plan: the read checks the rule once it is known
	}
	var include types.Bool
	if diags := req.Config.GetAttribute(ctx, path.Root("include_records"), &include); diags.HasError() {
		return // a data source without include_records
	}
	if !include.IsNull() && !include.IsUnknown() && !include.ValueBool() {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid fields", errFieldsWithoutRecords)
	}
}

const errFieldsWithoutRecords = "fields chooses attributes of the records, and include_records = false reads none: " +
	"remove include_records = false (ids and emails are set with fields too), or remove fields"

// unknownAttributeMessage refuses a name in `fields`, with the names it was
// likely a typo of, and every valid one. The validator and the read say
// the same.
func unknownAttributeMessage(what, name string, valid, containers []string) string {
	if parent, child, ok := strings.Cut(name, "."); ok && slices.Contains(containers, parent) {
		// profile.first_name: what an attribute holds is not chosen on its own.
		return fmt.Sprintf("%q is inside %q: fields chooses whole attributes, so choose %q, and its %s comes with it.",
			name, parent, parent, child)
	}
	return fmt.Sprintf("%q is not an attribute of a %s.%s Valid names: %s.", name, what, didYouMean(name, valid), strings.Join(valid, ", "))
}

// attributeName is the validator of each name in `fields`.
type attributeName struct {
	what       string
	names      []string
	containers []string // the names that hold others (containers)
}

func (v attributeName) Description(context.Context) string {
	return "must be an attribute of a " + v.what + ": " + strings.Join(v.names, ", ")
}

func (v attributeName) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v attributeName) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	name := req.ConfigValue.ValueString()
	if slices.Contains(v.names, name) {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid fields", unknownAttributeMessage(v.what, name, v.names, v.containers))
}
