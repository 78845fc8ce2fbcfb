package pagejson

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// A read that returns only some fields of each record decodes only those:
// the other members of each record object are skipped in the JSON stream,
// never allocated. The lean read of a million memberships keeps two strings
// of each record instead of every field.

// Mask is the JSON members to decode, each quoted as it appears on
// the wire (so a name read from the stream is looked up without
// unquoting it), with the index of the struct field it fills.
type Mask map[string]int

// NewMask builds the mask of T (a record struct) for JSON member
// names. The record's "_id" is always decoded: a read deduplicates by it.
// nil names give a nil mask: every field.
func NewMask[T any](names []string) (Mask, error) {
	if names == nil {
		return nil, nil
	}
	byName := FieldIndex(reflect.TypeFor[T]())
	m := Mask{}
	for _, name := range append([]string{"_id"}, names...) {
		i, ok := byName[name]
		if !ok {
			return nil, fmt.Errorf("%s has no JSON field %q", reflect.TypeFor[T]().Name(), name)
		}
		m[`"`+name+`"`] = i
	}
	return m, nil
}

// FieldIndex maps a struct's JSON member names to its field indexes.
func FieldIndex(t reflect.Type) map[string]int {
	out := map[string]int{}
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" {
			out[name] = i
		}
	}
	return out
}

// WithMember adds a JSON member to the names of a mask, for a check that
// reads it; nil (every member) stays nil, and a named member is not added
// twice.
func WithMember(fields []string, name string) []string {
	if fields == nil || slices.Contains(fields, name) {
		return fields
	}
	return append(slices.Clip(fields), name)
}

// Key is the mask's cache key part: reads with different masks hold
// different records.
func (m Mask) Key() string {
	if m == nil {
		return "*"
	}
	return strings.Join(slices.Sorted(maps.Keys(m)), ",")
}

// decodeMasked decodes the record object at the decoder into rec, only the
// members in the mask; every other member's value is skipped unread.
func decodeMasked[T any](dec *jsontext.Decoder, rec *T, only Mask) error {
	if _, err := dec.ReadToken(); err != nil { // the '{'
		return err
	}
	fields := reflect.ValueOf(rec).Elem()
	for dec.PeekKind() != '}' {
		name, err := dec.ReadValue() // a name, quoted, as sent
		if err != nil {
			return err
		}
		i, ok := only[string(name)]
		if !ok && name.Kind() == '"' && strings.ContainsRune(string(name), '\\') {
			// A name spelled with escapes: compare it unescaped.
			unquoted, uerr := jsontext.AppendUnquote(nil, name)
			if uerr != nil {
				return uerr
			}
			i, ok = only[`"`+string(unquoted)+`"`]
		}
		if !ok {
			if err := dec.SkipValue(); err != nil {
				return err
			}
			continue
		}
		if err := jsonv2.UnmarshalDecode(dec, fields.Field(i).Addr().Interface()); err != nil {
			return err
		}
	}
	_, err := dec.ReadToken() // the '}'
	return err
}
