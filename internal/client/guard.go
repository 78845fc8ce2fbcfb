package client

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// The record guard sees every record of a pass, duplicates included, and
// fails the read for either of two records:
//   - one that echoes the access token (any spelling, redact.Spellings),
//     named by its position and field, before the token can reach state;
//     a token under redact.MinLength is not looked for: ordinary values
//     would hold it;
//   - with Config.OrganizationID set, one of another organization (a
//     staging token in a production pipeline); a record without
//     organization_id passes (organization.go words the error).

// TokenInRecordError is a read whose records carry the access token.
type TokenInRecordError struct {
	Endpoint string
	Record   int    // the record's position in the read, from 1
	Field    string // its JSON member, e.g. "profile.first_name"
}

func (e *TokenInRecordError) Error() string {
	return fmt.Sprintf("%s: record %d holds the access token in its %s: the server echoes the token in the data it serves, "+
		"and the read fails so that the token does not reach Terraform's state, plan or outputs; nothing of this read was returned. "+
		"Report it to the API's operator, and replace the token if the answer may have been seen by others", e.Endpoint, e.Record, e.Field)
}

// recordGuard checks the records of one pass.
type recordGuard[T any, PT interface {
	*T
	record
}] struct {
	endpoint string
	seen     int
	spelled  []string // the token's spellings, made once a pass; none for a token too short to guard
	starts   []string // their starts, each once
	needles  [][]byte // the same, to look for in a record's bytes
	scanRaw  bool     // look into a record's fields only when its bytes hold a start
	token    string
	org      string // Config.OrganizationID; "" checks nothing
	inRecord *TokenInRecordError
	otherOrg *OrganizationError
}

func newRecordGuard[T any, PT interface {
	*T
	record
}](c *Client, endpoint string, scanRaw bool) *recordGuard[T, PT] {
	g := &recordGuard[T, PT]{endpoint: endpoint, token: c.cfg.Token, org: c.cfg.OrganizationID, scanRaw: scanRaw}
	if len(g.token) >= redact.MinLength {
		g.spelled = redact.Spellings(g.token)
		for _, f := range g.spelled {
			if n := f[:min(len(f), redact.MinRun)]; !slices.Contains(g.starts, n) {
				g.starts = append(g.starts, n)
				g.needles = append(g.needles, []byte(n))
			}
		}
	}
	return g
}

// See checks one record. Where its bytes are what it holds (decoded
// whole), it looks into its fields for the token only when they hold the
// start of a spelling or a \u escape: walking every record would cost a
// large read a third of its time. A record decoded through a mask, its
// bytes not kept, holds only the fields decoded, a few short strings: it
// is walked, which costs less than looking through bytes the read drops.
func (g *recordGuard[T, PT]) See(rec *T, raw []byte) {
	g.seen++
	if g.org != "" {
		if got := PT(rec).organizationValue(); got != nil && *got != g.org {
			if g.otherOrg == nil {
				// Server text, redacted; the organization otherwise as
				// sent, so that what makes it differ shows.
				token := redact.Secret{Value: g.token}
				g.otherOrg = &OrganizationError{Endpoint: g.endpoint, Want: g.org,
					Got: redact.Secrets(*got, token), RecordID: redact.Text(PT(rec).Key(), 0, token)}
			}
			g.otherOrg.Count++
		}
	}
	if g.spelled == nil || g.inRecord != nil {
		return
	}
	if g.scanRaw && raw != nil && !bytes.Contains(raw, unicodeEscape) && !slices.ContainsFunc(g.needles, func(n []byte) bool { return bytes.Contains(raw, n) }) {
		return
	}
	if field, ok := tokenField(reflect.ValueOf(rec).Elem(), g.holdsToken); ok {
		g.inRecord = &TokenInRecordError{Endpoint: g.endpoint, Record: g.seen, Field: field}
	}
}

// Err is the pass's error, nil when every record passed; another
// organization says more than where a token was echoed.
func (g *recordGuard[T, PT]) Err() error {
	switch {
	case g.otherOrg != nil:
		return g.otherOrg
	case g.inRecord != nil:
		return g.inRecord
	}
	return nil
}

// holdsToken reports a string holding a spelling of the token; a start
// of one is looked for first, in one pass each.
func (g *recordGuard[T, PT]) holdsToken(s string) bool {
	return slices.ContainsFunc(g.starts, func(n string) bool { return strings.Contains(s, n) }) &&
		slices.ContainsFunc(g.spelled, func(f string) bool { return strings.Contains(s, f) })
}

// tokenField names, by its JSON path, the first string of v for which
// holds is true; the path is made only for the one found.
func tokenField(v reflect.Value, holds func(string) bool) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return "", false
		}
		return tokenField(v.Elem(), holds)
	case reflect.String:
		return "", holds(v.String())
	case reflect.Slice:
		for i := range v.Len() {
			if f, ok := tokenField(v.Index(i), holds); ok {
				return joinPath(fmt.Sprintf("[%d]", i), f), true
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if !v.Field(i).CanInterface() {
				continue // unexported
			}
			if f, ok := tokenField(v.Field(i), holds); ok {
				sf := v.Type().Field(i)
				name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
				switch name {
				case "-":
					name = "raw JSON"
				case "":
					name = sf.Name
				}
				return joinPath(name, f), true
			}
		}
	}
	return "", false
}

// unicodeEscape starts a JSON \u escape.
var unicodeEscape = []byte(`\u`)

// joinPath is the path of child within head: "profile.first_name",
// "custom_answers[0].answer".
func joinPath(head, child string) string {
	switch {
	case child == "":
		return head
	case child[0] == '[':
		return head + child
	}
	return head + "." + child
}
