package main

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"runtime"

	"github.com/go-json-experiment/json/jsontext"
)

// event is what the relay reads of a webhook: nothing it acts on but the
// event type and the organization.
type event struct {
	eventType      string // "" for a bare object (the public webhooks page's shape)
	organizationID string
	id             string
}

// readFields are the top-level fields the relay reads; every other value
// is skipped as it streams past.
var readFields = []string{"webhook_event_type", "organization_id", "_id"}

// fieldName is the read field a quoted member name names, or "".
func fieldName(quoted jsontext.Value) string {
	name := []byte(quoted[1 : len(quoted)-1])
	if bytes.IndexByte(name, '\\') >= 0 { // escaped: compare what it says
		name, _ = jsontext.AppendUnquote(nil, quoted)
	}
	for _, f := range readFields {
		if string(name) == f {
			return f
		}
	}
	return ""
}

// errBody is a body that is not one JSON object, or whose event type is
// not a string: a 400.
type errBody string

func (e errBody) Error() string { return string(e) }

// readEvent reads a body that must be one JSON object, as it streams in:
// no map of it is built and no value but the three read is kept, so any
// body up to the size limit costs a decoder's buffer (its largest value),
// however many keys it holds. Its fields are the resource's plus
// webhook_event_type (API.md#the-request); a field of another type than a string
// reads as absent, and a non-string event type is refused. The error is
// an errBody, the reader's (*http.MaxBytesError over the limit), or
// another read error.
func readEvent(r io.Reader) (event, error) {
	// Duplicate names are allowed (the last wins, as encoding/json has it):
	// checking them would keep every name.
	dec := jsontext.NewDecoder(r, jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var ev event
	badEventType := false
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return ev, bodyError(err)
	}
	for n := 1; dec.PeekKind() != '}'; n++ {
		if n%1024 == 0 {
			runtime.Gosched() // a body of many keys yields to the service's webhooks
		}
		name, err := dec.ReadValue() // quoted; no string is made of a name not read
		if err != nil {
			return ev, bodyError(err)
		}
		field := fieldName(name)
		if field == "" {
			if err := dec.SkipValue(); err != nil {
				return ev, bodyError(err)
			}
			continue
		}
		v, err := dec.ReadValue()
		if err != nil {
			return ev, bodyError(err)
		}
		s := ""
		if v.Kind() == '"' {
			b, _ := jsontext.AppendUnquote(nil, v)
			s = string(b)
		}
		switch field {
		case "webhook_event_type":
			// Any field can be null (API.md#records-and-fields): a null event type is an
			// absent one. A repeated name: the last value counts.
			badEventType = v.Kind() != 'n' && s == ""
			ev.eventType = s
		case "organization_id":
			ev.organizationID = s
		case "_id":
			ev.id = s
		}
	}
	if _, err := dec.ReadToken(); err != nil { // the closing brace
		return ev, bodyError(err)
	}
	if _, err := dec.ReadToken(); !errors.Is(err, io.EOF) { // nothing after the object
		return ev, bodyError(err)
	}
	if badEventType {
		return ev, errBody("webhook_event_type is not a string")
	}
	return ev, nil
}

// notObject is readEvent's complaint of a body's syntax.
const notObject = errBody("the body is not a JSON object")

// bodyError is the reader's own error when reading failed (the size limit,
// a dropped connection), else notObject.
func bodyError(err error) error {
	var tooLarge *http.MaxBytesError
	switch {
	case err == nil, errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return notObject
	case errors.As(err, &tooLarge):
		return tooLarge
	case errors.As(err, new(*jsontext.SyntacticError)):
		return notObject
	default:
		return err
	}
}
