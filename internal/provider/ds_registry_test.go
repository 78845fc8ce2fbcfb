package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/joinit-community/terraform-provider-joinit/internal/apispec"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The suites that cover every data source at once (every_attribute_test.go,
// the fixture API of fixture_api_test.go, the fast path's equality in
// server_test.go) iterate what each data source declares of itself, in its
// own ds_<name>_test.go, with
//
//	var _ = registerDataSourceTest(dsTest{...})
//
// so that a new data source adds its expectations in its own test file.

// dsTest is what those suites need of one data source.
type dsTest struct {
	def *dataSourceDef
	// edge are hand-written records at the edges the sandbox's generated
	// records do not reach.
	edge []string
	// nullUnlessSet are the attributes of its own TestAccEveryAttribute
	// expects null when a case does not set them (timeouts always is, and
	// fields and records of a data source with fields).
	nullUnlessSet []string
	// args are the arguments every configuration of the suites that vary
	// the arguments (argumentVariants) starts from: nil, or those a data
	// source cannot be read without (a lookup's key).
	args map[string]tftypes.Value
	// everyAttribute are the reads of TestAccEveryAttribute: each a
	// configuration of the data source reading recs, and the whole state
	// it should have. sb holds recs, or is nil for the edge records.
	everyAttribute func(t *testing.T, recs [][]byte, sb *sandbox.Server) []attrCase
}

// attrCase is one data source block of TestAccEveryAttribute: its name,
// its arguments and the whole state it should have.
type attrCase struct {
	name, config string
	want         map[string]any
}

var dsTests = map[string]dsTest{}

func registerDataSourceTest(d dsTest) bool { //nolint:unparam // the result lets a file register at package level: var _ = registerDataSourceTest(...)
	if _, dup := dsTests[d.def.name]; dup {
		panic("two tests registered for joinit_" + d.def.name)
	}
	dsTests[d.def.name] = d
	return true
}

// registeredTests are the declarations in the provider's order.
func registeredTests() []dsTest {
	out := make([]dsTest, 0, len(dsTests))
	for _, def := range orderedDefs() {
		if d, ok := dsTests[def.name]; ok {
			out = append(out, d)
		}
	}
	return out
}

// Every data source declares what the cross-cutting suites need, so none
// is left out of them; and it reads an endpoint of apispec, which is how
// the fixture API finds its path. Data sources of one endpoint declare the
// same edge records: the fixture API serves an endpoint one list.
func TestEveryDataSourceIsInTheCrossCuttingSuites(t *testing.T) {
	t.Parallel()
	paths := apispec.DefaultPaths()
	edgeOf := map[string]dsTest{}
	for _, def := range orderedDefs() {
		if other, ok := edgeOf[def.endpoint]; ok && !slices.Equal(other.edge, dsTests[def.name].edge) {
			t.Errorf("joinit_%s and joinit_%s read %s but declare other edge records", other.def.name, def.name, def.endpoint)
		}
		edgeOf[def.endpoint] = dsTests[def.name]
		d, ok := dsTests[def.name]
		switch {
		case !ok:
			t.Errorf("joinit_%s: no registerDataSourceTest in ds_%s_test.go", def.name, def.name)
		case d.def != def:
			t.Errorf("joinit_%s: registered with another definition", def.name)
		case len(d.edge) == 0 || d.everyAttribute == nil:
			t.Errorf("joinit_%s: its registration lacks edge records or everyAttribute cases", def.name)
		}
		if _, ok := paths[def.endpoint]; !ok {
			t.Errorf("joinit_%s: its endpoint %q is not in apispec.Endpoints", def.name, def.endpoint)
		}
	}
	if len(dsTests) != len(orderedDefs()) {
		t.Errorf("%d registered, %d data sources", len(dsTests), len(orderedDefs()))
	}
}

// sandboxRecords are n records for every endpoint, for the sandbox's
// Records: the suites' own counts of the endpoints with a field in
// sandbox.Options win over it.
func sandboxRecords(n int) map[string]int {
	out := map[string]int{}
	for _, e := range apispec.Endpoints {
		out[e.Name] = n
	}
	return out
}

// jsonNum is an integer as Terraform's JSON state writes it.
func jsonNum(v int) json.Number { return json.Number(fmt.Sprint(v)) }

// wantWithRaw fixes the include_raw_json of a record's expectation.
func wantWithRaw(t *testing.T, want func(*testing.T, []byte, bool) map[string]any, raw bool) func([]byte) map[string]any {
	return func(r []byte) map[string]any { return want(t, r, raw) }
}

// coverageVariants are the configurations of a data source the suites
// that read every data source through Terraform apply (the organization
// guard, the chaos campaign): its defaults, each bool argument both ways,
// and `fields` naming its first record attribute alone, so that a masked
// read is among them.
func coverageVariants(d dsTest) map[string]map[string]tftypes.Value {
	def := d.def
	out := map[string]map[string]tftypes.Value{}
	for name, args := range argumentVariants(d) {
		if _, ok := args["fields"]; !ok && name != "page_size 1" {
			out[name] = args
		}
	}
	if def.fields != nil {
		out["fields"] = map[string]tftypes.Value{"fields": stringList(def.fields.attrs[0].Name())}
		maps.Copy(out["fields"], d.args)
	}
	return out
}

// variantBlock is a data block of def named label, setting args and the
// extra lines given.
func variantBlock(def *dataSourceDef, label string, args map[string]tftypes.Value, extra string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "data \"joinit_%s\" %q {\n", def.name, label)
	for _, name := range slices.Sorted(maps.Keys(args)) {
		fmt.Fprintf(&b, "  %s = %s\n", name, hclValue(args[name]))
	}
	b.WriteString(extra + "}\n")
	return b.String()
}

// variantLabel is a variant's name as a Terraform label: fields_id, include_records_false.
func variantLabel(name string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, strings.ReplaceAll(name, ", ", "_"))
}

// hclValue writes a string, bool, number or list of strings as HCL.
func hclValue(v tftypes.Value) string {
	switch j := stateJSON(v).(type) {
	case string:
		return strconv.Quote(j)
	case bool:
		return strconv.FormatBool(j)
	case json.Number:
		return j.String()
	default:
		var elems []tftypes.Value
		_ = v.As(&elems)
		quoted := make([]string, len(elems))
		for i, e := range elems {
			var s string
			_ = e.As(&s)
			quoted[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(quoted, ", ") + "]"
	}
}

// stateJSON is a value as Terraform's JSON output writes it, decoded into
// Go values (json.Number for numbers), for comparing with an output.
func stateJSON(v tftypes.Value) any {
	if v.IsNull() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.String):
		var s string
		_ = v.As(&s)
		return s
	case v.Type().Is(tftypes.Bool):
		var b bool
		_ = v.As(&b)
		return b
	case v.Type().Is(tftypes.Number):
		var f big.Float
		_ = v.As(&f)
		return json.Number(f.Text('f', -1))
	case v.Type().Is(tftypes.Object{}):
		var attrs map[string]tftypes.Value
		_ = v.As(&attrs)
		out := map[string]any{}
		for k, a := range attrs {
			out[k] = stateJSON(a)
		}
		return out
	default: // lists and sets
		var elems []tftypes.Value
		_ = v.As(&elems)
		out := make([]any, len(elems))
		for i, e := range elems {
			out[i] = stateJSON(e)
		}
		return out
	}
}
