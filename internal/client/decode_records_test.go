package client

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

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
