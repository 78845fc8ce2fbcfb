package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// lookupBaseKey is the key of the lookups the cross-cutting suites vary:
// the sandbox's external id of its 37th membership, when it has one (the
// chaos campaign's lists of 37 and 41 then find it, the shorter ones do
// not), and an edge record's.
const lookupBaseKey = "M-10036"

var _ = registerDataSourceTest(dsTest{
	def: membershipDef, edge: edgeMemberships,
	args: map[string]tftypes.Value{
		"external_id":   tftypes.NewValue(tftypes.String, lookupBaseKey),
		"allow_missing": tftypes.NewValue(tftypes.Bool, true),
	},
	nullUnlessSet: []string{"id", "email", "external_id", "status"},
	everyAttribute: func(t *testing.T, recs [][]byte, sb *sandbox.Server) []attrCase {
		found := func(rec []byte, raw bool, args map[string]any) map[string]any {
			want := map[string]any{"page_size": jsonNum(1000), "include_raw_json": raw, "allow_missing": false, "found": true,
				"membership": wantMembership(t, rec, raw)}
			for k, v := range args {
				want[k] = v
			}
			return want
		}
		byID, byEmail, byExternal := uniqueBy(t, recs, "_id", false), uniqueBy(t, recs, "email", true), uniqueBy(t, recs, "external_id", false)
		email := strings.ToUpper(textOf(t, byEmail, "email"))
		external := textOf(t, byExternal, "external_id")
		cases := []attrCase{
			{"by_id", fmt.Sprintf("id = %q", textOf(t, byID, "_id")), found(byID, false, map[string]any{"id": textOf(t, byID, "_id")})},
			{"by_email", fmt.Sprintf("email = %q", email), found(byEmail, false, map[string]any{"email": email})},
			{"by_external_id", fmt.Sprintf("external_id = %q\n  include_raw_json = true\n  page_size = 4", external),
				found(byExternal, true, map[string]any{"external_id": external, "page_size": jsonNum(4)})},
			{"missing", "email = \"nobody@example.invalid\"\n  allow_missing = true", map[string]any{
				"email": "nobody@example.invalid", "allow_missing": true, "found": false, "membership": nil,
				"page_size": jsonNum(1000), "include_raw_json": false,
			}},
		}
		if sb == nil {
			return cases
		}
		// Under the status filter, against the sandbox, which filters.
		active := 100
		rec := uniqueBy(t, rawRecords(sb.MembershipsJSON(&active)), "_id", false)
		return append(cases, attrCase{"active", fmt.Sprintf("id = %q\n  status = \"active\"", textOf(t, rec, "_id")),
			found(rec, false, map[string]any{"id": textOf(t, rec, "_id"), "status": "active"})})
	},
})

// uniqueBy is the first record whose key (lowered, for e-mails) no other
// record has.
func uniqueBy(t *testing.T, recs [][]byte, key string, lower bool) []byte {
	t.Helper()
	count := map[string]int{}
	norm := func(rec []byte) (string, bool) {
		v, ok := decodeFields(t, rec).text(t, key).(string)
		if lower {
			v = strings.ToLower(v)
		}
		return v, ok
	}
	for _, r := range recs {
		if v, ok := norm(r); ok {
			count[v]++
		}
	}
	for _, r := range recs {
		if v, ok := norm(r); ok && count[v] == 1 {
			return r
		}
	}
	t.Fatalf("no record has a %s of its own", key)
	return nil
}

func textOf(t *testing.T, rec []byte, key string) string {
	t.Helper()
	v, _ := decodeFields(t, rec).text(t, key).(string)
	return v
}

// lookupData is a data set of 60 memberships, in which the first member
// holds a second membership (record 2 repeats record 0's e-mail).
func lookupData(seed int64) sandbox.Options {
	return sandbox.Options{Seed: seed, Memberships: 60}
}

func TestAccMembership_eachKeyAndEmailCase(t *testing.T) {
	sb, url := sandbox.StartForTest(t, lookupData(91))
	recs := rawRecords(sb.MembershipsJSON(nil))
	byEmail := uniqueBy(t, recs, "email", true)
	email := textOf(t, byEmail, "email")
	byExternal := uniqueBy(t, recs, "external_id", false)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + fmt.Sprintf(`
data "joinit_membership" "upper" {
  email = %q
}
data "joinit_membership" "by_id" {
  id = data.joinit_membership.upper.membership.id
}
data "joinit_membership" "by_external_id" {
  external_id = %q
}
`, strings.ToUpper(email), textOf(t, byExternal, "external_id")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.joinit_membership.upper", tfjsonpath.New("found"), knownvalue.Bool(true)),
				statecheck.ExpectKnownValue("data.joinit_membership.upper", tfjsonpath.New("email"), knownvalue.StringExact(strings.ToUpper(email))),
				statecheck.ExpectKnownValue("data.joinit_membership.upper", tfjsonpath.New("membership").AtMapKey("email"), knownvalue.StringExact(email)),
				statecheck.ExpectKnownValue("data.joinit_membership.by_id", tfjsonpath.New("membership").AtMapKey("email"), knownvalue.StringExact(email)),
				statecheck.ExpectKnownValue("data.joinit_membership.by_id", tfjsonpath.New("membership").AtMapKey("id"), knownvalue.StringExact(textOf(t, byEmail, "_id"))),
				statecheck.ExpectKnownValue("data.joinit_membership.by_external_id", tfjsonpath.New("membership").AtMapKey("id"), knownvalue.StringExact(textOf(t, byExternal, "_id"))),
			},
		}},
	})
}

func TestAccMembership_missing(t *testing.T) {
	sb, url := sandbox.StartForTest(t, lookupData(92))
	recs := rawRecords(sb.MembershipsJSON(nil))
	active := 0
	for _, r := range recs {
		if decodeFields(t, r).number(t, "status") == jsonNum(100) {
			active++
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			{
				Config:      providerBlock(url) + `data "joinit_membership" "x" { email = "nobody@example.invalid" }`,
				ExpectError: wordsMatch("No membership found", `email = "nobody@example.invalid" (compared without regard to case or white space around it) among the 60 memberships read of every status.`, "allow_missing = true"),
			},
			{
				Config: providerBlock(url) + `data "joinit_membership" "x" {
  id     = "no-such-id"
  status = 100
}`,
				ExpectError: wordsMatch("No membership found", `id = "no-such-id" among the `+strconv.Itoa(active)+` memberships read with status 100 (active).`, "remove status"),
			},
			{
				Config: providerBlock(url) + `data "joinit_membership" "x" {
  email         = "nobody@example.invalid"
  allow_missing = true
}`,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("data.joinit_membership.x", tfjsonpath.New("found"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue("data.joinit_membership.x", tfjsonpath.New("membership"), knownvalue.Null()),
				},
			},
		},
	})
}

// The sandbox's second membership of the first member (record 2 repeats
// record 0's e-mail): a lookup by e-mail fails listing both, never another
// member's data, and status or id narrows it.
func TestAccMembership_severalMatches(t *testing.T) {
	sb, url := sandbox.StartForTest(t, lookupData(93))
	recs := rawRecords(sb.MembershipsJSON(nil))
	email := textOf(t, recs[0], "email")
	if textOf(t, recs[2], "email") != email {
		t.Fatal("the sandbox's record 2 should repeat record 0's e-mail")
	}
	var want []string
	for _, r := range recs {
		if strings.EqualFold(textOf(t, r, "email"), email) {
			want = append(want, regexp.QuoteMeta(strconv.Quote(textOf(t, r, "_id"))))
		}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{{
			Config: providerBlock(url) + fmt.Sprintf(`data "joinit_membership" "x" {
  email         = %q
  allow_missing = true
}`, email),
			ExpectError: regexp.MustCompile(`(?s)Several memberships match.*` + strconv.Itoa(len(want)) + `\s+memberships\s+match\s+email.*` +
				strings.Join(want, `\s+\([a-z]+,\s+\d+\),\s+`) + `.*` + words("An e-mail is not a unique key in Join It") + `.*` + words("Look it up by id, or narrow it with status")),
		}},
	})
}

func TestAccMembership_exactlyOneKey(t *testing.T) {
	_, url := sandbox.StartForTest(t, sandbox.Options{Seed: 94, Memberships: 3})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providerFactories,
		Steps: []resource.TestStep{
			{
				Config:      providerBlock(url) + `data "joinit_membership" "x" {}`,
				ExpectError: regexp.MustCompile(`(?s)Exactly one of these attributes must be configured:\s+\[id,email,external_id\]`),
			},
			{
				Config:      providerBlock(url) + `data "joinit_membership" "x" {` + "\n  id = \"a\"\n  email = \"b@example.com\"\n}",
				ExpectError: regexp.MustCompile(`(?s)Exactly one of these attributes must be configured:\s+\[id,email,external_id\]`),
			},
			{
				// A null from a variable is unset.
				Config: providerBlock(url) + `variable "email" {
  type    = string
  default = null
}
data "joinit_membership" "x" {
  email = var.email
}`,
				ExpectError: regexp.MustCompile(`(?s)Exactly one of these attributes must be configured:\s+\[id,email,external_id\]`),
			},
			{
				Config:      providerBlock(url) + `data "joinit_membership" "x" { email = "" }`,
				ExpectError: regexp.MustCompile(`(?s)email.*string length must be at least 1`),
			},
		},
	})
}

// words matches text as Terraform prints it, wrapped: any white space
// between its words.
func words(text string) string {
	return strings.Join(strings.Fields(regexp.QuoteMeta(text)), `\s+`)
}

// wordsMatch matches the texts in order, each as words says.
func wordsMatch(texts ...string) *regexp.Regexp {
	parts := make([]string, len(texts))
	for i, t := range texts {
		parts[i] = words(t)
	}
	return regexp.MustCompile(`(?s)` + strings.Join(parts, ".*"))
}

// Forty lookups by e-mail in a for_each, five by id and a list read of
// the same query (pages of 50) cost the requests of the list read alone,
// on real Terraform. One request at a time, so that the counts are exact.
// 130 memberships are three pages, the last short, as the 1,500 this test
// read in pages of 1,000 were two: the list read is several pages and an
// end, at a tenth of the state.
func TestAccMembership_oneReadForEveryLookup(t *testing.T) {
	if !acceptance() {
		// resource.Test skips its plans without TF_ACC, and the counts
		// after them would then be of nothing.
		t.Skip("an acceptance test: set TF_ACC=1")
	}
	t.Parallel()
	const seed, n, pageSize = 95, 130, 50
	recs := rawRecords(sandbox.New(sandbox.Options{Seed: seed, Memberships: n}).MembershipsJSON(nil))
	count := map[string]int{}
	for _, r := range recs {
		count[strings.ToLower(textOf(t, r, "email"))]++
	}
	var emails, ids []string
	for _, r := range recs {
		if e := textOf(t, r, "email"); e != "" && count[strings.ToLower(e)] == 1 && len(emails) < 40 {
			emails = append(emails, strconv.Quote(strings.ToUpper(e)))
		}
	}
	if len(emails) != 40 {
		t.Fatalf("the data set holds %d e-mails of one membership each, want 40 to look up", len(emails))
	}
	// The last five: a lookup by them reads to the end of the list.
	for _, r := range recs[n-5:] {
		ids = append(ids, strconv.Quote(textOf(t, r, "_id")))
	}
	requests := func(t *testing.T, config string, checks ...statecheck.StateCheck) int {
		sb, url := sandbox.StartForTest(t, sandbox.Options{Seed: seed, Memberships: n})
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: providerFactories,
			Steps: []resource.TestStep{{ConfigStateChecks: checks, Config: fmt.Sprintf(`
provider "joinit" {
  base_url                = %q
  access_token            = %q
  max_concurrent_requests = 1
}
`, url, sandbox.DefaultToken) + config}},
		})
		return sb.Requests(sandbox.EndpointMemberships)
	}
	list := `data "joinit_memberships" "all" {
  page_size = 50
}
output "n" { value = length(data.joinit_memberships.all.ids) }
`
	lookups := fmt.Sprintf(`
locals {
  emails = [%s]
  ids    = [%s]
}
# count, not for_each: terraform-plugin-testing's state shim refuses
# string instance keys of data sources (the example tests use for_each).
data "joinit_membership" "by_email" {
  count     = length(local.emails)
  email     = local.emails[count.index]
  page_size = 50
}
data "joinit_membership" "by_id" {
  count     = length(local.ids)
  id        = local.ids[count.index]
  page_size = 50
}
output "found" {
  value = length([for m in concat(data.joinit_membership.by_email, data.joinit_membership.by_id) : m if m.found])
}
`, strings.Join(emails, ", "), strings.Join(ids, ", "))
	// The three plans one after the other (the test runs beside the
	// others), each against a sandbox of its own.
	configs := map[string]string{"list": list, "lookups": lookups, "both": list + lookups}
	got := map[string]int{}
	for _, name := range []string{"list", "lookups", "both"} {
		t.Run(name, func(t *testing.T) {
			var checks []statecheck.StateCheck
			if name != "list" {
				checks = append(checks, statecheck.ExpectKnownOutputValue("found", knownvalue.Int64Exact(int64(len(emails)+len(ids)))))
			}
			got[name] = requests(t, configs[name], checks...)
		})
	}
	if t.Failed() {
		return
	}
	t.Logf("memberships requests: the list read %d, the 45 lookups %d, both %d", got["list"], got["lookups"], got["both"])
	if got["list"] < n/pageSize+2 {
		t.Fatalf("the list read alone made %d requests", got["list"])
	}
	if got["lookups"] != got["list"] || got["both"] != got["list"] {
		t.Errorf("45 lookups made %d requests, with the list read %d; the list read alone %d", got["lookups"], got["both"], got["list"])
	}
}

// A key the validators could not see (unknown at validation, null at the
// read) is refused by the read itself, before any request.
func TestLookupWithoutExactlyOneKeyIsRefusedAtTheRead(t *testing.T) {
	t.Parallel()
	c := testClient(t, client.Config{BaseURL: "http://127.0.0.1:1", Token: sandbox.DefaultToken})
	str := func(v string) tftypes.Value { return tftypes.NewValue(tftypes.String, v) }
	for _, tc := range []struct {
		args map[string]tftypes.Value
		want string
	}{
		{map[string]tftypes.Value{}, "none is set"},
		{map[string]tftypes.Value{"id": str("a"), "email": str("b@example.com")}, "id and email are both set"},
		{map[string]tftypes.Value{"id": str("a"), "email": str("b@example.com"), "external_id": str("c")}, "id, email and external_id are all set"},
	} {
		args, want := tc.args, tc.want
		_, _, err := membershipDef.readChecked(context.Background(), c, configOf(membershipDef, args), maxResultBytes)
		if err == nil || !strings.Contains(err.Error(), "set exactly one of id, email, external_id to look a membership up by: "+want) {
			t.Errorf("%v: got %v, want it to say %q", args, err, want)
		}
	}
}
