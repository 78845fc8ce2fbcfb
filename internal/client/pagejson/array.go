// Package pagejson decodes the API's answers: a page of records, the
// metadata object of limit-style endpoints, field masks, and the repair of
// text that is not valid Unicode. It is pure, and never puts the body's
// bytes in an error.
package pagejson

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Decoding uses go-json-experiment/json (encoding/json/v2): it scans a
// page once, streaming, about three times faster than encoding/json
// (BenchmarkDecodeMembershipPage), and matches names exactly.

// Record is one record of a page with its bytes as sent (a slice of the
// page's body, valid until the body is recycled).
type Record[T any] struct {
	Rec T
	Raw []byte
}

// DecodeArray decodes a JSON array page one element at a time: every field
// of each record, or with a mask only the masked ones.
func DecodeArray[T any](body []byte, keepRaw bool, only Mask) ([]Record[T], error) {
	return DecodeArrayAtMost[T](body, keepRaw, only, 0)
}

// TooManyRecordsError is a page holding more records than its reader
// would keep: decoding stopped there.
type TooManyRecordsError struct{ Max int }

func (e *TooManyRecordsError) Error() string {
	return fmt.Sprintf("the page holds more than %d records", e.Max)
}

// DecodeArrayAtMost is DecodeArray that stops with a *TooManyRecordsError
// past limit records (0: none).
func DecodeArrayAtMost[T any](body []byte, keepRaw bool, only Mask, limit int) ([]Record[T], error) {
	if isJSONNull(body) {
		return nil, nil // an empty list, as servers that encode an empty slice as null send it
	}
	if err := ExpectStart(body, '['); err != nil {
		return nil, err
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(body), decodeOptions)
	if _, err := dec.ReadToken(); err != nil { // the '['
		return nil, DescribeError(err)
	}
	var out []Record[T]
	for {
		kind := dec.PeekKind()
		if kind == ']' {
			break
		}
		if limit > 0 && len(out) == limit {
			return nil, &TooManyRecordsError{Max: limit}
		}
		if kind != '{' {
			if _, err := dec.ReadValue(); err != nil {
				return nil, fmt.Errorf("record %d: %w", len(out)+1, DescribeError(err))
			}
			return nil, fmt.Errorf("record %d: expected a JSON object, got %s", len(out)+1, jsonKind(byte(kind)))
		}
		// One pass: the record is decoded straight from the stream, and
		// its bytes are sliced from the body by offset when needed.
		start := dec.InputOffset()
		var d Record[T]
		var err error
		if only != nil {
			err = decodeMasked(dec, &d.Rec, only)
		} else {
			err = jsonv2.UnmarshalDecode(dec, &d.Rec)
		}
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out)+1, DescribeError(err))
		}
		d.Raw = bytes.TrimLeft(body[start:dec.InputOffset()], " \t\r\n,")
		out = append(out, d)
	}
	if _, err := dec.ReadToken(); err != nil { // the ']'
		return nil, DescribeError(err)
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON array")
	}
	return out, nil
}

// isJSONNull reports a body that is the JSON null alone.
func isJSONNull(b []byte) bool { return string(bytes.TrimSpace(b)) == "null" }

// decodeOptions: duplicate member names are allowed, the last one winning
// as with encoding/json; checking for them costs a map insert per field.
var decodeOptions = jsontext.AllowDuplicateNames(true)

// ExpectStart checks the first non-space byte, to name what came instead of
// JSON (an HTML error page, a bare string) rather than a parser offset.
func ExpectStart(b []byte, want byte) error {
	t := bytes.TrimLeft(b, " \t\r\n")
	if len(t) == 0 {
		return errors.New("the body is empty")
	}
	if t[0] == want {
		return nil
	}
	kind := jsonKind(want)
	if !jsontext.Value(t).IsValid() {
		return &NotJSONError{Want: kind}
	}
	return fmt.Errorf("expected %s, got %s", kind, jsonKind(t[0]))
}

// NotJSONError is a body that is not JSON (a maintenance page, say).
type NotJSONError struct{ Want string }

func (e *NotJSONError) Error() string {
	return fmt.Sprintf("expected %s, but the body is not JSON", e.Want)
}

func jsonKind(c byte) string {
	switch c {
	case '{':
		return "a JSON object"
	case '[':
		return "a JSON array"
	case '"':
		return "a JSON string"
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// RefusedValue is a value a record type's decoder refuses for what it
// holds (JSON text nested too deep), which asking again cannot change.
type RefusedValue struct{ Reason string }

func (e *RefusedValue) Error() string { return e.Reason }

// DescribeError names the JSON field and types of a decoding error, not
// the Go ones.
func DescribeError(err error) error {
	var semantic *jsonv2.SemanticError
	var syntactic *jsontext.SyntacticError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("the JSON is truncated")
	case errors.As(err, &semantic):
		field := jsonField(semantic.JSONPointer)
		var refused *RefusedValue
		if errors.As(semantic.Err, &refused) {
			return fmt.Errorf("field %q: %w", field, refused)
		}
		got := "value"
		if semantic.JSONKind != 0 {
			got = jsonKind(byte(semantic.JSONKind))
		}
		want := "another type"
		if semantic.GoType != nil {
			want = wantKind(semantic.GoType.String())
		}
		return fmt.Errorf("field %q: got %s, want %s", field, got, want)
	case errors.As(err, &syntactic):
		return fmt.Errorf("malformed JSON at byte %d: %w", syntactic.ByteOffset, syntactic.Err)
	}
	return err
}

// jsonField is a JSON pointer as a dotted path, without the record's
// index in the page (the "record N" prefix gives it).
func jsonField(p jsontext.Pointer) string {
	toks := slices.Collect(p.Tokens())
	if len(toks) > 1 {
		if _, err := strconv.Atoi(toks[0]); err == nil {
			toks = toks[1:]
		}
	}
	return strings.Join(toks, ".")
}

func wantKind(goType string) string {
	switch strings.TrimLeft(goType, "*") {
	case "int64":
		return "an integer"
	case "string":
		return "a string"
	}
	return "another type (" + goType + ")"
}
