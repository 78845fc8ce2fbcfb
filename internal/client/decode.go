package client

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

	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// Decoding uses github.com/go-json-experiment/json, the module behind Go's
// encoding/json/v2 (still behind GOEXPERIMENT in the standard library): it
// scans a page once, streaming, where encoding/json scans each record three
// times, and it matches field names exactly. A 1000-record page of
// memberships decodes about three times faster (BenchmarkDecodeMembershipPage).
// Raw record bytes are slices of the page body, which the records then keep
// alive only when their JSON was asked for.

// decodedRecord is one record of a page with the bytes it came from. raw is
// set only when the record's JSON was asked for.
type decodedRecord[T any] struct {
	rec T
	raw []byte
}

// decodeArray decodes a JSON array page one element at a time: every field
// of each record, or with a mask only the masked ones.
func decodeArray[T any, PT interface {
	*T
	record
}](body []byte, keepRaw bool, only fieldMask) ([]decodedRecord[T], error) {
	if isJSONNull(body) {
		return nil, nil // an empty list, as servers that encode an empty slice as null send it
	}
	if err := expectStart(body, '['); err != nil {
		return nil, err
	}
	dec := jsontext.NewDecoder(bytes.NewBuffer(body), decodeOptions)
	if _, err := dec.ReadToken(); err != nil { // the '['
		return nil, describeJSONError(err)
	}
	var out []decodedRecord[T]
	for {
		kind := dec.PeekKind()
		if kind == ']' {
			break
		}
		if kind != '{' {
			if _, err := dec.ReadValue(); err != nil {
				return nil, fmt.Errorf("record %d: %w", len(out)+1, describeJSONError(err))
			}
			return nil, fmt.Errorf("record %d: expected a JSON object, got %s", len(out)+1, jsonKind(byte(kind)))
		}
		// One pass: the record is decoded straight from the stream, and
		// its bytes are sliced from the body by offset when needed.
		start := dec.InputOffset()
		var d decodedRecord[T]
		var err error
		if only != nil {
			err = decodeMasked(dec, &d.rec, only)
		} else {
			err = jsonv2.UnmarshalDecode(dec, &d.rec)
		}
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out)+1, describeJSONError(err))
		}
		if keepRaw {
			d.raw = bytes.TrimLeft(body[start:dec.InputOffset()], " \t\r\n,")
		}
		out = append(out, d)
	}
	if _, err := dec.ReadToken(); err != nil { // the ']'
		return nil, describeJSONError(err)
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

// expectStart checks the first non-space byte, to name what came instead of
// JSON (an HTML error page, a bare string) rather than a parser offset.
func expectStart(b []byte, want byte) error {
	t := bytes.TrimLeft(b, " \t\r\n")
	if len(t) == 0 {
		return errors.New("the body is empty")
	}
	if t[0] == want {
		return nil
	}
	kind := map[byte]string{'[': "a JSON array", '{': "a JSON object"}[want]
	if !jsontext.Value(t).IsValid() {
		return &notJSONError{want: kind, start: string(t[:min(len(t), notJSONKept)])}
	}
	return fmt.Errorf("expected %s, got %s", kind, jsonKind(t[0]))
}

// notJSONKept is how much of a body that is not JSON its error keeps: the
// excerpt shown is far shorter, but the token is removed before the excerpt
// is cut, so a token starting within it must be kept whole.
const notJSONKept = 4096

// notJSONError is a body that is not JSON. Its excerpt is made when the
// message is, once the client has told it the token (Client.withoutToken).
type notJSONError struct {
	want  string // "a JSON array"
	start string // the body's first bytes
	token string
}

func (e *notJSONError) Error() string {
	return fmt.Sprintf("expected %s, but the body is not JSON (it starts %q)", e.want,
		redact.Text(e.start, 40, redact.Secret{Value: e.token}))
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

// describeJSONError names the JSON field and types, not the Go ones.
func describeJSONError(err error) error {
	var semantic *jsonv2.SemanticError
	var syntactic *jsontext.SyntacticError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("the JSON is truncated")
	case errors.As(err, &semantic):
		field := jsonField(semantic.JSONPointer)
		got := "value"
		if semantic.JSONKind != 0 {
			// A Kind is the value's first byte ('"', '0', '{', …); its
			// String is a word ("string", "number"), not a byte to classify.
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

// jsonField names the field a JSON pointer leads to as a dotted path.
// Records are decoded inside their page's array, so their pointers start
// with the array index, which the "record N" prefix already gives: drop it.
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
