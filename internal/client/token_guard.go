package client

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/paging"
	"github.com/joinit-community/terraform-provider-joinit/internal/redact"
)

// The token guard. A server that echoes the access token in a record (as
// a member's display_name, an e-mail, an id, a custom answer) would put
// it in Terraform's state, the plan file, `terraform show -json` and any
// output that uses the record; the provider promises the token is never
// stored in state. So every record a read keeps is looked at, its decoded
// values for the token as it is or in base64 or hex, and its raw JSON
// (include_raw_json) for the token in any spelling the redaction knows
// (runs of it aside), and one that carries it
// fails the whole read, naming the record's position and its field, never
// the value, before anything is handed to Terraform.

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
	token    string
	endpoint string
	seen     int
	first    *TokenInRecordError
}

func (g *tokenGuard[T]) See(rec *T, raw []byte) {
	g.seen++
	if g.token == "" || g.first != nil {
		return
	}
	decoded, rawOnly := mayHoldToken(raw, g.token)
	if !decoded && !rawOnly {
		return
	}
	if field, ok := tokenField(reflect.ValueOf(rec).Elem(), g.token, "", decoded); ok {
		g.first = &TokenInRecordError{Endpoint: g.endpoint, Record: g.seen, Field: field}
	}
}

func (g *tokenGuard[T]) Err() error {
	if g.first == nil {
		return nil
	}
	return g.first
}

// mayHoldToken says where a record's bytes as sent may hold the token:
// in its decoded values only when the bytes hold it as it is, in base64 or
// hex (redact.Encodings), or hold a backslash (a JSON escape); in its raw
// JSON, kept as sent, also when they hold a percent sign or an ampersand
// (the percent and HTML spellings the redaction knows). Most records are
// neither, and are not looked into: walking every field of every record
// costs a large read a third of its time.
func mayHoldToken(raw []byte, token string) (decoded, rawOnly bool) {
	if raw == nil || bytes.Contains(raw, []byte(token)) || bytes.IndexByte(raw, '\\') >= 0 {
		return true, false
	}
	for _, n := range needlesOf(token) {
		if bytes.Contains(raw, n) {
			return true, false
		}
	}
	return false, bytes.IndexByte(raw, '%') >= 0 || bytes.IndexByte(raw, '&') >= 0 // two vector scans: ContainsAny walks byte by byte
}

// needleLen is how much of each base64 or hex spelling of the token the
// first look searches a record's bytes for: 12 characters are 6 to 9 bytes
// of the token, which no record holds by chance, and the spellings that
// share them are one search.
const needleLen = 12

// needlesOf are the starts of the token's base64 and hex spellings, each
// once, cached per token: the guard looks for them in every record.
func needlesOf(token string) [][]byte {
	if n, ok := needles.Load(token); ok {
		return n.([][]byte) //nolint:forcetypeassert // only this function stores, and it stores [][]byte
	}
	var out [][]byte
	for _, e := range redact.Encodings(token) {
		n := []byte(e[:min(len(e), needleLen)])
		if !slices.ContainsFunc(out, func(m []byte) bool { return bytes.Equal(m, n) }) {
			out = append(out, n)
		}
	}
	needles.Store(token, out)
	return out
}

var needles sync.Map // token -> [][]byte

// holdsToken reports a decoded value that holds the token as it is, or in
// base64 or hex: what a module could decode back.
func holdsToken(s, token string) bool {
	if strings.Contains(s, token) {
		return true
	}
	for _, e := range redact.Encodings(token) {
		if strings.Contains(s, e) {
			return true
		}
	}
	return false
}

// tokenField finds the first value of v holding token, and names it by
// its JSON path from prefix. Decoded strings hold the token as it is, or
// in base64 or hex (decoding took their escapes away); the raw JSON kept of a record (a
// field tagged "-") may spell the token in any escape, so it is matched as
// the redaction matches it.
// With decoded false, only the raw JSON is looked at.
func tokenField(v reflect.Value, token, prefix string, decoded bool) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return "", false
		}
		return tokenField(v.Elem(), token, prefix, decoded)
	case reflect.String:
		return prefix, decoded && holdsToken(v.String(), token)
	case reflect.Slice:
		for i := range v.Len() {
			if f, ok := tokenField(v.Index(i), token, fmt.Sprintf("%s[%d]", prefix, i), decoded); ok {
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
			if name == "-" {
				if s := v.Field(i); s.Kind() == reflect.String && redact.Holds(s.String(), redact.Secret{Value: token}) {
					return joinPath(prefix, "raw JSON"), true
				}
				continue
			}
			if name == "" {
				name = sf.Name
			}
			if f, ok := tokenField(v.Field(i), token, joinPath(prefix, name), decoded); ok {
				return f, true
			}
		}
	}
	return "", false
}

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
