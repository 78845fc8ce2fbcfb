package provider

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/joinit-community/terraform-provider-joinit/internal/provider/tfattr"
)

// statusNames holds pointers so that naming 100,000 statuses allocates nothing.
var statusNames = map[int64]*string{50: new("prospective"), 75: new("pending"), 100: new("active"), 300: new("expired"), 350: new("cancelled")}

var unknownStatus = new("unknown")

// knownStatusCodes lists the documented codes with their names, in order:
// "50 prospective, 75 pending, …".
func knownStatusCodes() string { return knownStatuses("%d %s") }

// knownStatusNames lists the names of the documented codes, in their order.
func knownStatusNames() string { return knownStatuses("%[2]s") }

// knownStatuses writes each documented code, in order, by format from its
// code and name.
func knownStatuses(format string) string {
	var parts []string
	for _, code := range slices.Sorted(maps.Keys(statusNames)) {
		parts = append(parts, fmt.Sprintf(format, code, *statusNames[code]))
	}
	return strings.Join(parts, ", ")
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

// statusFilter is the status argument of the data sources that read
// memberships: as configured, which goes back to state unchanged, and the
// code it names, which is what the API's `status` filter is sent.
type statusFilter struct {
	Configured *string
	Code       *int64 // nil when unset
}

// statusArg declares the status filter. A string, so that a name is
// written as the API's documentation writes it; a number written there,
// `status = 100`, still works: Terraform converts it to "100".
func statusArg[S any](field func(*S) *statusFilter) tfattr.Attr {
	return tfattr.ParsedStrArg("status",
		"Only memberships of this status, sent as the API's `status` filter: a status name, compared without regard to case "+
			"(`\"active\"`, `\"Active\"`), or its code (`100`, `\"100\"`): "+knownStatusCodes()+". "+
			"Another name is an error, from `terraform validate` on, naming the closest. Another whole number gives a warning (a typo reads an empty list) "+
			"and is sent all the same, since new codes may appear. Kept in state as written. Unset reads every status.",
		func(s *S) **string { return &field(s).Configured }, parseStatus,
		func(s *S) **int64 { return &field(s).Code })
}

// parseStatus is the code a status argument names: a documented name in
// any case (the documentation writes "active"; "Active" can mean no other
// status) or a whole number, documented or not.
func parseStatus(v string) (int64, error) {
	for code, name := range statusNames {
		if strings.EqualFold(v, *name) {
			return code, nil
		}
	}
	code, err := strconv.ParseInt(v, 10, 64)
	if err == nil {
		return code, nil
	}
	what := "is neither a status name nor a whole-number code"
	if errors.Is(err, strconv.ErrRange) {
		what = "is too large for a status code"
	}
	return 0, fmt.Errorf("status = %q %s. Write a name or its code: %s (another whole number is sent as a code, with a warning).%s",
		v, what, knownStatusCodes(), didYouMean(v, statusNameList()))
}

// statusNameList are the documented names, in the order of their codes.
func statusNameList() []string { return strings.Split(knownStatusNames(), ", ") }

// unknownStatusWarnings warns of a status filter that is not a documented
// code, once, after the read (a validator would warn at every validation
// Terraform makes, and cannot see strict_filters).
func unknownStatusWarnings(status *int64, held int) []readWarning {
	if status == nil {
		return nil
	}
	if _, known := statusNames[*status]; known {
		return nil
	}
	s := *status
	return []readWarning{{attr: "status", filter: true, summary: "Unknown membership status code",
		detail: fmt.Sprintf("status = %d is not a status code the API documents (the known codes are %s); %s. "+
			"The read was made with %d all the same, since new codes may appear; if you meant one of the known codes, "+
			"correct it: a status no membership has reads an empty list.", s, knownStatusCodes(), heldBy(held, s), s),
		strictDetail: fmt.Sprintf("status = %d is not a status code the API documents (the known codes are %s); %s.", s, knownStatusCodes(), heldBy(held, s)),
		advice: fmt.Sprintf(" strict_filters is on, so the read failed. If %d is a code the API has added, set strict_filters = false on this data source "+
			"to read it; otherwise correct it.", s)}}
}

// heldBy says how many memberships the API returned with status s.
func heldBy(held int, s int64) string {
	switch held {
	case 0:
		return fmt.Sprintf("the API returned no membership with status %d", s)
	case 1:
		return fmt.Sprintf("the API returned 1 membership with status %d", s)
	}
	return fmt.Sprintf("the API returned %d memberships with status %d", held, s)
}
