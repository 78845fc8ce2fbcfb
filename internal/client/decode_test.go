package client

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// checkAgainstRaw compares a decoded struct with the JSON object it came
// from: a field is nil exactly when the JSON value is null or absent, and
// otherwise holds the JSON value.
func checkAgainstRaw(t *testing.T, where string, raw json.RawMessage, v reflect.Value) {
	t.Helper()
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	typ := v.Type()
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := strings.Split(f.Tag.Get("json"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		jv, present := obj[tag]
		isNull := !present || string(jv) == "null"
		fv := v.Field(i)
		if fv.Kind() != reflect.Pointer {
			t.Fatalf("%s.%s is not a pointer", where, f.Name)
		}
		if fv.IsNil() != isNull {
			t.Fatalf("%s.%s: nil=%v, JSON %s", where, tag, fv.IsNil(), jv)
		}
		if isNull {
			continue
		}
		elem := fv.Elem()
		switch {
		case elem.Type() == reflect.TypeFor[JSONText]():
			want := jsonTextOf(t, jv)
			if got, _ := elem.Interface().(JSONText); string(got) != want {
				t.Fatalf("%s.%s = %q, want %q", where, tag, elem.Interface(), want)
			}
		case elem.Kind() == reflect.Struct:
			checkAgainstRaw(t, where+"."+tag, jv, elem)
		case elem.Kind() == reflect.Slice && elem.Type().Elem().Kind() == reflect.Struct:
			var items []json.RawMessage
			if err := json.Unmarshal(jv, &items); err != nil {
				t.Fatal(err)
			}
			if elem.Len() != len(items) {
				t.Fatalf("%s.%s: %d items, JSON has %d", where, tag, elem.Len(), len(items))
			}
			for j := range items {
				checkAgainstRaw(t, where+"."+tag, items[j], elem.Index(j))
			}
		default:
			want := reflect.New(elem.Type())
			if err := json.Unmarshal(jv, want.Interface()); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(elem.Interface(), want.Elem().Interface()) {
				t.Fatalf("%s.%s = %v, want %v", where, tag, elem.Interface(), want.Elem().Interface())
			}
		}
	}
}

// jsonTextOf is what a JSONText must hold for a JSON value: a string's
// value, or compact JSON for anything else.
func jsonTextOf(t *testing.T, jv json.RawMessage) string {
	t.Helper()
	var s string
	if err := json.Unmarshal(jv, &s); err == nil {
		return s
	}
	var b bytes.Buffer
	if err := json.Compact(&b, jv); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestSandboxRecordsDecodeFaithfully(t *testing.T) {
	t.Parallel()
	sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: 7, Memberships: 300, Payments: 120, Groups: 40, OrgMetrics: 30})
	c := newClient(t, Config{BaseURL: base})
	ctx := context.Background()
	ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{KeepRaw: true}})
	if err != nil {
		t.Fatal(err)
	}
	raws := sb.MembershipsJSON(nil)
	if len(ms) != len(raws) {
		t.Fatalf("%d memberships", len(ms))
	}
	var nullEmail, nullExternal, nullAddress, addressObject, answers, unknownStatus int
	for i := range ms {
		checkAgainstRaw(t, "membership", raws[i], reflect.ValueOf(ms[i]))
		m := ms[i]
		if m.Email == nil {
			nullEmail++
		}
		if m.ExternalID == nil {
			nullExternal++
		}
		if m.Profile != nil && m.Profile.Address == nil {
			nullAddress++
		}
		if m.Profile != nil && m.Profile.Address != nil {
			addressObject++
			if !json.Valid([]byte(*m.Profile.Address)) || !strings.HasPrefix(string(*m.Profile.Address), "{") {
				t.Fatalf("address %q is not compact JSON object text", *m.Profile.Address)
			}
		}
		if m.CustomAnswers != nil && len(*m.CustomAnswers) > 0 {
			answers++
		}
		if m.Status != nil && *m.Status == 999 {
			unknownStatus++
		}
	}
	// The data set has every awkward case; make sure the check saw them.
	if nullEmail == 0 || nullExternal == 0 || nullAddress == 0 || addressObject == 0 || answers == 0 || unknownStatus == 0 {
		t.Fatalf("data set lacks cases: null email %d, null external_id %d, null address %d, address %d, answers %d, status 999 %d",
			nullEmail, nullExternal, nullAddress, addressObject, answers, unknownStatus)
	}
	// Unicode survives.
	found := false
	for _, m := range ms[:12] {
		if m.CustomAnswers == nil {
			continue
		}
		for _, a := range *m.CustomAnswers {
			if a.Answer != nil && string(*a.Answer) == "東京 — Zoë 🎉" {
				found = true
			}
		}
	}
	if !found {
		t.Fatal("the unicode custom answer of record 4 was not decoded as sent")
	}

	ps, err := c.Payments(ctx, ListOptions{KeepRaw: true})
	if err != nil {
		t.Fatal(err)
	}
	praws := sb.PaymentsJSON()
	for i := range ps {
		checkAgainstRaw(t, "payment", praws[i], reflect.ValueOf(ps[i]))
		if ps[i].RawJSON != string(praws[i]) {
			t.Fatalf("payment %d RawJSON", i)
		}
	}
	gs, err := c.Groups(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	graws := sb.GroupsJSON()
	for i := range gs {
		checkAgainstRaw(t, "group", graws[i], reflect.ValueOf(gs[i]))
		if gs[i].RawJSON != string(graws[i]) {
			t.Fatalf("group %d: RawJSON not kept without KeepRaw", i)
		}
	}
	om, err := c.OrgMetrics(ctx, ListOptions{KeepRaw: true})
	if err != nil {
		t.Fatal(err)
	}
	mraws := sb.OrgMetricsJSON()
	for i := range om.Results {
		checkAgainstRaw(t, "org metric", mraws[i], reflect.ValueOf(om.Results[i]))
	}
}

func TestRawJSONOnlyWhenAsked(t *testing.T) {
	t.Parallel()
	_, base := sandbox.StartForTest(t, sandbox.Options{Memberships: 20, Payments: 20, Groups: 20, OrgMetrics: 20})
	c := newClient(t, Config{BaseURL: base})
	ctx := context.Background()
	ms, err := c.Memberships(ctx, MembershipQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.RawJSON != "" {
			t.Fatal("membership RawJSON kept without KeepRaw")
		}
	}
	ps, err := c.Payments(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if p.RawJSON != "" {
			t.Fatal("payment RawJSON kept without KeepRaw")
		}
	}
	om, err := c.OrgMetrics(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range om.Results {
		if m.RawJSON != "" {
			t.Fatal("org metric RawJSON kept without KeepRaw")
		}
	}
	gs, err := c.Groups(ctx, ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range gs {
		if g.RawJSON == "" || !json.Valid([]byte(g.RawJSON)) {
			t.Fatal("group RawJSON must always be kept")
		}
	}
	// KeepRaw on: exactly the bytes sent, per record.
	ms, err = c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{KeepRaw: true}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !strings.HasPrefix(m.RawJSON, `{"_id":"`+deref(m.ID)+`"`) {
			t.Fatalf("RawJSON %q", m.RawJSON[:min(len(m.RawJSON), 60)])
		}
	}
}

// hostileCases are bodies a count-style page can come back with, with a
// piece of the message each must produce.
var hostileCountBodies = []struct {
	name, body, want string
}{

	{"empty body", ``, "empty"},
	{"whitespace", " \n\t", "empty"},
	{"html", `<html><body>Bad gateway</body></html>`, "not JSON"},
	{"object", `{"data":[{"_id":"a"}]}`, "expected a JSON array, got a JSON object"},
	{"string", `"[]"`, "got a JSON string"},
	{"number", `42`, "got a number"},
	{"array of numbers", `[1,2,3]`, "record 1: expected a JSON object, got a number"},
	{"array with a string", `[{"_id":"a"},"b"]`, "record 2: expected a JSON object, got a JSON string"},
	{"array of arrays", `[[{"_id":"a"}]]`, "got a JSON array"},
	{"array with null", `[{"_id":"a"},null]`, "record 2: expected a JSON object, got null"},
	{"status as string", `[{"_id":"a","status":"100"}]`, `field "status"`},
	{"email as number", `[{"_id":"a","email":5}]`, `field "email"`},
	{"nested wrong type", `[{"_id":"a","profile":{"first_name":true}}]`, `first_name`},
	{"profile as string", `[{"_id":"a","profile":"x"}]`, `field "profile"`},
	{"custom answers as object", `[{"_id":"a","custom_answers":{}}]`, `field "custom_answers"`},
	{"id as number", `[{"_id":17}]`, `field "_id"`},
	{"trailing garbage", `[{"_id":"a"}] <html>`, "unexpected data after the JSON array"},
	{"two arrays", `[{"_id":"a"}][{"_id":"b"}]`, "unexpected data after the JSON array"},
	{"truncated", `[{"_id":"a"},{"_id":"b","ema`, "truncated"},
	{"unterminated", `[{"_id":"a"}`, "truncated"},
	{"bad syntax", `[{"_id":"a"},,]`, "malformed JSON"},
	{"trailing comma", `[{"_id":"a"},]`, "malformed"},
	{"float status", `[{"_id":"a","status":1.5}]`, `field "status"`},
	{"huge status", `[{"_id":"a","status":1e30}]`, `field "status"`},
}
