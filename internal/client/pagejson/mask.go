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

// Mask is the JSON members to decode (the others are skipped in the
// stream, never allocated), each quoted as on the wire, with the index of
// the struct field it fills.
type Mask map[string]int

// NewMask is T's mask for names, and "_id" (a read deduplicates by it);
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

// WithMember adds name to a mask's names; nil (every member) stays nil.
func WithMember(fields []string, name string) []string {
	if fields == nil || slices.Contains(fields, name) {
		return fields
	}
	return append(slices.Clip(fields), name)
}

// Key is the mask's part of a cache key.
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
