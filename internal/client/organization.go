package client

import (
	"fmt"
	"strings"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// The organization guard's error (guard.go).

// OrganizationError is a read that returned records of another
// organization than the one configured.
type OrganizationError struct {
	Endpoint string
	Want     string // Config.OrganizationID
	Got      string // the first differing organization_id, redacted of the token
	RecordID string // that record's id, likewise; "" when it has none
	Count    int    // how many records differ
}

func (e *OrganizationError) Error() string { return e.WordWith(ConfigNames) }

// WordWith words the settings to check.
func (e *OrganizationError) WordWith(name failure.Namer) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: ", e.Endpoint)
	if e.RecordID != "" {
		fmt.Fprintf(&b, "record %s", quoteServerText(e.RecordID))
	} else {
		b.WriteString("a record")
	}
	got, want := quoteCompared(e.Got, e.Want)
	fmt.Fprintf(&b, " belongs to organization %s, not to %s (the configured %s)", got, want, name(SettingOrganizationID))
	if e.Count > 1 {
		fmt.Fprintf(&b, ", and %d records in all belong to another organization", e.Count)
	}
	fmt.Fprintf(&b, ": the access token may belong to another organization. Check %s and %s; nothing of this read was returned",
		name(SettingToken), name(SettingOrganizationID))
	return b.String()
}

// quoteServerText quotes an id the server sent, escaped and cut.
func quoteServerText(s string) string { return fmt.Sprintf("%q", redact.Text(s, 80)) }

// quoteCompared quotes two differing values so that the difference shows:
// Go-quoted, and in ASCII-only escapes when they would still print alike
// (a Cyrillic о for an o); each cut to 80 characters.
func quoteCompared(a, b string) (string, string) {
	a, b = firstRunes(a, 80), firstRunes(b, 80)
	qa, qb := fmt.Sprintf("%q", a), fmt.Sprintf("%q", b)
	if qa == qb || a != b && sameLooking(qa, qb) {
		return fmt.Sprintf("%+q", a), fmt.Sprintf("%+q", b)
	}
	return qa, qb
}

// sameLooking reports two quoted texts of one length that differ only in
// characters outside ASCII.
func sameLooking(qa, qb string) bool {
	if len([]rune(qa)) != len([]rune(qb)) {
		return false
	}
	ra, rb := []rune(qa), []rune(qb)
	for i := range ra {
		if ra[i] != rb[i] && ra[i] < 0x80 && rb[i] < 0x80 {
			return false // an ASCII difference shows as it is
		}
	}
	return true
}

// firstRunes cuts s to n runes, marking a cut with "…".
func firstRunes(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
