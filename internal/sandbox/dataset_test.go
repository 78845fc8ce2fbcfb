package sandbox

import (
	"bytes"
	"encoding/json"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

var (
	hexID     = regexp.MustCompile(`^[0-9a-f]{24}$`)
	timestamp = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
)

// fields decodes a record into its top-level fields.
func fields(t *testing.T, r json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(r, &m); err != nil {
		t.Fatalf("record is not a JSON object: %v: %s", err, r)
	}
	return m
}

func isNull(r json.RawMessage) bool { return string(r) == "null" }

func checkTimestamp(t *testing.T, name string, r json.RawMessage, nullable bool) {
	t.Helper()
	if isNull(r) {
		if !nullable {
			t.Fatalf("%s is null", name)
		}
		return
	}
	var s string
	if err := json.Unmarshal(r, &s); err != nil || !timestamp.MatchString(s) {
		t.Fatalf("%s = %s, want an ISO 8601 UTC timestamp with milliseconds", name, r)
	}
	if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
		t.Fatalf("%s = %s: %v", name, s, err)
	}
}

func TestDeterminism(t *testing.T) {
	t.Parallel()
	opts := Options{Seed: 42, Memberships: 3000, Payments: 300, Groups: 20, OrgMetrics: 30}
	_, a := StartForTest(t, opts)
	_, b := StartForTest(t, opts)
	opts.Seed = 43
	_, c := StartForTest(t, opts)
	for ep, p := range paths {
		for _, query := range []string{"count=1000&page=3", "limit=100&page=1", "status=100&count=7&page=2"} {
			v := mustQuery(query)
			ra, rb, rc := get(t, a, p, v), get(t, b, p, v), get(t, c, p, v)
			if !bytes.Equal(ra.body, rb.body) {
				t.Fatalf("%s?%s: same seed, different bytes", ep, query)
			}
			if bytes.Contains(ra.body, []byte("organization_id")) && bytes.Equal(ra.body, rc.body) {
				t.Fatalf("%s?%s: different seeds, same bytes", ep, query)
			}
		}
	}
}

func mustQuery(s string) url.Values {
	v, err := url.ParseQuery(s)
	if err != nil {
		panic(err)
	}
	return v
}

func TestMembershipShape(t *testing.T) {
	t.Parallel()
	s := New(Options{Seed: 3, Memberships: 600, Payments: 1})
	recs := s.MembershipsJSON(nil)
	if len(recs) != 600 {
		t.Fatalf("%d memberships", len(recs))
	}
	required := []string{"_id", "organization_id", "external_id", "email", "display_name", "membership_type",
		"membership_name", "status", "joined", "expiration_date", "rebilling_date", "created", "updated",
		"customer_id", "subscription_id", "profile_pic_crop", "profile", "custom_answers", "x_sandbox_extra"}
	profileFields := []string{"first_name", "last_name", "company", "phone", "job_title", "birthday",
		"gender", "facebook", "twitter", "linkedin", "address"}

	ids := map[string]bool{}
	orgs := map[string]bool{}
	emails := map[string]int{}
	typeNames := map[string]string{}
	statuses := map[int]int{}
	var nullEmail, nullExpiry, nullRebill, nullExternal, absentPic, nullAddress, unicode int
	for _, r := range recs {
		m := fields(t, r)
		for _, f := range required {
			if _, ok := m[f]; !ok {
				t.Fatalf("membership lacks %q: %s", f, r)
			}
		}
		var id, org, typ, name string
		var status int
		json.Unmarshal(m["_id"], &id)
		json.Unmarshal(m["organization_id"], &org)
		json.Unmarshal(m["membership_type"], &typ)
		json.Unmarshal(m["membership_name"], &name)
		json.Unmarshal(m["status"], &status)
		if !hexID.MatchString(id) || ids[id] {
			t.Fatalf("bad or duplicate _id %q", id)
		}
		ids[id] = true
		orgs[org] = true
		if prev, ok := typeNames[typ]; ok && prev != name {
			t.Fatalf("membership_type %s named both %q and %q", typ, prev, name)
		}
		typeNames[typ] = name
		statuses[status]++
		for _, f := range []string{"joined", "created", "updated"} {
			checkTimestamp(t, f, m[f], false)
		}
		for _, f := range []string{"expiration_date", "rebilling_date"} {
			checkTimestamp(t, f, m[f], true)
		}
		if isNull(m["email"]) {
			nullEmail++
		} else {
			var e string
			json.Unmarshal(m["email"], &e)
			emails[e]++
		}
		if isNull(m["expiration_date"]) {
			nullExpiry++
		}
		if isNull(m["rebilling_date"]) {
			nullRebill++
		}
		if isNull(m["external_id"]) {
			nullExternal++
		}
		if _, ok := m["profile_pic"]; !ok {
			absentPic++
		}
		if !isNull(m["profile_pic_crop"]) {
			t.Fatalf("profile_pic_crop = %s, want null", m["profile_pic_crop"])
		}
		p := fields(t, m["profile"])
		for _, f := range profileFields {
			if _, ok := p[f]; !ok {
				t.Fatalf("profile lacks %q: %s", f, m["profile"])
			}
		}
		checkTimestamp(t, "profile.birthday", p["birthday"], true)
		if isNull(p["address"]) {
			nullAddress++
		} else {
			a := fields(t, p["address"])
			for _, f := range []string{"line1", "city", "postal_code", "country"} {
				if _, ok := a[f]; !ok {
					t.Fatalf("address lacks %q", f)
				}
			}
		}
		var answers []struct {
			QuestionID *string `json:"question_id"`
			Question   *string `json:"question"`
			Answer     *string `json:"answer"`
		}
		if err := json.Unmarshal(m["custom_answers"], &answers); err != nil || answers == nil || len(answers) > 3 {
			t.Fatalf("custom_answers = %s", m["custom_answers"])
		}
		for _, a := range answers {
			if a.QuestionID == nil || a.Question == nil || a.Answer == nil {
				t.Fatalf("custom answer lacks a field: %s", m["custom_answers"])
			}
			if strings.ContainsAny(*a.Answer, "東ëé🎉🌱") {
				unicode++
			}
		}
		if string(m["x_sandbox_extra"]) != `{"note":"unknown field","rev":1}` {
			t.Fatalf("x_sandbox_extra = %s", m["x_sandbox_extra"])
		}
	}
	if len(orgs) != 1 {
		t.Fatalf("%d organization ids, want 1", len(orgs))
	}
	if len(typeNames) != 4 {
		t.Fatalf("membership types %v, want 4", typeNames)
	}
	for _, st := range []int{50, 75, 100, 300, 350, 999} {
		if statuses[st] == 0 {
			t.Fatalf("no membership with status %d: %v", st, statuses)
		}
		if st != 100 && statuses[st] >= statuses[100] {
			t.Fatalf("status %d as common as 100: %v", st, statuses)
		}
	}
	dups := 0
	for _, n := range emails {
		if n > 1 {
			dups++
		}
	}
	for name, n := range map[string]int{"null email": nullEmail, "duplicated email": dups, "null expiration_date": nullExpiry,
		"null rebilling_date": nullRebill, "null external_id": nullExternal, "absent profile_pic": absentPic,
		"null address": nullAddress, "unicode answer": unicode} {
		if n == 0 {
			t.Errorf("no %s in 600 memberships", name)
		}
	}
}

// With 12 records every status, a null and a duplicated e-mail are present
// whatever the seed.
func TestSmallSetHasEveryCase(t *testing.T) {
	t.Parallel()
	for seed := range int64(20) {
		s := New(Options{Seed: seed, Memberships: 12})
		seen := map[int]int{}
		emails := map[string]int{}
		nullEmail := false
		for _, r := range s.MembershipsJSON(nil) {
			var m struct {
				Status int     `json:"status"`
				Email  *string `json:"email"`
			}
			json.Unmarshal(r, &m)
			seen[m.Status]++
			if m.Email == nil {
				nullEmail = true
			} else {
				emails[*m.Email]++
			}
		}
		if len(seen) != 6 || seen[100] < 2 {
			t.Fatalf("seed %d: statuses %v", seed, seen)
		}
		dup := false
		for _, n := range emails {
			dup = dup || n > 1
		}
		if !nullEmail || !dup {
			t.Fatalf("seed %d: null e-mail %v, duplicated e-mail %v", seed, nullEmail, dup)
		}
	}
}

func TestOtherRecordShapes(t *testing.T) {
	t.Parallel()
	s := New(Options{Seed: 5, Memberships: 50, Payments: 200, Groups: 25, OrgMetrics: 30})
	memberIDs := map[string]bool{}
	for _, r := range s.MembershipsJSON(nil) {
		var m struct {
			ID string `json:"_id"`
		}
		json.Unmarshal(r, &m)
		memberIDs[m.ID] = true
	}
	ids := map[string]bool{}
	checkID := func(r json.RawMessage) {
		var id string
		json.Unmarshal(r, &id)
		if !hexID.MatchString(id) || ids[id] {
			t.Fatalf("bad or duplicate _id %q", id)
		}
		ids[id] = true
	}
	for _, r := range s.PaymentsJSON() {
		m := fields(t, r)
		for _, f := range []string{"_id", "organization_id", "member_id", "membership_ids", "channel", "status",
			"currency", "subtotal", "total", "payment_date", "created", "updated", "x_sandbox_extra"} {
			if _, ok := m[f]; !ok {
				t.Fatalf("payment lacks %q: %s", f, r)
			}
		}
		checkID(m["_id"])
		var p struct {
			MembershipIDs []string `json:"membership_ids"`
			Status        int      `json:"status"`
			Currency      string   `json:"currency"`
			Subtotal      int      `json:"subtotal"`
			Total         int      `json:"total"`
		}
		if err := json.Unmarshal(r, &p); err != nil {
			t.Fatal(err)
		}
		if len(p.MembershipIDs) == 0 || p.Total < p.Subtotal || p.Subtotal <= 0 || len(p.Currency) != 3 {
			t.Fatalf("implausible payment %s", r)
		}
		for _, id := range p.MembershipIDs {
			if !memberIDs[id] {
				t.Fatalf("payment references unknown membership %s", id)
			}
		}
		for _, f := range []string{"payment_date", "created", "updated"} {
			checkTimestamp(t, f, m[f], false)
		}
	}
	for _, r := range s.GroupsJSON() {
		m := fields(t, r)
		for _, f := range []string{"_id", "organization_id", "name", "description", "member_count", "created", "x_sandbox_extra"} {
			if _, ok := m[f]; !ok {
				t.Fatalf("group lacks %q: %s", f, r)
			}
		}
		checkID(m["_id"])
		checkTimestamp(t, "created", m["created"], false)
	}
	prev := 0
	for _, r := range s.OrgMetricsJSON() {
		var o struct {
			Org    string `json:"organization_id"`
			Key    int    `json:"metric_period_key"`
			Active *int   `json:"active_memberships"`
			Total  *int   `json:"total_memberships"`
			Extra  any    `json:"x_sandbox_extra"`
		}
		if err := json.Unmarshal(r, &o); err != nil || o.Org == "" || o.Active == nil || o.Total == nil || o.Extra == nil {
			t.Fatalf("bad org metrics record %s", r)
		}
		if o.Key <= prev || o.Key%100 < 1 || o.Key%100 > 12 {
			t.Fatalf("metric_period_key %d after %d", o.Key, prev)
		}
		if *o.Active > *o.Total {
			t.Fatalf("active %d > total %d", *o.Active, *o.Total)
		}
		prev = o.Key
	}
	if prev != 202606 {
		t.Fatalf("30th period is %d, want 202606", prev)
	}
}

func TestNegativeSizesMeanEmpty(t *testing.T) {
	t.Parallel()
	s := New(Options{Memberships: -1, Payments: -5})
	if len(s.MembershipsJSON(nil)) != 0 || len(s.PaymentsJSON()) != 0 {
		t.Fatal("negative sizes gave records")
	}
}

// Each membership is one person's: its display name is its profile's
// names, its e-mail is made of them (but the one member forced to have an
// e-mail), and memberships that share an e-mail are one person's.
func TestEveryMembershipIsOnePerson(t *testing.T) {
	t.Parallel()
	ascii := map[string]string{}
	for _, p := range append(append([]person{}, firstNames...), lastNames...) {
		ascii[p.name] = p.ascii
	}
	s := New(Options{Seed: 7, Memberships: 3000})
	byEmail := map[string]string{}
	for i, raw := range s.MembershipsJSON(nil) {
		var m struct {
			Email   *string `json:"email"`
			Display string  `json:"display_name"`
			Profile struct {
				First *string `json:"first_name"`
				Last  *string `json:"last_name"`
			} `json:"profile"`
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if m.Profile.First == nil || m.Profile.Last == nil || *m.Profile.First+" "+*m.Profile.Last != m.Display {
			t.Fatalf("membership %d: display name %q, profile %v %v", i, m.Display, m.Profile.First, m.Profile.Last)
		}
		if m.Email == nil {
			continue
		}
		if other, ok := byEmail[*m.Email]; ok && other != m.Display {
			t.Fatalf("membership %d: %s is %q's and %q's", i, *m.Email, other, m.Display)
		}
		byEmail[*m.Email] = m.Display
		want := ascii[*m.Profile.First] + "." + ascii[*m.Profile.Last]
		if !strings.HasPrefix(*m.Email, want) && *m.Email != "first.member@example.com" {
			t.Fatalf("membership %d: e-mail %s is not %s's (%s…)", i, *m.Email, m.Display, want)
		}
	}
}

// The latest org metrics period counts what the memberships hold: its
// active_memberships is the number of memberships of status 100, its
// total_memberships all of them, so a demo's two counts agree.
func TestLatestOrgMetricsCountTheMemberships(t *testing.T) {
	t.Parallel()
	s := New(Options{Seed: 5, Memberships: 500, OrgMetrics: 24})
	active := len(s.MembershipsJSON(ptr(100)))
	raws := s.RecordsJSON(EndpointOrgMetrics)
	var last struct {
		Active int `json:"active_memberships"`
		Total  int `json:"total_memberships"`
	}
	if err := json.Unmarshal(raws[len(raws)-1], &last); err != nil {
		t.Fatal(err)
	}
	if last.Active != active || last.Total != 500 {
		t.Fatalf("latest period: %d active of %d, the memberships: %d active of 500", last.Active, last.Total, active)
	}
}
