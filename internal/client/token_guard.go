package client

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/paging"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// The token guard: a record that echoes the access token (any spelling,
// redact.Spellings) fails the read, naming its position and field, before
// the token can reach state. A token under redact.MinLength is not looked
// for: ordinary values would hold it.

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

// tokenGuard checks the records of one read pass.
type tokenGuard[T any] struct {
	spelled  []string // the token's spellings (redact.Spellings), made once a pass; none for a token too short to guard
	needles  [][]byte // their starts, each once
	endpoint string
	seen     int
	first    *TokenInRecordError
}

func newTokenGuard[T any](token, endpoint string) *tokenGuard[T] {
	g := &tokenGuard[T]{endpoint: endpoint}
	if len(token) >= redact.MinLength {
		g.spelled = redact.Spellings(token)
		for _, f := range g.spelled {
			if n := []byte(f[:min(len(f), redact.MinRun)]); !slices.ContainsFunc(g.needles, func(m []byte) bool { return bytes.Equal(m, n) }) {
				g.needles = append(g.needles, n)
			}
		}
	}
	return g
}

// See looks into a record's fields when its bytes hold the start of a
// spelling or a \u escape (or are not given): walking every record would
// cost a large read a third of its time.
func (g *tokenGuard[T]) See(rec *T, raw []byte) {
	g.seen++
	if g.spelled == nil || g.first != nil {
		return
	}
	if raw != nil && !bytes.Contains(raw, unicodeEscape) && !slices.ContainsFunc(g.needles, func(n []byte) bool { return bytes.Contains(raw, n) }) {
		return
	}
	if field, ok := tokenField(reflect.ValueOf(rec).Elem(), g.spelled, ""); ok {
		g.first = &TokenInRecordError{Endpoint: g.endpoint, Record: g.seen, Field: field}
	}
}

func (g *tokenGuard[T]) Err() error {
	if g.first == nil {
		return nil
	}
	return g.first
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

// guards checks a record with each of its guards; the first error wins.
type guards[T any] []paging.Guard[T]

func (gs guards[T]) See(rec *T, raw []byte) {
	for _, g := range gs {
		g.See(rec, raw)
	}
}

func (gs guards[T]) Err() error {
	for _, g := range gs {
		if err := g.Err(); err != nil {
			return err
		}
	}
	return nil
}
