package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"testing"
)

// What each attribute of a record's state should hold, worked out from the
// API's JSON for that record without the provider's code: each data
// source's want<Record> in its ds_<name>_test.go, with the helpers here.
// The field names, the derived status_name and the JSON text of
// undocumented shapes are written there again on purpose, so a swapped,
// dropped or mistyped field in ds_*.go disagrees with them. Values take the
// shapes of Terraform's JSON state: string, json.Number, bool, []any,
// map[string]any, nil for null.

// fields is one API record, its values still JSON.
type fields map[string]json.RawMessage

func decodeFields(t *testing.T, raw []byte) fields {
	t.Helper()
	var f fields
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatalf("record %s: %v", raw, err)
	}
	return f
}

func isNull(v json.RawMessage) bool { return v == nil || bytes.Equal(v, []byte("null")) }

// text is a string field: nil when null or absent.
func (f fields) text(t *testing.T, key string) any {
	t.Helper()
	if isNull(f[key]) {
		return nil
	}
	var s string
	if err := json.Unmarshal(f[key], &s); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return s
}

// number is an integer field, as the JSON state writes it.
func (f fields) number(t *testing.T, key string) any {
	t.Helper()
	if isNull(f[key]) {
		return nil
	}
	return json.Number(f[key])
}

// jsonText is a field of undocumented shape: a string as its value, any
// other value as its compact JSON.
func (f fields) jsonText(t *testing.T, key string) any {
	t.Helper()
	v := f[key]
	if isNull(v) {
		return nil
	}
	if v[0] == '"' {
		return f.text(t, key)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, v); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func (f fields) textList(t *testing.T, key string) any {
	t.Helper()
	if isNull(f[key]) {
		return nil
	}
	var items []*string
	if err := json.Unmarshal(f[key], &items); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	out := []any{}
	for _, s := range items {
		if s == nil {
			out = append(out, nil)
		} else {
			out = append(out, *s)
		}
	}
	return out
}

func rawOrNull(raw []byte, include bool) any {
	if include {
		return string(raw)
	}
	return nil
}

func each[T any](records [][]byte, want func([]byte) T) []any {
	out := []any{}
	for _, r := range records {
		out = append(out, want(r))
	}
	return out
}

// diffValues lists where got and want differ, by path: a missing or extra
// attribute, a different value, or the same digits as another type.
func diffValues(path string, got, want any) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: got %#v, want an object", path, got)}
		}
		var out []string
		for k := range w {
			if _, ok := g[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: missing from the state", path, k))
			}
		}
		for k, gv := range g {
			wv, ok := w[k]
			if !ok {
				out = append(out, fmt.Sprintf("%s.%s: in the state but not checked (%#v)", path, k, gv))
				continue
			}
			out = append(out, diffValues(path+"."+k, gv, wv)...)
		}
		sort.Strings(out)
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: got %#v, want %d elements", path, got, len(w))}
		}
		var out []string
		for i := range w {
			out = append(out, diffValues(fmt.Sprintf("%s[%d]", path, i), g[i], w[i])...)
		}
		return out
	}
	if !reflect.DeepEqual(got, want) {
		return []string{fmt.Sprintf("%s: got %#v (%T), want %#v (%T)", path, got, got, want, want)}
	}
	return nil
}
