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
	needles  [][]byte // their starts, each once
	token    string
	org      string // Config.OrganizationID; "" checks nothing
	inRecord *TokenInRecordError
	otherOrg *OrganizationError
}

func newRecordGuard[T any, PT interface {
	*T
	record
}](c *Client, endpoint string) *recordGuard[T, PT] {
	g := &recordGuard[T, PT]{endpoint: endpoint, token: c.cfg.Token, org: c.cfg.OrganizationID}
	if len(g.token) >= redact.MinLength {
		g.spelled = redact.Spellings(g.token)
		for _, f := range g.spelled {
			if n := []byte(f[:min(len(f), redact.MinRun)]); !slices.ContainsFunc(g.needles, func(m []byte) bool { return bytes.Equal(m, n) }) {
				g.needles = append(g.needles, n)
			}
		}
	}
	return g
}

// See checks one record. It looks into a record's fields for the token
// only when its bytes hold the start of a spelling or a \u escape (or are
// not given): walking every record would cost a large read a third of its
// time.
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
	if raw != nil && !bytes.Contains(raw, unicodeEscape) && !slices.ContainsFunc(g.needles, func(n []byte) bool { return bytes.Contains(raw, n) }) {
		return
	}
	if field, ok := tokenField(reflect.ValueOf(rec).Elem(), g.spelled, ""); ok {
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

// tokenField names, by its JSON path, the first string of v holding a
// spelling of the token.
func tokenField(v reflect.Value, spelled []string, prefix string) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return "", false
		}
		return tokenField(v.Elem(), spelled, prefix)
	case reflect.String:
		return prefix, slices.ContainsFunc(spelled, func(f string) bool { return strings.Contains(v.String(), f) })
	case reflect.Slice:
		for i := range v.Len() {
			if f, ok := tokenField(v.Index(i), spelled, fmt.Sprintf("%s[%d]", prefix, i)); ok {
				return f, true
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := range t.NumField() {
			sf := t.Field(i)
			if !sf.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
			switch name {
			case "-":
				name = "raw JSON"
			case "":
				name = sf.Name
			}
			if f, ok := tokenField(v.Field(i), spelled, joinPath(prefix, name)); ok {
				return f, true
			}
		}
	}
	return "", false
}

// unicodeEscape starts a JSON \u escape.
var unicodeEscape = []byte(`\u`)

func joinPath(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
