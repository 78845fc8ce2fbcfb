package provider

import (
	"context"
	"slices"
	"strings"

	"github.com/joinit-community/terraform-provider-joinit/internal/client"
	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// membershipsState is the joinit_memberships state as Go values.
type membershipsState struct {
	common
	Status         statusFilter
	IncludeRecords *bool
	types, names   tfattr.Strings
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
	attrs: []tfattr.Attr{
		statusArg(func(s *membershipsState) *statusFilter { return &s.Status }),
		tfattr.BoolArg("include_records", "When false, `memberships` is null and only `ids` and `emails` are set: the lean read, which stores two lists of strings instead of every field of every record. "+
			"Use it when a module needs only who the members are (SSO or Slack group sync) and the organization is large.",
			true, func(s *membershipsState) **bool { return &s.IncludeRecords }),
		tfattr.ObjectList("memberships", "The memberships, in API order, each once. Null when `include_records` is false or `fields` is set.",
			func(s *membershipsState) ([]client.Membership, bool) {
				return s.records, *s.IncludeRecords && s.fields.chosen == nil
			},
			membershipAttrs()...),
		recordsAttr("membership", func(s *membershipsState) ([]tfattr.Attr, []client.Membership) { return s.fields.chosen, s.records }),
		membershipTypesArg(func(s *membershipsState) *tfattr.Strings { return &s.types }),
		membershipNamesArg(func(s *membershipsState) *tfattr.Strings { return &s.names }),
		tfattr.OptBoolArg("strict_filters", "Whether a filter that keeps nothing it was meant to fails this read (true) or warns (false): "+
			"a `membership_names` or `membership_types` value no membership read has, a `status` code the API does not document. "+
			"Unset, the provider's `strict_filters` decides. Set it to false on a data source whose filter may rightly match nothing at times "+
			"(a `for_each` over membership types, one of which can empty), and keep the provider strict for the rest.",
			func(s *membershipsState) **bool { return &s.strict }),
		tfattr.StrList("ids", "Membership ids in API order (set by both full and lean reads).",
			func(s *membershipsState) ([]*string, bool) { return s.ids, true }),
		tfattr.StrList("emails", "The distinct non-null e-mail addresses, sorted. E-mail is not a unique key: several memberships can share one. "+
			"Addresses are compared exactly, case included: `Ana@example.com` and `ana@example.com` are two entries, as the API stores what was typed "+
			"(merge them with `distinct([for e in emails : lower(e)])` where your system ignores case).",
			func(s *membershipsState) ([]*string, bool) { return s.emails, true }),
	},
})

// checkMembershipArguments refuses fields with include_records = false,
// for a read whose values were unknown when the validators ran.
func checkMembershipArguments(s *membershipsState) error {
	if s.fields.chosen != nil && !*s.IncludeRecords {
		return &tfattr.ArgError{Attr: "fields", Msg: errFieldsWithoutRecords}
	}
	return nil
}

func readMemberships(ctx context.Context, c *client.Client, s *membershipsState, o client.ListOptions) (err error) {
	types, names := typeFilters(s.Status.Code, s.types, s.names, func(v string) string { return c.ServerText(v, serverTextLimit) })
	if !*s.IncludeRecords {
		return s.readLean(ctx, c, o.PageSize, types, names)
	}
	if o.Fields != nil {
		// ids and e-mails are set from every read, and the filters read theirs.
		o.Fields = append(append([]string{"_id", "email"}, s.filterMembers()...), o.Fields...)
	}
	s.records, err = c.Memberships(ctx, client.MembershipQuery{Status: s.Status.Code, ListOptions: o})
	if err != nil {
		return err
	}
	held := len(s.records)
	s.records, s.warnings = filterByType(s.records, types, names, func(m *client.Membership) (*string, *string) { return m.MembershipType, m.MembershipName })
	s.warnings = append(s.warnings, unknownStatusWarnings(s.Status.Code, held)...)
	s.ids, s.emails = idsAndEmails(s.records)
	return nil
}

// readLean reads summaries of the memberships: ids, e-mails and, to filter
// by, their types; nothing else of a record is decoded.
func (s *membershipsState) readLean(ctx context.Context, c *client.Client, pageSize int, types, names stringFilter) error {
	recs, err := c.MembershipSummaries(ctx, client.MembershipQuery{
		Status:      s.Status.Code,
		ListOptions: client.ListOptions{PageSize: pageSize, Fields: s.filterMembers()},
	})
	if err != nil {
		return err
	}
	held := len(recs)
	recs, s.warnings = filterByType(recs, types, names, func(m *client.MembershipSummary) (*string, *string) { return m.MembershipType, m.MembershipName })
	s.warnings = append(s.warnings, unknownStatusWarnings(s.Status.Code, held)...)
	s.ids, s.emails = idsAndEmailsOf(recs, func(m *client.MembershipSummary) (*string, *string) { return m.ID, m.Email })
	return nil
}

// filterMembers are the JSON members the type filters read.
func (s *membershipsState) filterMembers() []string {
	var members []string
	if s.types.Set {
		members = append(members, "membership_type")
	}
	if s.names.Set {
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
