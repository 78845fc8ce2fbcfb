package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestAccMemberships_allPages(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 1, Memberships: 234})
	all := sb.MembershipsJSON(nil)
	var first struct {
		ID    string  `json:"_id"`
		Email *string `json:"email"`
	}
	if err := json.Unmarshal(all[0], &first); err != nil {
		t.Fatal(err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_memberships" "all" {
  page_size = 50
}
output "first_extra" {
  value = data.joinit_memberships.all.memberships[0].raw_json
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("memberships"), knownvalue.ListSizeExact(len(all))),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("ids"), knownvalue.ListSizeExact(len(all))),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("memberships").AtSliceIndex(0).AtMapKey("id"), knownvalue.StringExact(first.ID)),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("page_size"), knownvalue.Int64Exact(50)),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("include_records"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.joinit_memberships.all", tfjsonpath.New("memberships").AtSliceIndex(0).AtMapKey("raw_json"), knownvalue.Null()),
			},
		}},
	})
	// The list's size shows every record arrived; this shows they came as
	// page_size asked, 50 a page: pages 1 to 5 (the fifth short), each
	// requested with count=50. A read that ignored page_size would fetch
	// the same records as 1000 a page. The one other count is the end's
	// other question: a page holding the end (record 234) in its first half.
	pages := map[string]bool{}
	for _, rec := range sb.RequestLog() {
		if rec.Endpoint != sandbox.EndpointMemberships {
			continue
		}
		if got := rec.Query.Get("count"); got != "50" {
			page, _ := strconv.Atoi(rec.Query.Get("page"))
			count, _ := strconv.Atoi(got)
			if start := (page - 1) * count; start >= len(all) || 2*(len(all)-start) >= count {
				t.Errorf("page %d was requested with count=%d: neither 50 nor a page holding the end in its first half", page, count)
			}
			continue
		}
		pages[rec.Query.Get("page")] = true
	}
	for _, p := range []string{"1", "2", "3", "4", "5"} {
		if !pages[p] {
			t.Errorf("page %s was never requested (requested: %v)", p, pages)
		}
	}
}

// The status filter is the API's, and every status has its name. 60
// memberships hold every status (and 999, unknown) as the 300 this read did.
func TestAccMemberships_statusFilterAndNames(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 2, Memberships: 60})
	active := 100
	want := len(sb.MembershipsJSON(&active))
	if want == 0 {
		t.Fatal("the sandbox data set should hold active memberships")
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_memberships" "active" {
  status = 100
}
data "joinit_memberships" "all" {}
output "active_names" {
  value = distinct([for m in data.joinit_memberships.active.memberships : m.status_name])
}
output "all_names" {
  value = sort(distinct([for m in data.joinit_memberships.all.memberships : m.status_name]))
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.active", tfjsonpath.New("memberships"), knownvalue.ListSizeExact(want)),
				statecheck.ExpectKnownOutputValue("active_names", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("active")})),
				statecheck.ExpectKnownOutputValue("all_names", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact("active"), knownvalue.StringExact("cancelled"), knownvalue.StringExact("expired"),
					knownvalue.StringExact("pending"), knownvalue.StringExact("prospective"), knownvalue.StringExact("unknown"),
				})),
			},
		}},
	})
	for _, rec := range sb.RequestLog() {
		if rec.Endpoint == "memberships" && rec.Query.Get("status") != "" && rec.Query.Get("status") != "100" {
			t.Errorf("a filtered page was requested with status=%q", rec.Query.Get("status"))
		}
	}
}

// Raw JSON keeps what the provider does not model; the lean read's ids are
// the full read's, its e-mails distinct and sorted. 60 memberships (300 were
// one page too) hold repeated and missing e-mails.
func TestAccMemberships_rawJSONEmailsAndLeanRead(t *testing.T) {
	const n = 60
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 3, Memberships: n})
	emails, missing := map[string]bool{}, 0
	for _, r := range sb.MembershipsJSON(nil) {
		var m struct{ Email *string }
		if err := json.Unmarshal(r, &m); err != nil {
			t.Fatal(err)
		}
		if m.Email != nil {
			emails[*m.Email] = true
		} else {
			missing++
		}
	}
	// The emails list's size proves it drops missing e-mails and repeats
	// only while the data set has both: 60 records of seed 3 do.
	if missing == 0 || len(emails)+missing == n {
		t.Fatalf("seed 3's %d memberships have %d missing and %d distinct e-mails: no missing or no repeated e-mail to prove the list against", n, missing, len(emails))
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
data "joinit_memberships" "raw" {
  include_raw_json = true
}
data "joinit_memberships" "lean" {
  include_records = false
}
output "extra_note" {
  value = jsondecode(data.joinit_memberships.raw.memberships[0].raw_json).x_sandbox_extra.note
}
output "emails_sorted" {
  value = data.joinit_memberships.lean.emails == sort(data.joinit_memberships.lean.emails)
}
output "ids_match" {
  value = data.joinit_memberships.lean.ids == data.joinit_memberships.raw.memberships[*].id
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("extra_note", knownvalue.StringExact("unknown field")),
				statecheck.ExpectKnownOutputValue("emails_sorted", knownvalue.Bool(true)),
				statecheck.ExpectKnownOutputValue("ids_match", knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.joinit_memberships.lean", tfjsonpath.New("memberships"), knownvalue.Null()),
				statecheck.ExpectKnownValue("data.joinit_memberships.lean", tfjsonpath.New("emails"), knownvalue.ListSizeExact(len(emails))),
				statecheck.ExpectKnownValue("data.joinit_memberships.lean", tfjsonpath.New("ids"), knownvalue.ListSizeExact(n)),
			},
		}},
	})
}

func TestAccMemberships_empty(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 4, Memberships: 0})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `data "joinit_memberships" "none" {}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.none", tfjsonpath.New("memberships"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.joinit_memberships.none", tfjsonpath.New("ids"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.joinit_memberships.none", tfjsonpath.New("emails"), knownvalue.ListExact([]knownvalue.Check{})),
			},
		}},
	})
}

// status takes a name, in any case, or its code, written as a number or
// a string: each reads the same memberships, sent as status=100, on both
// read paths, and is kept in state as written. A name the API does not
// document is refused naming every status and the closest, by validation:
// Terraform validates a value known only at apply again before the read.
// (The read's own refusal, for a caller that skips validation, is
// TestStatusRefusedAtTheRead's.)
func TestAccMemberships_statusByName(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 7, Memberships: 40})
	active := 100
	activeRecs := rawRecords(sb.MembershipsJSON(&active))
	if len(activeRecs) == 0 || len(activeRecs) == 40 {
		t.Fatalf("the data set should hold active and other memberships, has %d active of 40", len(activeRecs))
	}
	var ids []knownvalue.Check
	for _, r := range activeRecs {
		ids = append(ids, knownvalue.StringExact(textOf(t, r, "_id")))
	}
	one := textOf(t, activeRecs[0], "_id")
	written := map[string]string{"by_name": `"active"`, "by_code": `100`, "by_quoted_code": `"100"`, "capitalized": `"Active"`}
	config := providerBlock(url) + fmt.Sprintf(`
data "joinit_membership" "lookup" {
  id     = %q
  status = "active"
}
`, one)
	var checks []statecheck.StateCheck
	for _, label := range slices.Sorted(maps.Keys(written)) {
		config += fmt.Sprintf("data \"joinit_memberships\" %q {\n  status = %s\n}\n", label, written[label])
		address := "data.joinit_memberships." + label
		checks = append(checks,
			statecheck.ExpectKnownValue(address, tfjsonpath.New("ids"), knownvalue.ListExact(ids)),
			statecheck.ExpectKnownValue(address, tfjsonpath.New("status"), knownvalue.StringExact(strings.Trim(written[label], `"`))))
	}
	checks = append(checks,
		statecheck.ExpectKnownValue("data.joinit_membership.lookup", tfjsonpath.New("status"), knownvalue.StringExact("active")),
		statecheck.ExpectKnownValue("data.joinit_membership.lookup", tfjsonpath.New("membership").AtMapKey("id"), knownvalue.StringExact(one)))
	refused := func(value string) *regexp.Regexp {
		return wordsMatch("Invalid status", `status = "`+value+`" is neither a status name nor a whole-number code. `+
			"Write a name or its code: 50 prospective, 75 pending, 100 active, 300 expired, 350 cancelled", `Did you mean "active"?`)
	}
	unknownAtPlan := providerBlock(url) + `
resource "terraform_data" "status" {
  input = "Activ"
}
data "joinit_memberships" "m" {
  status = terraform_data.status.output
}
`
	resource.ParallelTest(t, resource.TestCase{
		Steps: []resource.TestStep{
			{ProtoV6ProviderFactories: providerFactories, Config: config, ConfigStateChecks: checks},
			{ProtoV6ProviderFactories: frameworkFactories, Config: config, ConfigStateChecks: checks},
			{ProtoV6ProviderFactories: providerFactories, Config: providerBlock(url) + `data "joinit_memberships" "m" { status = "activ" }`, ExpectError: refused("activ")},
			{ProtoV6ProviderFactories: providerFactories, Config: providerBlock(url) + `data "joinit_membership" "m" {
  email  = "a@example.com"
  status = "activ"
}`, ExpectError: refused("activ")},
			{ProtoV6ProviderFactories: providerFactories, Config: unknownAtPlan, ExpectError: refused("Activ")},
		},
	})
	for _, rec := range sb.RequestLog() {
		if rec.Endpoint == sandbox.EndpointMemberships && rec.Query.Get("status") != "100" {
			t.Errorf("memberships were requested with status=%q, want 100", rec.Query.Get("status"))
		}
	}
}

func TestAccMemberships_invalidArguments(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 5, Memberships: 1})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config:      providerBlock(url) + `data "joinit_memberships" "x" { page_size = 1001 }`,
			ExpectError: regexp.MustCompile(`(?s)page_size.*between 1 and 1000`),
		}},
	})
}

// An argument unknown at plan (status from a resource not yet created):
// Terraform plans the read for apply and reads once the value is known,
// filtered by it.
func TestAccMemberships_statusUnknownAtPlan(t *testing.T) {
	sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: 6, Memberships: 40})
	active := 100
	want := len(sb.MembershipsJSON(&active))
	if want == 0 || want == 40 {
		t.Fatalf("the data set should hold active and other memberships, has %d active of 40", want)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + `
resource "terraform_data" "status" {
  input = 100
}
data "joinit_memberships" "m" {
  status = terraform_data.status.output
}
output "names" {
  value = distinct(data.joinit_memberships.m.memberships[*].status_name)
}
`,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue("data.joinit_memberships.m", tfjsonpath.New("ids")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("status"), knownvalue.StringExact("100")),
				statecheck.ExpectKnownValue("data.joinit_memberships.m", tfjsonpath.New("memberships"), knownvalue.ListSizeExact(want)),
				statecheck.ExpectKnownOutputValue("names", knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("active")})),
			},
		}},
	})
}

var _ = registerDataSourceTest(dsTest{
	def: membershipsDef, edge: edgeMemberships,
	nullUnlessSet: []string{"membership_types", "membership_names", "strict_filters"},
	everyAttribute: func(t *testing.T, recs [][]byte, sb *sandbox.Server) []attrCase {
		ids, emails := wantIDsAndEmails(t, recs)
		cases := []attrCase{
			{"raw", `page_size = 4
  include_raw_json = true`, map[string]any{
				"status": nil, "page_size": jsonNum(4), "include_raw_json": true, "include_records": true,
				"memberships": each(recs, wantWithRaw(t, wantMembership, true)), "ids": ids, "emails": emails,
			}},
			{"plain", ``, map[string]any{
				"status": nil, "page_size": jsonNum(1000), "include_raw_json": false, "include_records": true,
				"memberships": each(recs, wantWithRaw(t, wantMembership, false)), "ids": ids, "emails": emails,
			}},
			{"lean", `include_records = false
  include_raw_json = true`, map[string]any{
				"status": nil, "page_size": jsonNum(1000), "include_raw_json": true, "include_records": false,
				"memberships": nil, "ids": ids, "emails": emails,
			}},
			{"fields", `fields = ["status_name", "profile", "id", "custom_answers", "email", "status"]
  include_raw_json = true
  page_size = 4`, map[string]any{
				"status": nil, "page_size": jsonNum(4), "include_raw_json": true, "include_records": true,
				"fields":      []any{"status_name", "profile", "id", "custom_answers", "email", "status"},
				"memberships": nil, "ids": ids, "emails": emails,
				"records": each(recs, only(wantWithRaw(t, wantMembership, true), "status_name", "profile", "id", "custom_answers", "email", "status")),
			}},
			{"fields_raw", `fields = ["raw_json", "membership_name"]
  include_raw_json = true`, map[string]any{
				"status": nil, "page_size": jsonNum(1000), "include_raw_json": true, "include_records": true,
				"fields": []any{"raw_json", "membership_name"}, "memberships": nil, "ids": ids, "emails": emails,
				"records": each(recs, only(wantWithRaw(t, wantMembership, true), "raw_json", "membership_name")),
			}},
		}
		if sb == nil {
			return cases
		}
		// The status filter, against the sandbox, which filters.
		active := 100
		activeRecs := rawRecords(sb.MembershipsJSON(&active))
		activeIDs, activeEmails := wantIDsAndEmails(t, activeRecs)
		// A code written as a number is a string in state, as Terraform
		// converted it; a name is kept as written.
		return append(cases, attrCase{"active", `status = 100`, map[string]any{
			"status": "100", "page_size": jsonNum(1000), "include_raw_json": false, "include_records": true,
			"memberships": each(activeRecs, wantWithRaw(t, wantMembership, false)), "ids": activeIDs, "emails": activeEmails,
		}}, attrCase{"active_by_name", `status = "Active"`, map[string]any{
			"status": "Active", "page_size": jsonNum(1000), "include_raw_json": false, "include_records": true,
			"memberships": each(activeRecs, wantWithRaw(t, wantMembership, false)), "ids": activeIDs, "emails": activeEmails,
		}})
	},
})

// The sandbox's generated records hold nulls, an absent field and unicode,
// but no integer at the int64 edges, no null or string profile or address
// and no non-string answer. These hand-written records hold them.
var edgeMemberships = []string{
	`{"_id":"e1","organization_id":"o","external_id":"x","email":"zoë@example.com","display_name":"Zoë 東京 🚀","membership_type":"t","membership_name":"Gold","status":100,"joined":"2024-01-02T00:00:00.000Z","expiration_date":"2025-01-02T00:00:00.000Z","rebilling_date":"2024-12-02T00:00:00.000Z","created":"2023-12-31T00:00:00.000Z","updated":"2024-02-03T00:00:00.000Z","customer_id":"cus","subscription_id":"sub","profile":{"first_name":"Zoë","last_name":"Ünal","company":"Ac&me <b>","phone":"+1 555","job_title":"CTO","birthday":"1990-05-06T00:00:00.000Z","gender":"f","facebook":"fb","twitter":"tw","linkedin":"li","address":{"city":"東京","line1":null}},"custom_answers":[{"question_id":"q1","question":"Why?","answer":"Because \"quoted\" \\ and \n newline"},{"question_id":"q2","question":null,"answer":["a",1,true]},{"question_id":"q3","question":"n","answer":{ "k" : 2 }}],"x_future":{"deep":[1,2,3]}}`,
	`{"_id":"e2","email":null,"status":999,"profile":null,"custom_answers":[],"expiration_date":null}`,
	`{"_id":null,"status":-9223372036854775808,"custom_answers":null}`,
	`{"_id":"e4","email":"zoë@example.com","status":9223372036854775807,"profile":{"address":"1 Main St"},"membership_name":""}`,
	`{}`,
	`{"_id":"e6","email":"a@example.com","external_id":"M-10036","status":0,"profile":{"address":42},"custom_answers":[{"answer":null},{}]}`,
}

var wantStatusNames = map[string]string{"50": "prospective", "75": "pending", "100": "active", "300": "expired", "350": "cancelled"}

func wantMembership(t *testing.T, raw []byte, includeRaw bool) map[string]any {
	f := decodeFields(t, raw)
	m := map[string]any{"id": f.text(t, "_id"), "status": f.number(t, "status"), "raw_json": rawOrNull(raw, includeRaw)}
	for _, k := range []string{"organization_id", "external_id", "email", "display_name", "membership_type", "membership_name",
		"joined", "expiration_date", "rebilling_date", "created", "updated", "customer_id", "subscription_id"} {
		m[k] = f.text(t, k)
	}
	m["status_name"] = nil
	if code, ok := m["status"].(json.Number); ok {
		m["status_name"] = "unknown"
		if name, known := wantStatusNames[string(code)]; known {
			m["status_name"] = name
		}
	}
	m["profile"] = nil
	if !isNull(f["profile"]) {
		p := decodeFields(t, f["profile"])
		profile := map[string]any{"address": p.jsonText(t, "address")}
		for _, k := range []string{"first_name", "last_name", "company", "phone", "job_title", "birthday", "gender", "facebook", "twitter", "linkedin"} {
			profile[k] = p.text(t, k)
		}
		m["profile"] = profile
	}
	m["custom_answers"] = nil
	if !isNull(f["custom_answers"]) {
		var answers []json.RawMessage
		if err := json.Unmarshal(f["custom_answers"], &answers); err != nil {
			t.Fatal(err)
		}
		list := []any{}
		for _, a := range answers {
			af := decodeFields(t, a)
			list = append(list, map[string]any{"question_id": af.text(t, "question_id"), "question": af.text(t, "question"), "answer": af.jsonText(t, "answer")})
		}
		m["custom_answers"] = list
	}
	return m
}

// wantIDsAndEmails: ids in API order, distinct non-null e-mails sorted.
func wantIDsAndEmails(t *testing.T, records [][]byte) (ids, emails []any) {
	ids, emails = []any{}, []any{}
	seen := map[string]bool{}
	var sorted []string
	for _, r := range records {
		f := decodeFields(t, r)
		ids = append(ids, f.text(t, "_id"))
		if e, ok := f.text(t, "email").(string); ok && !seen[e] {
			seen[e] = true
			sorted = append(sorted, e)
		}
	}
	sort.Strings(sorted)
	for _, e := range sorted {
		emails = append(emails, e)
	}
	return ids, emails
}

func TestAccFastPathEqualsFramework_membershipsFields(t *testing.T) {
	testFastPathEqualsFramework(t, fastPathBlock{membershipsDef, "x", `fields = ["profile", "email", "status", "raw_json", "custom_answers"]
  include_raw_json = true
  membership_names = ["Gold", "Family", ""]`})
}
