package client

import (
	"bytes"
	"fmt"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/paging"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// What every record type shares. Fields are pointers: any may be null or
// absent, and Terraform must see null.

// JSONText holds a value of undocumented shape as text.
type JSONText string

// MaxJSONTextDepth is how deeply a value kept as JSON text may nest:
// 9,000 levels in 90 KB stalled a plan's renderer for minutes.
const MaxJSONTextDepth = 64

// UnmarshalJSON keeps strings as their value and anything else as compact
// JSON, nested at most MaxJSONTextDepth levels.
func (t *JSONText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := jsonv2.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = JSONText(s)
		return nil
	}
	if d := jsonDepth(b); d > MaxJSONTextDepth {
		return &pagejson.RefusedValue{Reason: fmt.Sprintf("the value nests %d levels of arrays and objects, more than the %d this provider hands Terraform as JSON text", d, MaxJSONTextDepth)}
	}
	v := jsontext.Value(bytes.Clone(b))
	if err := v.Compact(); err != nil {
		return err
	}
	*t = JSONText(v)
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// jsonDepth is the deepest nesting of arrays and objects in the JSON b.
func jsonDepth(b []byte) int {
	depth, deepest, inString := 0, 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '[' || c == '{':
			depth++
			deepest = max(deepest, depth)
		case c == ']' || c == '}':
			depth--
		}
	}
	return deepest
}

// MaxRecordValues bounds the values of one record (a membership holds
// about 40): a million custom answers in one wrote a 290 MB state.
const MaxRecordValues = 10_000

// textOf is the bytes of the strings that are there.
func textOf(strs ...*string) int64 {
	var n int
	for _, s := range strs {
		if s != nil {
			n += len(*s)
		}
	}
	return int64(n)
}

// record is what a read needs of a record type.
type record interface {
	paging.Record
	organizationValue() *string
	// weigh is what the record weighs against a read's budget
	// (paging.Budget) beyond its fields' width: the values nested in it
	// and the bytes of its text. Hand-written beside each record type: it
	// runs for every record.
	weigh() (nested, text int64)
}
