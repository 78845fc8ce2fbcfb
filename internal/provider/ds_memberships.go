package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
)

// membershipsState is the joinit_memberships state as Go values.
type membershipsState struct {
	common
	Status         *int64
	IncludeRecords *bool
	StrictFilters  *bool
	types, names   stringsValue
	records        []client.Membership
	ids            []*string
	emails         []*string
}

var membershipsDef = registerDataSource(dataSource[membershipsState]{
	name: "memberships",
	description: "Reads the organization's memberships, optionally filtered by status, in API order. " +
		"Every page is read, or the read fails: a partial list is never returned. " +
		"Set `include_records = false` for the lean read: only `ids` and `emails`, for syncs of very large organizations; " +
		"or `fields` to read only the attributes a module uses. `membership_types` and `membership_names` filter by type.",
	read:  readMemberships,
	check: checkMembershipArguments,
	readLess: "set fields to the attributes you use (for example fields = [\"email\", \"status\"]), set include_records = false (ids and emails only), " +
		"filter with status (the API applies it before answering; membership_types and membership_names are applied to what was read), or leave include_raw_json unset.",
	rawJSON: true,
	fields:  &membershipFields,
	attrs: []attr{
		statusArg(func(s *membershipsState) **int64 { return &s.Status }),
		boolArg("include_records", "When false, `memberships` is null and only `ids` and `emails` are set: the lean read, which stores two lists of strings instead of every field of every record. "+
			"Use it when a module needs only who the members are (SSO or Slack group sync) and the organization is large.",
			true, func(s *membershipsState) **bool { return &s.IncludeRecords }),
		objectList("memberships", "The memberships, in API order, each once. Null when `include_records` is false or `fields` is set.",
			func(s *membershipsState) ([]client.Membership, bool) {
				return s.records, *s.IncludeRecords && s.fields.chosen == nil
			},
			membershipAttrs()...),
		recordsAttr("membership", func(s *membershipsState) ([]attr, []client.Membership) { return s.fields.chosen, s.records }),
		membershipTypesArg(),
		membershipNamesArg(),
		optBoolArg("strict_filters", "Whether a filter that keeps nothing it was meant to fails this read (true) or warns (false): "+
			"a `membership_names` or `membership_types` value no membership read has, a `status` code the API does not document. "+
			"Unset, the provider's `strict_filters` decides. Set it to false on a data source whose filter may rightly match nothing at times "+
			"(a `for_each` over membership types, one of which can empty), and keep the provider strict for the rest.",
			func(s *membershipsState) **bool { return &s.StrictFilters }),
		strList("ids", "Membership ids in API order (set by both full and lean reads).",
			func(s *membershipsState) ([]*string, bool) { return s.ids, true }),
		strList("emails", "The distinct non-null e-mail addresses, sorted. E-mail is not a unique key: several memberships can share one. "+
			"Addresses are compared exactly, case included: `Ana@example.com` and `ana@example.com` are two entries, as the API stores what was typed "+
			"(merge them with `distinct([for e in emails : lower(e)])` where your system ignores case).",
			func(s *membershipsState) ([]*string, bool) { return s.emails, true }),
	},
})

// statusArg is the status filter of the data sources that read memberships.
func statusArg[S any](field func(*S) **int64) attr {
	return intArg(intSpec{name: "status",
		desc: "Membership status code to filter by, sent as the API's `status` filter: " + knownStatusCodes() +
			". Another code gives a warning (a typo reads an empty list) and is sent all the same, since new codes may appear. Unset reads every status."},
		field)
}

// strictFilters is this data source's strict_filters, nil when unset.
func (s *membershipsState) strictFilters() *bool { return s.StrictFilters }

// checkMembershipArguments refuses fields with include_records = false,
// for a read whose values were unknown when the validators ran.
func checkMembershipArguments(s *membershipsState) error {
	if s.fields.chosen != nil && !*s.IncludeRecords {
		return &argError{"fields", errFieldsWithoutRecords}
	}
	return nil
}

type membership = client.Membership

// membershipFields are the attributes `fields` chooses from.
var membershipFields = recordFields{what: "membership", attrs: membershipAttrs(),
	json: map[string]string{"id": "_id", "status_name": "status", "raw_json": ""}}

func membershipAttrs() []attr {
	return []attr{
		str("id", "Membership identifier (the API's `_id`).", func(m *membership) *string { return m.ID }),
		str("organization_id", "Owning organization.", func(m *membership) *string { return m.OrganizationID }),
		str("external_id", "External membership ID.", func(m *membership) *string { return m.ExternalID }),
		str("email", "Member e-mail address; may be null.", func(m *membership) *string { return m.Email }),
		str("display_name", "Display name.", func(m *membership) *string { return m.DisplayName }),
		str("membership_type", "Identifier of the membership type.", func(m *membership) *string { return m.MembershipType }),
		str("membership_name", "Name of the membership type.", func(m *membership) *string { return m.MembershipName }),
		num("status", "Status code: "+knownStatusCodes()+"; other codes may appear.", func(m *membership) *int64 { return m.Status }),
		str("status_name", "Name of `status`: "+knownStatusNames()+", or unknown for any other code.", func(m *membership) *string { return statusName(m.Status) }),
		str("joined", "When the membership started."+timestampNote, func(m *membership) *string { return m.Joined }),
		str("expiration_date", "When the membership expires; null for lifetime or auto-renewing memberships."+timestampNote, func(m *membership) *string { return m.ExpirationDate }),
		str("rebilling_date", "When an auto-renewing membership re-bills; may be null."+timestampNote, func(m *membership) *string { return m.RebillingDate }),
		str("created", "Creation time."+timestampNote, func(m *membership) *string { return m.Created }),
		str("updated", "Last update time."+timestampNote, func(m *membership) *string { return m.Updated }),
		str("customer_id", "Payment customer identifier; may be null.", func(m *membership) *string { return m.CustomerID }),
		str("subscription_id", "Subscription identifier; may be null.", func(m *membership) *string { return m.SubscriptionID }),
		object("profile", "Profile information; null when the API sends none.", func(m *membership) *client.Profile { return m.Profile }, profileAttrs()...),
		objectList("custom_answers", "Answers to custom fields.", func(m *membership) ([]client.CustomAnswer, bool) {
			if m.CustomAnswers == nil {
				return nil, false
			}
			return *m.CustomAnswers, true
		}, customAnswerAttrs()...),
		str("raw_json", "The record as the API sent it (JSON), when `include_raw_json` is true; otherwise null. Use `jsondecode` to reach fields this provider does not model.", func(m *membership) *string { return nonEmpty(&m.RawJSON) }),
	}
}

func profileAttrs() []attr {
	type p = client.Profile
	return []attr{
		str("first_name", "First name.", func(x *p) *string { return x.FirstName }),
		str("last_name", "Last name.", func(x *p) *string { return x.LastName }),
		str("company", "Company.", func(x *p) *string { return x.Company }),
		str("phone", "Phone number.", func(x *p) *string { return x.Phone }),
		str("job_title", "Job title.", func(x *p) *string { return x.JobTitle }),
		str("birthday", "Date of birth."+timestampNote, func(x *p) *string { return x.Birthday }),
		str("gender", "Gender.", func(x *p) *string { return x.Gender }),
		str("facebook", "Facebook profile.", func(x *p) *string { return x.Facebook }),
		str("twitter", "Twitter profile.", func(x *p) *string { return x.Twitter }),
		str("linkedin", "LinkedIn profile.", func(x *p) *string { return x.LinkedIn }),
		str("address", "Address. Its shape is not documented: a string as sent, anything else as its JSON text (use `jsondecode`).", func(x *p) *string { return (*string)(x.Address) }),
	}
}

func customAnswerAttrs() []attr {
	type a = client.CustomAnswer
	return []attr{
		str("question_id", "Identifier of the custom field.", func(x *a) *string { return x.QuestionID }),
		str("question", "The question.", func(x *a) *string { return x.Question }),
		str("answer", "The answer; an answer that is not a string is given as its JSON text.", func(x *a) *string { return (*string)(x.Answer) }),
	}
}

// statusNames holds pointers so that naming 100,000 statuses allocates nothing.
var statusNames = map[int64]*string{50: ptr("prospective"), 75: ptr("pending"), 100: ptr("active"), 300: ptr("expired"), 350: ptr("cancelled")}

var unknownStatus = ptr("unknown")

// timestampNote ends the description of every timestamp attribute.
const timestampNote = " A timestamp string as the API sends it, not parsed: ISO 8601 UTC with milliseconds, such as `2024-01-02T00:00:00.000Z` " +
	"(compare with `timecmp`, format with `formatdate`)."

// knownStatusCodes lists the documented codes with their names, in order:
// "50 prospective, 75 pending, …".
func knownStatusCodes() string {
	var parts []string
	for _, code := range slices.Sorted(maps.Keys(statusNames)) {
		parts = append(parts, fmt.Sprintf("%d %s", code, *statusNames[code]))
	}
	return strings.Join(parts, ", ")
}

// knownStatusNames lists the names of the documented codes, in their order.
func knownStatusNames() string {
	var names []string
	for _, code := range slices.Sorted(maps.Keys(statusNames)) {
		names = append(names, *statusNames[code])
	}
	return strings.Join(names, ", ")
}

// statusName names a status code; codes the documentation does not list
// are "unknown", never an error.
func statusName(code *int64) *string {
	if code == nil {
		return nil
	}
	if name, ok := statusNames[*code]; ok {
		return name
	}
	return unknownStatus
}

func readMemberships(ctx context.Context, c *client.Client, s *membershipsState, o client.ListOptions) (err error) {
	types, names := typeFilters(s, func(v string) string { return c.ServerText(v, serverTextLimit) })
	if !*s.IncludeRecords {
		return s.readLean(ctx, c, o.PageSize, types, names)
	}
	if o.Fields != nil {
		// ids and e-mails are set from every read, and the filters read theirs.
		o.Fields = append(append([]string{"_id", "email"}, s.filterMembers()...), o.Fields...)
	}
	s.records, err = c.Memberships(ctx, client.MembershipQuery{Status: s.Status, ListOptions: o})
	if err != nil {
		return err
	}
	held := len(s.records)
	s.records, s.warnings = filterByType(s.records, types, names, func(m *client.Membership) (*string, *string) { return m.MembershipType, m.MembershipName })
	s.warnings = append(s.warnings, unknownStatusWarnings(s.Status, held)...)
	s.ids, s.emails = idsAndEmails(s.records)
	return nil
}

// readLean reads summaries of the memberships: ids, e-mails and, to filter
// by, their types; nothing else of a record is decoded.
func (s *membershipsState) readLean(ctx context.Context, c *client.Client, pageSize int, types, names stringFilter) error {
	recs, err := c.MembershipSummaries(ctx, client.MembershipQuery{
		Status:      s.Status,
		ListOptions: client.ListOptions{PageSize: pageSize, Fields: s.filterMembers()},
	})
	if err != nil {
		return err
	}
	held := len(recs)
	recs, s.warnings = filterByType(recs, types, names, func(m *client.MembershipSummary) (*string, *string) { return m.MembershipType, m.MembershipName })
	s.warnings = append(s.warnings, unknownStatusWarnings(s.Status, held)...)
	s.ids, s.emails = idsAndEmailsOf(recs, func(m *client.MembershipSummary) (*string, *string) { return m.ID, m.Email })
	return nil
}

// filterMembers are the JSON members the type filters read.
func (s *membershipsState) filterMembers() []string {
	var members []string
	if s.types.set {
		members = append(members, "membership_type")
	}
	if s.names.set {
		members = append(members, "membership_name")
	}
	return members
}

// idsAndEmails returns the ids in API order and the distinct non-null
// e-mails, sorted.
func idsAndEmails(records []client.Membership) (ids, emails []*string) {
	return idsAndEmailsOf(records, func(m *client.Membership) (*string, *string) { return m.ID, m.Email })
}

// idsAndEmailsOf does it for any record type. The e-mails are sorted, then
// duplicates dropped: at a million memberships a set of the addresses
// seen would cost tens of megabytes more.
func idsAndEmailsOf[R any](records []R, get func(*R) (id, email *string)) (ids, emails []*string) {
	ids = make([]*string, len(records))
	emails = []*string{}
	for i := range records {
		id, email := get(&records[i])
		ids[i] = id
		if email != nil {
			emails = append(emails, email)
		}
	}
	slices.SortFunc(emails, func(a, b *string) int { return strings.Compare(*a, *b) })
	emails = slices.CompactFunc(emails, func(a, b *string) bool { return *a == *b })
	return ids, slices.Clip(emails)
}

func nonEmpty(s *string) *string {
	if *s == "" {
		return nil
	}
	return s
}
