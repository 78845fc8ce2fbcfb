// Package redact keeps secrets (the access token; joinit-token's client
// secret and code) out of text a server sent, before it is placed in a
// message; the provider's own words never pass it. It looks for a fixed
// list of spellings (Spellings) and runs of MinRun characters; secrets
// under MinLength are too short to be secrets, and are not looked for.
package redact

import (
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultLabel replaces a secret whose Label is empty.
const DefaultLabel = "[redacted]"

// MinLength is the length from which a secret is looked for.
const MinLength = 8

// MinRun is the shortest run of a secret removed on its own.
const MinRun = 12

// Secret is a value to keep out of text, and what replaces it.
type Secret struct {
	Value string
	Label string // "" means DefaultLabel
}

// Text returns s with every secret's spellings replaced by its label,
// control characters and white space runs made one space, and, when limit
// > 0, cut to limit runes and "…" (after the secrets are removed).
func Text(s string, limit int, secrets ...Secret) string {
	s = strings.TrimSpace(printable(remove(s, secrets)))
	if limit > 0 {
		s = cut(s, limit)
	}
	return s
}

// Secrets returns s with every spelling of every secret replaced by its
// label, and nothing else changed: for a value shown as it was sent.
func Secrets(s string, secrets ...Secret) string { return remove(s, secrets) }

// Spellings are the secret as it is, JSON-escaped, percent-encoded once or
// twice, base64 and hex, each also Go-quoted: each once, longest first.
func Spellings(secret string) []string {
	b := []byte(secret)
	quoted, _ := json.Marshal(secret)
	jsonEscaped := string(quoted[1 : len(quoted)-1])
	forms := []string{
		secret, jsonEscaped, strings.ReplaceAll(jsonEscaped, "/", `\/`),
		url.QueryEscape(secret), url.PathEscape(secret), url.QueryEscape(url.QueryEscape(secret)),
		base64.StdEncoding.EncodeToString(b), base64.URLEncoding.EncodeToString(b),
		base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b),
		hex.EncodeToString(b), strings.ToUpper(hex.EncodeToString(b)),
	}
	for _, f := range forms[3:6] {
		forms = append(forms, lowerEscapes(f)) // %2f as well as %2F
	}
	for _, f := range slices.Clone(forms) {
		q := strconv.Quote(f) // Go's errors quote what they saw
		forms = append(forms, q[1:len(q)-1])
	}
	slices.SortFunc(forms, func(a, b string) int { return cmp.Or(len(b)-len(a), strings.Compare(a, b)) })
	return slices.Compact(forms)
}

// lowerEscapes writes the hex digits of s's percent escapes in lower case.
func lowerEscapes(s string) string { return percentEscape.ReplaceAllStringFunc(s, strings.ToLower) }

var percentEscape = regexp.MustCompile(`%(25)?[0-9A-F]{2}`) // %2F, and %252F escaped twice

// remove replaces every spelling of every secret in s, and every run of a
// secret of MinRun characters or more, with the secret's label.
func remove(s string, secrets []Secret) string {
	label := make([]string, len(s)) // the label over each byte to remove
	for _, sec := range secrets {
		if len(sec.Value) < MinLength {
			continue
		}
		l := cmp.Or(sec.Label, DefaultLabel)
		for _, f := range Spellings(sec.Value) {
			mark(s, f, l, label)
		}
		for i := 0; i+MinRun <= len(sec.Value); i++ {
			mark(s, sec.Value[i:i+MinRun], l, label) // overlapping runs cover a longer one whole
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if label[i] == "" {
			b.WriteByte(s[i])
			continue
		}
		b.WriteString(label[i])
		for i+1 < len(s) && label[i+1] == label[i] {
			i++
		}
	}
	return b.String()
}

// mark sets l over every occurrence of f in s.
func mark(s, f, l string, label []string) {
	for at := 0; ; {
		i := strings.Index(s[at:], f)
		if i < 0 {
			return
		}
		for j := at + i; j < at+i+len(f); j++ {
			label[j] = l
		}
		at += i + 1
	}
}

// printable turns each control character, invalid byte or other
// unprintable rune into a space, and each run of white space into one.
func printable(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) || unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// cut keeps at most limit runes of s.
func cut(s string, limit int) string {
	n := 0
	for i := range s {
		if n == limit {
			return strings.TrimSpace(s[:i]) + "…"
		}
		n++
	}
	return s
}
