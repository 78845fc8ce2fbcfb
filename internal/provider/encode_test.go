package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"runtime"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// trickyMemberships are records full of nulls, unicode, extreme numbers and
// fields the provider does not model: the cases an encoder gets wrong.
func trickyMemberships(t *testing.T) []client.Membership {
	t.Helper()
	raw := []string{
		`{"_id":"a1","email":"zoë@example.com","display_name":"Zoë 東京 🚀","status":100,"profile":{"first_name":"Zoë","address":{"city":"東京","line1":null}},"custom_answers":[{"question_id":"q1","question":"Why?","answer":"Because \"quoted\" \\ and \n newline"},{"question_id":"q2","question":null,"answer":["a",1,true]}],"x_future":{"deep":[1,2,3]}}`,
		`{"_id":"a2","email":null,"status":999,"profile":null,"custom_answers":[],"expiration_date":null}`,
		`{"_id":null,"status":-9223372036854775808,"custom_answers":null}`,
		`{"_id":"a4","status":9223372036854775807,"profile":{"address":"1 Main St"},"membership_name":""}`,
		`{}`,
	}
	out := make([]client.Membership, len(raw))
	for i, r := range raw {
		if err := json.Unmarshal([]byte(r), &out[i]); err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		out[i].RawJSON = r
	}
	return out
}

func membershipsFixture(t *testing.T, includeRecords bool) *membershipsState {
	recs := trickyMemberships(t)
	s := &membershipsState{
		common: common{PageSize: new(int64(1000)), IncludeRawJSON: new(true)},
		Status: statusFilter{Configured: new("active"), Code: new(int64(100))}, IncludeRecords: new(includeRecords), records: recs,
	}
	s.ids, s.emails = idsAndEmails(recs)
	return s
}

// withFields is a memberships state whose records are chosen by fields,
// and filtered by type.
func withFields(t *testing.T, s *membershipsState, fields ...string) *membershipsState {
	t.Helper()
	s.fields.Strings = tfattr.Strings{Values: ptrs(fields...), Set: true}
	var err error
	if s.fields.chosen, err = membershipFields.choose(s.fields.Values, true); err != nil {
		t.Fatal(err)
	}
	s.types = tfattr.Strings{Values: ptrs("t2", "t1", "Ü"), Set: true}
	s.names = tfattr.Strings{Values: ptrs("Gold"), Set: true}
	return s
}

func ptrs(values ...string) []*string {
	out := make([]*string, len(values))
	for i := range values {
		out[i] = &values[i]
	}
	return out
}

// The fast path's encoding equals the framework's, byte for byte, for
// every registered data source: each read from its edge records and from
// an empty list, with every variant of its arguments (argumentVariants).
func TestEncodeStateMatchesFrameworkEncoding(t *testing.T) {
	t.Parallel()
	lists := map[string]string{"edge records": fixtureAPI(t, edgeRecords()), "no records": fixtureAPI(t, nil)}
	for _, d := range registeredTests() {
		for listName, url := range lists {
			c := testClient(t, client.Config{BaseURL: url, Token: sandbox.DefaultToken})
			for variant, args := range argumentVariants(d) {
				t.Run(d.def.name+"/"+listName+"/"+variant, func(t *testing.T) {
					t.Parallel()
					state, _, err := d.def.readChecked(context.Background(), c, configOf(d.def, args), maxResultBytes)
					if err != nil {
						t.Fatal(err)
					}
					checkEncoding(t, d.def, state)
				})
			}
		}
	}
}

// checkEncoding holds the fast path's encoding of a state to the
// framework's encoding of its reference value, and decodes it back.
func checkEncoding(t *testing.T, def *dataSourceDef, state any) {
	t.Helper()
	got, err := encodeState(def.attrs, state)
	if err != nil {
		t.Fatal(err)
	}
	ref := tfattr.ReferenceValue(def.attrs, state)
	want, err := tfprotov6.NewDynamicValue(def.stateType, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.MsgPack) {
		t.Fatalf("direct encoding differs from the framework's:\n got %x\nwant %x", got, want.MsgPack)
	}
	// And Terraform's side decodes it back to the same value.
	back, err := (&tfprotov6.DynamicValue{MsgPack: got}).Unmarshal(def.stateType)
	if err != nil {
		t.Fatal(err)
	}
	if !back.Equal(ref) {
		t.Fatalf("decoded value differs:\n got %s\nwant %s", back, ref)
	}
}

// argumentVariants are configurations of a data source, by name, that
// between them give each argument more than its default, from what the
// data source declares: every bool argument both ways, page_size at 1, and
// fields naming each record attribute alone and all of them with
// include_raw_json. Each starts from the data source's base arguments
// (dsTest.args), which the variants leave as they are.
func argumentVariants(d dsTest) map[string]map[string]tftypes.Value {
	def := d.def
	out := map[string]map[string]tftypes.Value{"defaults": {}, "page_size 1": {"page_size": tftypes.NewValue(tftypes.Number, 1)}}
	arguments := def.schema().Attributes
	for _, a := range def.attrs {
		if _, base := d.args[a.Name()]; !base && arguments[a.Name()] != nil && arguments[a.Name()].IsOptional() && def.stateType.AttributeTypes[a.Name()].Is(tftypes.Bool) {
			for _, b := range []bool{true, false} {
				out[fmt.Sprintf("%s %t", a.Name(), b)] = map[string]tftypes.Value{a.Name(): tftypes.NewValue(tftypes.Bool, b)}
			}
		}
	}
	if def.fields != nil {
		var all []string
		for _, a := range def.fields.attrs {
			out["fields "+a.Name()] = map[string]tftypes.Value{"fields": stringList(a.Name())}
			all = append(all, a.Name())
		}
		out["fields, all"] = map[string]tftypes.Value{"fields": stringList(all...), "include_raw_json": tftypes.NewValue(tftypes.Bool, true)}
	}
	for _, args := range out {
		maps.Copy(args, d.args)
	}
	return out
}

// configOf is a configuration of def setting args, every other attribute null.
func configOf(def *dataSourceDef, args map[string]tftypes.Value) tftypes.Value {
	vals := map[string]tftypes.Value{}
	for name, typ := range def.stateType.AttributeTypes {
		vals[name] = tftypes.NewValue(typ, nil)
		if v, ok := args[name]; ok {
			vals[name] = v
		}
	}
	return tftypes.NewValue(def.stateType, vals)
}

func stringList(values ...string) tftypes.Value {
	elems := make([]tftypes.Value, len(values))
	for i, v := range values {
		elems[i] = tftypes.NewValue(tftypes.String, v)
	}
	return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)
}

func TestLeanReadLeavesMembershipsNull(t *testing.T) {
	t.Parallel()
	v := tfattr.ReferenceValue(membershipsDef.attrs, membershipsFixture(t, false))
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	if !attrs["memberships"].IsNull() {
		t.Fatal("memberships should be null in a lean read")
	}
	var ids []tftypes.Value
	if err := attrs["ids"].As(&ids); err != nil || len(ids) != 5 {
		t.Fatalf("ids: %v (len %d), want 5 ids", err, len(ids))
	}
}

func TestSchemaTypeMatchesEncodedType(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, def := range orderedDefs() {
		got := def.schema().Type().TerraformType(ctx)
		if !got.Equal(def.stateType) {
			t.Errorf("joinit_%s: framework schema type %s differs from the encoded type %s", def.name, got, def.stateType)
		}
	}
}

func TestIdsAndEmails(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	recs := []client.Membership{{ID: s("3"), Email: s("b@x")}, {ID: s("1"), Email: nil}, {ID: s("2"), Email: s("a@x")}, {ID: s("4"), Email: s("b@x")}}
	ids, emails := idsAndEmails(recs)
	var gotIDs, gotEmails []string
	for _, id := range ids {
		gotIDs = append(gotIDs, *id)
	}
	for _, e := range emails {
		gotEmails = append(gotEmails, *e)
	}
	if want := []string{"3", "1", "2", "4"}; !equalStrings(gotIDs, want) {
		t.Errorf("ids = %v, want API order %v", gotIDs, want)
	}
	if want := []string{"a@x", "b@x"}; !equalStrings(gotEmails, want) {
		t.Errorf("emails = %v, want distinct sorted %v", gotEmails, want)
	}
}

func TestStatusName(t *testing.T) {
	t.Parallel()
	for code, want := range map[int64]string{50: "prospective", 75: "pending", 100: "active", 300: "expired", 350: "cancelled", 0: "unknown", 999: "unknown"} {
		if got := statusName(&code); got == nil || *got != want {
			t.Errorf("statusName(%d) = %v, want %q", code, got, want)
		}
	}
	if statusName(nil) != nil {
		t.Error("a null status should have a null name")
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// With fields, records carry the chosen attributes and nothing else: the
// others are not nulls in the state, they are not there, and memberships
// is null.
func TestRecordsCarryOnlyChosenAttributes(t *testing.T) {
	t.Parallel()
	s := withFields(t, membershipsFixture(t, true), "email", "membership_name", "status")
	v := tfattr.ReferenceValue(membershipsDef.attrs, s)
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	want := tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"email": tftypes.String, "membership_name": tftypes.String, "status": tftypes.Number,
	}}}
	if got := attrs["records"].Type(); !got.Equal(want) {
		t.Fatalf("records type %s, want %s", got, want)
	}
	var recs []tftypes.Value
	if err := attrs["records"].As(&recs); err != nil || len(recs) != len(s.records) {
		t.Fatalf("records: %v, %d of %d", err, len(recs), len(s.records))
	}
	if !attrs["memberships"].IsNull() {
		t.Fatal("memberships should be null when fields is set")
	}
	encoded, err := encodeState(membershipsDef.attrs, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, unchosen := range []string{"Zoë 東京 🚀", "Because", "x_future"} {
		if bytes.Contains(encoded, []byte(unchosen)) {
			t.Errorf("the state holds %q, which only unchosen attributes have", unchosen)
		}
	}
}

// encodeState is both passes of the server's encoding in one call.
func encodeState(attrs []tfattr.Attr, state any) ([]byte, error) {
	n, err := tfattr.EncodedSize(attrs, state)
	if err != nil {
		return nil, err
	}
	return tfattr.EncodeSized(attrs, state, n)
}

// BenchmarkEncodeMemberships100k reads 100,000 memberships from the sandbox
// once, then measures encoding them to the state's msgpack, reporting the
// encoded size and the heap the records and the encoding hold.
func BenchmarkEncodeMemberships100k(b *testing.B) {
	sb, url := sandbox.StartForTest(b, sandbox.Options{Seed: 7, Memberships: 100_000})
	c := testClient(b, client.Config{BaseURL: url, Token: sandbox.DefaultToken})
	state, _, err := membershipsDef.readChecked(context.Background(), c, emptyConfig(membershipsDef), maxResultBytes)
	if err != nil {
		b.Fatal(err)
	}
	sb.Close()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	b.Logf("heap after reading 100,000 records: %.0f MB", float64(m.HeapAlloc)/(1<<20))
	b.ReportAllocs()
	var size int
	for b.Loop() {
		out, err := encodeState(membershipsDef.attrs, state)
		if err != nil {
			b.Fatal(err)
		}
		size = len(out)
	}
	b.ReportMetric(float64(size)/(1<<20), "MB-msgpack")
}
