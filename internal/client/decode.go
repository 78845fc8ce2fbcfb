package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// decodedRecord is one record of a page with the bytes it came from.
type decodedRecord[T any] struct {
	rec T
	raw json.RawMessage
}

// decodeArray decodes a JSON array page one element at a time.
func decodeArray[T any](body []byte) ([]decodedRecord[T], error) {
	if err := expectStart(body, '['); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if _, err := dec.Token(); err != nil { // the '['
		return nil, describeJSONError(err)
	}
	var out []decodedRecord[T]
	for dec.More() {
		var d decodedRecord[T]
		if err := dec.Decode(&d.raw); err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out)+1, describeJSONError(err))
		}
		if err := decodeRecord(d.raw, &d.rec); err != nil {
			return nil, fmt.Errorf("record %d: %w", len(out)+1, err)
		}
		out = append(out, d)
	}
	if _, err := dec.Token(); err != nil { // the ']'
		return nil, describeJSONError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the JSON array")
	}
	return out, nil
}

// decodeRecord decodes one element, which must be a JSON object.
func decodeRecord[T any](raw json.RawMessage, rec *T) error {
	if err := expectStart(raw, '{'); err != nil {
		return err
	}
	if err := json.Unmarshal(raw, rec); err != nil {
		return describeJSONError(err)
	}
	return nil
}

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
	if !json.Valid(t) {
		return fmt.Errorf("expected %s, but the body is not JSON (it starts %q)", kind, sanitizeExcerpt(t[:min(len(t), 40)], ""))
	}
	return fmt.Errorf("expected %s, got %s", kind, jsonKind(t[0]))
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
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		return fmt.Errorf("field %q: got a JSON %s, want %s", typeErr.Field, typeErr.Value, wantKind(typeErr.Type.String()))
	case errors.As(err, &syntaxErr):
		return fmt.Errorf("malformed JSON at byte %d: %v", syntaxErr.Offset, syntaxErr)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return errors.New("the JSON is truncated")
	}
	return err
}

func wantKind(goType string) string {
	switch goType {
	case "int64":
		return "an integer"
	case "string":
		return "a string"
	}
	return "another type (" + goType + ")"
}
