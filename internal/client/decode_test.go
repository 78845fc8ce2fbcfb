package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
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
	sb, base := startSandbox(t, sandbox.Options{Seed: 7, Memberships: 300, Payments: 120, Groups: 40, OrgMetrics: 30})
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
	_, base := startSandbox(t, sandbox.Options{Memberships: 20, Payments: 20, Groups: 20, OrgMetrics: 20})
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

func TestHandWrittenRecords(t *testing.T) {
	t.Parallel()
	page := `[
	  {"_id":"a","email":null,"status":75,"external_id":null,"rebilling_date":null,
	   "profile":{"first_name":"Ann","last_name":null,"address":{ "line1" : "1 Main St",  "city":"Åre", "geo":[1.5, 2] },
	              "unknown_nested":{"x":1}},
	   "custom_answers":[
	     {"question_id":"q1","question":"Size?","answer":"M"},
	     {"question_id":"q2","question":"Count?","answer":12.50},
	     {"question_id":"q3","question":"Agree?","answer":true},
	     {"question_id":"q4","question":"Pick","answer":[ "a", {"b" : null} ]},
	     {"question_id":"q5","question":"Obj","answer":{ "k" : "v" }},
	     {"question_id":"q6","question":"None","answer":null},
	     {"question_id":"q7","question":"Quote","answer":"say \"hi\"\n<b>&amp;</b>"},
	     {"question_id":"q8"}
	   ],
	   "brand_new_field":{"deep":[1,2,3]}, "another": 5},
	  {"_id":"b","profile":{"address":"12 High Street, Leeds"},"custom_answers":[]},
	  {"_id":"c","profile":null,"custom_answers":null,"status":null},
	  {"_id":"d"},
	  {"_id":"a","email":"dup-on-same-page@example.com"}
	]`
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, []byte(page)) })
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{KeepRaw: true}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "records", membershipIDs(ms), []string{"a", "b", "c", "d"})
	a, b, cc, d := ms[0], ms[1], ms[2], ms[3]
	if a.Email != nil || a.ExternalID != nil || a.RebillingDate != nil || a.Status == nil || *a.Status != 75 {
		t.Fatalf("record a: %+v", a)
	}
	if a.Profile == nil || deref(a.Profile.FirstName) != "Ann" || a.Profile.LastName != nil || a.Profile.Company != nil {
		t.Fatalf("profile a: %+v", a.Profile)
	}
	if got := string(*a.Profile.Address); got != `{"line1":"1 Main St","city":"Åre","geo":[1.5,2]}` {
		t.Fatalf("address object text %q", got)
	}
	wantAnswers := []*string{strp("M"), strp("12.50"), strp("true"), strp(`["a",{"b":null}]`), strp(`{"k":"v"}`), nil, strp("say \"hi\"\n<b>&amp;</b>"), nil}
	got := *a.CustomAnswers
	if len(got) != len(wantAnswers) {
		t.Fatalf("%d answers", len(got))
	}
	for i, w := range wantAnswers {
		switch {
		case w == nil && got[i].Answer != nil:
			t.Errorf("answer %d = %q, want nil", i, *got[i].Answer)
		case w != nil && (got[i].Answer == nil || string(*got[i].Answer) != *w):
			t.Errorf("answer %d = %v, want %q", i, got[i].Answer, *w)
		}
	}
	if deref(got[7].QuestionID) != "q8" || got[7].Question != nil {
		t.Errorf("answer 8: %+v", got[7])
	}
	if b.Profile == nil || b.Profile.Address == nil || string(*b.Profile.Address) != "12 High Street, Leeds" {
		t.Fatalf("string address: %+v", b.Profile)
	}
	if b.CustomAnswers == nil || len(*b.CustomAnswers) != 0 {
		t.Fatalf("empty custom answers must be an empty list, not nil")
	}
	if cc.Profile != nil || cc.CustomAnswers != nil || cc.Status != nil {
		t.Fatalf("record c nulls: %+v", cc)
	}
	if d.Profile != nil || d.CustomAnswers != nil || d.Email != nil || d.Joined != nil {
		t.Fatalf("record d absent fields: %+v", d)
	}
	// The first occurrence of a is the one kept.
	if a.Email != nil || !strings.Contains(a.RawJSON, "brand_new_field") {
		t.Fatalf("the duplicate replaced the first record")
	}
}

func strp(s string) *string { return &s }

func TestPaymentsAndGroupsDecoding(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		switch {
		case strings.HasSuffix(a.path, "/payments"):
			writeJSON(w, []byte(`[{"_id":"p1","membership_ids":["m1",null],"subtotal":10000,"total":12000,"status":100,"currency":"usd","new":1},
				{"_id":"p2","membership_ids":null,"subtotal":null}]`))
		default:
			writeJSON(w, []byte(`[{"_id":"g1","name":"Board"},{"id":"g2","name":"Volunteers","organization_id":"o"},{"name":"no id"},{"name":"no id"},{"id":"g2","name":"dup"}]`))
		}
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	ps, err := c.Payments(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 || *ps[0].Subtotal != 10000 || *ps[0].Total != 12000 || deref(ps[0].Currency) != "usd" {
		t.Fatalf("payments %+v", ps)
	}
	ids := *ps[0].MembershipIDs
	if len(ids) != 2 || deref(ids[0]) != "m1" || ids[1] != nil {
		t.Fatalf("membership_ids %v", ids)
	}
	if ps[1].MembershipIDs != nil || ps[1].Subtotal != nil || ps[1].Total != nil {
		t.Fatalf("payment nulls %+v", ps[1])
	}
	gs, err := c.Groups(context.Background(), ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// g2 by its "id"; the two identical id-less records are both kept:
	// without an id, nothing says they are one record.
	if len(gs) != 4 {
		t.Fatalf("%d groups: %v", len(gs), groupIDs(gs))
	}
	if deref(gs[0].GroupID()) != "g1" || deref(gs[1].GroupID()) != "g2" || gs[2].GroupID() != nil || gs[3].GroupID() != nil ||
		deref(gs[1].Name) != "Volunteers" || deref(gs[3].Name) != "no id" {
		t.Fatalf("groups %v", groupIDs(gs))
	}
}

func TestJSONTextUnmarshal(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`"plain"`:              "plain",
		`"esc\u00e9\"\\"`:      `escé"\`,
		`""`:                   "",
		`0`:                    "0",
		`-1.25e3`:              "-1.25e3",
		`false`:                "false",
		`[ 1 , 2 ]`:            "[1,2]",
		"{\n \"a\" : [ ] \n}":  `{"a":[]}`,
		`{"x":"<&>"}`:          `{"x":"<&>"}`,
		`{"n":null , "m":{} }`: `{"n":null,"m":{}}`,
	}
	for in, want := range cases {
		var jt JSONText
		if err := json.Unmarshal([]byte(in), &jt); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if string(jt) != want {
			t.Errorf("%s → %q, want %q", in, jt, want)
		}
	}
	var p *JSONText
	if err := json.Unmarshal([]byte(`null`), &p); err != nil || p != nil {
		t.Errorf("null → %v, %v", p, err)
	}
}

func TestNonJSONPage(t *testing.T) {
	t.Parallel()
	for _, page := range []int{1, 3} {
		sb, base := startSandbox(t, sandbox.Options{Memberships: 50, OrgMetrics: 50, Faults: sandbox.Faults{NonJSONPage: page}})
		c := newClient(t, Config{BaseURL: base})
		ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 10}})
		if ms != nil {
			t.Fatal("partial result")
		}
		requirePageError(t, err, "memberships", page)
		if !strings.Contains(err.Error(), "not JSON") || !strings.Contains(err.Error(), "<!DOCTYPE html>") {
			t.Fatalf("error does not describe the HTML body: %v", err)
		}
		om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 10})
		if om != nil {
			t.Fatal("partial result")
		}
		requirePageError(t, err, "org_metrics", page)
		// A 200 with a bad body is not retried.
		for _, r := range sb.RequestLog() {
			if r.Query.Get("page") == "1" && page != 1 && r.Status != 200 {
				t.Fatalf("unexpected %+v", r)
			}
		}
	}
}

func TestTruncatedPage(t *testing.T) {
	t.Parallel()
	_, base := startSandbox(t, sandbox.Options{Memberships: 30, Payments: 30, Groups: 30, OrgMetrics: 30, Faults: sandbox.Faults{TruncatedPage: 2}})
	c := newClient(t, Config{BaseURL: base})
	ctx := context.Background()
	opts := ListOptions{PageSize: 10}
	ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: opts})
	if ms != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "memberships", 2)
	_, err = c.Payments(ctx, opts)
	requirePageError(t, err, "payments", 2)
	_, err = c.Groups(ctx, opts)
	requirePageError(t, err, "groups", 2)
	_, err = c.OrgMetrics(ctx, opts)
	requirePageError(t, err, "org_metrics", 2)
}

func TestBodyOverCap(t *testing.T) {
	t.Parallel()
	sb, base := startSandbox(t, sandbox.Options{Memberships: 40})
	c := newClient(t, Config{BaseURL: base, MaxBodyBytes: 4096})
	ms, err := c.Memberships(context.Background(), MembershipQuery{})
	if ms != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "memberships", 1)
	if !strings.Contains(err.Error(), "larger than 4096 bytes") {
		t.Fatalf("error %v", err)
	}
	if n := sb.Requests("memberships"); n != 1 {
		t.Fatalf("an oversized body was retried: %d requests", n)
	}
	// Without a Content-Length (chunked), the cap holds while reading.
	chunked := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("["))
		w.(http.Flusher).Flush()
		_, _ = w.Write([]byte(strings.Repeat(`{"_id":"x"},`, 1000) + `{"_id":"y"}]`))
	})
	c4 := newClient(t, Config{BaseURL: chunked.URL, Token: testToken, MaxBodyBytes: 4096})
	_, err = c4.Memberships(context.Background(), MembershipQuery{})
	requirePageError(t, err, "memberships", 1)
	if !strings.Contains(err.Error(), "larger than 4096 bytes") || chunked.count() != 1 {
		t.Fatalf("chunked body over the cap: %v after %d requests", err, chunked.count())
	}
	// A body at the cap exactly is fine.
	body := arrayOf(syntheticIDs(3))
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, body) })
	c2 := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxBodyBytes: int64(len(body))})
	if ms, err := c2.Memberships(context.Background(), MembershipQuery{}); err != nil || len(ms) != 3 {
		t.Fatalf("%d, %v", len(ms), err)
	}
	c3 := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxBodyBytes: int64(len(body) - 1)})
	if _, err := c3.Memberships(context.Background(), MembershipQuery{}); err == nil {
		t.Fatal("one byte over the cap accepted")
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

func TestHostileCountBodies(t *testing.T) {
	t.Parallel()
	for _, tc := range hostileCountBodies {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			// The hostile body comes on page 2, after a good full page 1, so a
			// partial list would be possible.
			api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
				if a.page == 1 {
					writeJSON(w, arrayOf([]string{"p1-a", "p1-b"}))
					return
				}
				writeJSON(w, []byte(tc.body))
			})
			c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
			ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 2}})
			if ms != nil {
				t.Fatalf("partial list of %d records with error %v", len(ms), err)
			}
			requirePageError(t, err, "memberships", 2)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
		})
	}
}

func TestHostileMetadataBodies(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, body, want string }{
		{"array", `[{"metric_period_key":1}]`, "expected a JSON object, got a JSON array"},
		{"html", `<!doctype html><p>hi</p>`, "not JSON"},
		{"no totalPages", `{"results":[],"page":1,"limit":100}`, "no totalPages"},
		{"no page", `{"results":[],"limit":100,"totalPages":0}`, "no page number"},
		{"no results", `{"page":1,"limit":100,"totalPages":0}`, "no results array"},
		{"results object", `{"results":{},"page":1,"limit":100,"totalPages":1}`, "expected a JSON array"},
		{"results of numbers", `{"results":[1],"page":1,"limit":100,"totalPages":1}`, "results: record 1: expected a JSON object"},
		{"totalPages 0 with results", `{"results":[{"metric_period_key":1}],"page":1,"limit":100,"totalPages":0}`, "totalPages is 0 but the page holds 1 results"},
		{"negative totalPages", `{"results":[],"page":1,"limit":100,"totalPages":-2}`, "negative"},
		{"totalPages string", `{"results":[],"page":1,"limit":100,"totalPages":"3"}`, `field "totalPages"`},
		{"wrong field type", `{"results":[{"active_memberships":"12"}],"page":1,"limit":100,"totalPages":1}`, `field "active_memberships"`},
		{"trailing garbage", `{"results":[],"page":1,"limit":100,"totalPages":0}xx`, "malformed"},
		{"truncated", `{"results":[{"metric_period_key":1}],"pa`, "truncated"},
		{"wrong page", `{"results":[],"page":2,"limit":100,"totalPages":0}`, "answered page 2 when page 1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, []byte(tc.body)) })
			c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
			om, err := c.OrgMetrics(context.Background(), ListOptions{})
			if om != nil {
				t.Fatalf("result with error %v", err)
			}
			requirePageError(t, err, "org_metrics", 1)
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
			// A 200 that is not a page is retried, as a 5xx is (the answer
			// of a moment: a maintenance page, a cut body); a page that
			// names another page is a server not advancing, not retried.
			attempts := 1 + DefaultMaxRetries
			if errors.Is(err, ErrNotAdvancing) {
				attempts = 1
			} else if !strings.Contains(err.Error(), "is not a page") {
				t.Fatalf("error %q does not say the answer is not a page", err)
			}
			if api.count() != attempts {
				t.Fatalf("%d requests, want %d", api.count(), attempts)
			}
		})
	}
}

// A field of the wrong type: the message names the field, what came and
// what was expected, in JSON terms.
func TestWrongFieldTypeMessage(t *testing.T) {
	t.Parallel()
	cases := []struct{ body, field, got, want string }{
		{`[{"_id":"a","status":"100"}]`, `"status"`, "string", "integer"},
		{`[{"_id":"a","email":5}]`, `"email"`, "number", "string"},
		{`[{"_id":"a","status":true}]`, `"status"`, "boolean", "integer"},
		{`[{"_id":"a","display_name":{"x":1}}]`, `"display_name"`, "object", "string"},
		{`[{"_id":"a","joined":[1]}]`, `"joined"`, "array", "string"},
	}
	for _, tc := range cases {
		api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) { writeJSON(w, []byte(tc.body)) })
		c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
		_, err := c.Memberships(context.Background(), MembershipQuery{})
		requirePageError(t, err, "memberships", 1)
		msg := err.Error()
		i := strings.Index(msg, "field "+tc.field)
		if i < 0 {
			t.Errorf("%s: message %q does not name field %s", tc.body, msg, tc.field)
			continue
		}
		rest := msg[i:]
		gi, wi := strings.Index(rest, tc.got), strings.LastIndex(rest, tc.want)
		if gi < 0 || wi < 0 || gi > wi {
			t.Errorf("%s: message %q should say it got a %s and wanted a %s", tc.body, msg, tc.got, tc.want)
		}
		if strings.Contains(msg, "int64") || strings.Contains(msg, "Go struct") {
			t.Errorf("%s: message %q speaks Go, not JSON", tc.body, msg)
		}
	}
}

// A hostile page after good ones in a metadata read: nothing is returned.
func TestHostileMetadataLaterPage(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		if a.page == 3 {
			writeJSON(w, []byte(`{"results":[{"metric_period_key":"x"}],"page":3,"limit":1,"totalPages":4}`))
			return
		}
		writeJSON(w, metadataBody(a.page, 1, 4, a.page))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	om, err := c.OrgMetrics(context.Background(), ListOptions{PageSize: 1})
	if om != nil {
		t.Fatal("partial result")
	}
	requirePageError(t, err, "org_metrics", 3)
}

// A 200 with a non-JSON content type but a good JSON body is used: the
// body decides, not the header.
func TestContentTypeIsNotTrusted(t *testing.T) {
	t.Parallel()
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write(arrayOf([]string{"a"}))
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken})
	if ms, err := c.Memberships(context.Background(), MembershipQuery{}); err != nil || len(ms) != 1 {
		t.Fatalf("%d, %v", len(ms), err)
	}
}

// A JSON null where a list is expected is an empty list: servers that
// encode an empty slice send it (Go's encoding/json does). It ends a read
// like an empty page; an absent results array is still an error.
func TestNullIsAnEmptyList(t *testing.T) {
	t.Parallel()
	ids := syntheticIDs(5)
	api := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request, a arrival) {
		switch {
		case strings.HasSuffix(a.path, "/org_metrics"):
			writeJSON(w, []byte(`{"results":null,"page":1,"limit":100,"totalPages":0}`))
		case strings.HasSuffix(a.path, "/groups"):
			writeJSON(w, []byte(" null\n"))
		case a.page == 1:
			writeJSON(w, arrayOf(ids[:3]))
		case a.page == 2:
			writeJSON(w, arrayOf(ids[3:]))
		default:
			writeJSON(w, []byte("null"))
		}
	})
	c := newClient(t, Config{BaseURL: api.URL, Token: testToken, MaxConcurrency: 1})
	ms, err := c.Memberships(context.Background(), MembershipQuery{ListOptions: ListOptions{PageSize: 3}})
	if err != nil {
		t.Fatal(err)
	}
	equalIDs(t, "memberships", membershipIDs(ms), ids)
	gs, err := c.Groups(context.Background(), ListOptions{})
	if err != nil || len(gs) != 0 {
		t.Fatalf("groups: %d, %v", len(gs), err)
	}
	om, err := c.OrgMetrics(context.Background(), ListOptions{})
	if err != nil || len(om.Results) != 0 || om.TotalPages != 0 {
		t.Fatalf("org metrics: %+v, %v", om, err)
	}
}
