package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// membershipState is the joinit_membership state as Go values.
type membershipState struct {
	common
	ID, Email, ExternalID *string
	Status                statusFilter
	AllowMissing          *bool
	Found                 *bool
	record                *client.Membership // nil when nothing matched
}

// lookupKeys are the arguments a lookup matches on, each with the
// client's key: exactly one is set.
var lookupKeys = []struct {
	attr string
	key  client.MembershipKey
	of   func(*membershipState) **string
}{
	{"id", client.ByID, func(s *membershipState) **string { return &s.ID }},
	{"email", client.ByEmail, func(s *membershipState) **string { return &s.Email }},
	{"external_id", client.ByExternalID, func(s *membershipState) **string { return &s.ExternalID }},
}

var membershipDef = registerDataSource(dataSource[membershipState]{
	name: "membership", endpoint: "memberships",
	description: "Looks up one membership by `id`, `email` (without regard to case) or `external_id`, optionally among those of one `status`. " +
		"The API has no endpoint for one membership: every lookup of a run with the same `status`, `page_size` and `include_raw_json` shares " +
		"one read of the membership list (with a `joinit_memberships` of those arguments too), so a `for_each` of hundreds of lookups costs " +
		"the requests of one list read. No match fails the plan unless `allow_missing` is true; several matches always fail, listing them.",
	read:  readMembership,
	check: checkLookupKey,
	readLess: "set status to look up among the memberships of one status only (a lookup reads the whole list of its status once, " +
		"for every lookup of the run), or leave include_raw_json unset.",
	rawJSON: true,
	configValidators: []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("id"), path.MatchRoot("email"), path.MatchRoot("external_id")),
	},
	attrs: []tfattr.Attr{
		tfattr.StrArg("id", "The membership's identifier (the API's `_id`), compared exactly. Set exactly one of `id`, `email` and `external_id`.",
			lookupKeys[0].of, stringvalidator.LengthAtLeast(1)),
		tfattr.StrArg("email", "The member's e-mail address, compared without regard to case or white space around it: the API keeps an address as it was typed, "+
			"so `Ana@Example.com` typed at sign-up matches `ana@example.com` from an identity provider. "+
			"An e-mail is not a unique key: one person can hold several memberships, and a lookup that matches more than one fails, "+
			"listing their ids and statuses; narrow it with `status`, or look up by `id`.",
			lookupKeys[1].of, stringvalidator.LengthAtLeast(1)),
		tfattr.StrArg("external_id", "The membership's external identifier (the API's `external_id`), compared exactly.",
			lookupKeys[2].of, stringvalidator.LengthAtLeast(1)),
		statusArg(func(s *membershipState) *statusFilter { return &s.Status }),
		tfattr.BoolArg("allow_missing", "When true, a lookup that matches nothing sets `found` to false and `membership` to null instead of failing the plan "+
			"(a `for_each` over people who may not have joined yet). Several matches fail all the same.",
			false, func(s *membershipState) **bool { return &s.AllowMissing }),
		tfattr.Bool("found", "Whether a membership matched. Always true unless `allow_missing` is true: a lookup that finds nothing fails otherwise.",
			func(s *membershipState) *bool { return s.Found }),
		tfattr.Object("membership", "The membership that matched, with the attributes of an element of `joinit_memberships`' `memberships`; "+
			"null when nothing matched.",
			func(s *membershipState) *client.Membership { return s.record }, membershipAttrs()...),
	},
})

// checkLookupKey refuses a lookup without exactly one key, for values the
// validators could not see (unknown at plan, or null from a `for_each`),
// and a key pasted with more than the value (quotes, a newline, spaces
// around it).
func checkLookupKey(s *membershipState) error {
	for _, k := range lookupKeys {
		if v := *k.of(s); v != nil {
			if mistake := keyMistake(*v); mistake != "" {
				return &tfattr.ArgError{Attr: k.attr, Msg: fmt.Sprintf("%s = %q %s: a lookup compares the value as given", k.attr, *v, mistake)}
			}
		}
	}
	var set, names []string
	for _, k := range lookupKeys {
		names = append(names, k.attr)
		if *k.of(s) != nil {
			set = append(set, k.attr)
		}
	}
	if len(set) == 1 {
		return nil
	}
	what := "none is set (a null value counts as unset)"
	switch n := len(set); {
	case n == 2:
		what = set[0] + " and " + set[1] + " are both set"
	case n > 2:
		what = strings.Join(set[:n-1], ", ") + " and " + set[n-1] + " are all set"
	}
	return fmt.Errorf("set exactly one of %s to look a membership up by: %s", strings.Join(names, ", "), what)
}

func readMembership(ctx context.Context, c *client.Client, s *membershipState, o client.ListOptions) error {
	for _, k := range lookupKeys {
		value := *k.of(s)
		if value == nil {
			continue
		}
		got, err := c.LookupMembership(ctx, client.MembershipQuery{Status: s.Status.Code, ListOptions: o}, k.key, *value)
		if err != nil {
			return err
		}
		s.warnings = append(s.warnings, unknownStatusWarnings(s.Status.Code, got.Read)...)
		q := lookupQuestion{attr: k.attr, value: *value, status: s.Status.Code, read: got.Read}
		switch {
		case len(got.Matches) == 1:
			s.record, s.Found = &got.Matches[0], new(true)
		case len(got.Matches) > 1:
			return q.several(got.Matches, func(v string) string { return c.ServerText(v, serverTextLimit) })
		case *s.AllowMissing:
			s.Found = new(false)
		default:
			return q.missing()
		}
		return nil
	}
	return checkLookupKey(s) // not reached: parseArguments checked
}

// lookupQuestion is what a lookup asked, for its messages.
type lookupQuestion struct {
	attr, value string
	status      *int64
	read        int
}

// asked says what was looked for and among what: `e-mail "x" (compared
// without regard to case) among the 12 memberships read with status 100
// (active)`. The value is the configuration's own, quoted so that white
// space shows.
func (q lookupQuestion) asked() string {
	how := ""
	if q.attr == "email" {
		how = " (compared without regard to case or white space around it)"
	}
	among := "of every status"
	if q.status != nil {
		among = fmt.Sprintf("with status %d (%s)", *q.status, *statusName(q.status))
	}
	return fmt.Sprintf("%s = %q%s among the %d memberships read %s", q.attr, q.value, how, q.read, among)
}

// missing is the failure of a lookup that matched nothing. It names no
// other member: a "did you mean" over e-mail addresses would put other
// people's addresses in CI logs.
func (q lookupQuestion) missing() error {
	hint := "Check the value"
	if q.status != nil {
		hint += "; a membership of another status is not looked among: remove status to look among every status"
	}
	return &resultError{attr: q.attr, summary: "No membership found",
		detail: fmt.Sprintf("No membership matches %s. %s. Where a missing member is expected (people who may not have joined yet), "+
			"set allow_missing = true and test found.", q.asked(), hint)}
}

// mostListed is how many matches a several-matches error lists.
const mostListed = 10

// several is the failure of a lookup that matched more than one
// membership: their ids and statuses, and how to narrow it. clean quotes
// a server value (redacted and cut).
func (q lookupQuestion) several(matches []client.Membership, clean func(string) string) error {
	var listed []string
	for i := range min(len(matches), mostListed) {
		m := &matches[i]
		id, status := "(no id)", "no status"
		if m.ID != nil {
			id = fmt.Sprintf("%q", clean(*m.ID))
		}
		if m.Status != nil {
			status = fmt.Sprintf("%s, %d", *statusName(m.Status), *m.Status)
		}
		listed = append(listed, fmt.Sprintf("%s (%s)", id, status))
	}
	if len(matches) > mostListed {
		listed = append(listed, fmt.Sprintf("and %d more", len(matches)-mostListed))
	}
	narrow := "Look it up by id, or narrow it with status (status = \"active\")."
	if q.status != nil {
		narrow = "Look it up by id."
	}
	why := ""
	if q.attr == "email" {
		why = " An e-mail is not a unique key in Join It: one person can hold several memberships."
	}
	return &resultError{attr: q.attr, summary: "Several memberships match",
		detail: fmt.Sprintf("%d memberships match %s: %s.%s %s", len(matches), q.asked(), strings.Join(listed, ", "), why, narrow)}
}
