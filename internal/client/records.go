package client

import (
	"bytes"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// What every record type shares. Each record type lives in the file of its
// endpoint (memberships.go, payments.go, groups.go, org_metrics.go), with
// the read that returns it.
//
// Every field is a pointer: the specification says any field can be null or
// absent, and Terraform must see null, not a zero value. RawJSON holds the
// record's JSON as the API sent it, only when the read asked for it; text
// that was not valid Unicode shows there as repaired (U+FFFD, see
// textrepair.go), since Terraform strings must be valid UTF-8.

// JSONText holds a value of undocumented shape as text.
type JSONText string

// UnmarshalJSON keeps strings as their value and anything else as compact JSON.
func (t *JSONText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := jsonv2.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = JSONText(s)
		return nil
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
