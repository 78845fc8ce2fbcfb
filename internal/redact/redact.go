// Package redact keeps secrets out of text that came from a server: body
// excerpts and error messages. It is the one place that does so, for the
// client (the access token) and joinit-token (the client secret and the
// authorization code).
//
// A server may echo what it was sent, and not always as it was sent: JSON
// escapes it (`\/`, `\u002f`), URLs percent-encode it in either case (or,
// for a character of Latin-1, as its one Latin-1 byte: %E9 for é), forms
// turn spaces into '+', HTML pages write entities (`&amp;`, `&#x27;`,
// `&#112;`), a Location header may carry raw Latin-1 bytes, and Go's own
// errors quote text they saw, doubling its backslashes (`\\u0070`). Text
// therefore matches a secret spelled in any mix of these encodings, and it redacts before it cuts, so a secret can never
// be cut into a piece that no longer matches. A secret already cut off at
// the end of the text it is given (a capped read) is redacted too, once
// minPartial of its bytes are there.
package redact

import (
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// DefaultLabel replaces a secret whose Label is empty.
const DefaultLabel = "[redacted]"

// minPartial is how many leading bytes of a secret, cut off at the end of
// the text, are enough to redact them. Fewer are kept: redacting every
// trailing letter that happens to start a secret would garble messages for
// nothing an attacker could use.
const minPartial = 4

// Secret is a value to keep out of text, and what replaces it.
type Secret struct {
	Value string
	Label string // "" means DefaultLabel
}

// Text returns s with every secret removed, control characters and runs of
// white space turned into one space, and, when limit > 0, cut to at most
// limit runes followed by "…". Secrets with an empty Value are ignored.
func Text(s string, limit int, secrets ...Secret) string {
	live := liveSecrets(secrets)
	longest := 0
	for _, sec := range live {
		longest = max(longest, len(sec.Value))
	}
	partial := minPartial
	if limit > 0 {
		// Only the start can reach the output: limit runes of up to 4 bytes,
		// and a secret beginning before the cut in its widest spelling
		// (\uXXXX, 6 bytes a byte). White space collapsed below may bring
		// text from near the cut into the output, so a secret cut here is
		// caught from its first byte.
		if window := 4*limit + 6*longest + 16; len(s) > window {
			s, partial = s[:window], 1
		}
	}
	// Secrets are matched in the text as the server sent it, before white
	// space is collapsed: a secret may hold spaces or tabs of its own.
	s = strings.TrimSpace(printable(remove(s, live, partial)))
	if limit > 0 {
		s = cut(s, limit)
	}
	return s
}

// Secrets returns s with every spelling of every secret replaced by its
// label, and nothing else changed: for text that is already the provider's
// own (an error message, a log field), where white space and length are
// not the server's to decide.
func Secrets(s string, secrets ...Secret) string {
	return remove(s, liveSecrets(secrets), minPartial)
}

// liveSecrets are the secrets with a value, each with its label.
func liveSecrets(secrets []Secret) []Secret {
	live := make([]Secret, 0, len(secrets))
	for _, sec := range secrets {
		if sec.Value == "" {
			continue
		}
		if sec.Label == "" {
			sec.Label = DefaultLabel
		}
		live = append(live, sec)
	}
	return live
}

// printable turns each control character, invalid byte or other
// unprintable rune into a space, and each run of white space into one. A
// rune cut off at the end is dropped, so that a secret cut there still
// ends the text, where it is caught.
func printable(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && !utf8.FullRuneInString(s[i:]) {
			break
		}
		i += size
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			r = ' '
		}
		if unicode.IsSpace(r) {
			if space {
				continue
			}
			space, r = true, ' '
		} else {
			space = false
		}
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

// remove replaces each spelling of each secret in s with its label; a
// secret cut off at the end is replaced once partial of its bytes are there.
func remove(s string, secrets []Secret, partial int) string {
	if len(secrets) == 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if n, label := matchAt(s[i:], secrets, partial); n > 0 {
			b.WriteString(label)
			i += n
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// matchAt returns how many bytes at the start of s spell a secret (the
// longest match), and its label; 0 if none does.
func matchAt(s string, secrets []Secret, partial int) (int, string) {
	best, label := 0, ""
	for _, sec := range secrets {
		used, spelled, ended := spell(s, sec.Value)
		whole := spelled == len(sec.Value)
		cutOff := ended && spelled >= min(partial, len(sec.Value))
		if (whole || cutOff) && used > best {
			best, label = used, sec.Label
		}
	}
	return best, label
}

// spell follows s from its start as long as it spells v, one unit at a
// time. It returns the bytes of s used, the bytes of v spelled, and whether
// s ended (possibly inside a unit, like "%4") before v did. A '%' or '\'
// in v may be spelled by itself or escaped, so each way is followed: the
// states (bytes of s, bytes of v) are few, and each is visited once.
func spell(s, v string) (used, spelled int, ended bool) {
	type state struct{ i, k int }
	if len(s) == 0 {
		return 0, 0, true
	}
	if len(units(s, v)) == 0 {
		return 0, 0, incomplete(s)
	}
	endedAt := -1 // the most of v spelled by a path that ran out of s
	seen := map[state]bool{}
	stack := []state{{0, 0}}
	for len(stack) > 0 {
		st := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[st] {
			continue
		}
		seen[st] = true
		if st.k == len(v) {
			return st.i, st.k, false
		}
		next := []unitMatch(nil)
		if st.i < len(s) {
			next = units(s[st.i:], v[st.k:])
		}
		if st.i == len(s) || incomplete(s[st.i:]) {
			endedAt = max(endedAt, st.k)
		}
		for _, u := range next {
			stack = append(stack, state{st.i + u.n, st.k + u.m})
		}
	}
	if endedAt >= 0 {
		return len(s), endedAt, true
	}
	return 0, 0, false
}

// unitMatch is one unit of text, n bytes long, that spells m bytes of a
// secret.
type unitMatch struct{ n, m int }

// units lists the ways the start of s spells the start of v, in one unit:
// the byte itself, '+' for a space, %XX in either case (a byte of UTF-8, or
// a character of Latin-1), a raw Latin-1 byte, a JSON escape (its
// backslash doubled too, as Go quotes it), or an HTML entity.
func units(s, v string) []unitMatch {
	var out []unitMatch
	if s[0] == v[0] || (s[0] == '+' && v[0] == ' ') {
		out = append(out, unitMatch{1, 1})
	}
	if m := latin1(s[0], v); m > 0 {
		out = append(out, unitMatch{1, m})
	}
	switch {
	case s[0] == '%' && len(s) >= 3:
		hi, ok1 := unhex(s[1])
		lo, ok2 := unhex(s[2])
		if ok1 && ok2 && hi<<4|lo == v[0] {
			out = append(out, unitMatch{3, 1})
		}
		if ok1 && ok2 {
			if m := latin1(hi<<4|lo, v); m > 0 {
				out = append(out, unitMatch{3, m})
			}
		}
	case s[0] == '\\' && len(s) >= 2:
		if n, m := jsonEscape(s, v, 1); n > 0 {
			out = append(out, unitMatch{n, m})
		}
		// The escape's backslash written many times: Go quoted it (each
		// quoting doubles it), or JSON was escaped in JSON.
		if bs := backslashes(s); bs > 1 {
			if n, m := jsonEscape(s, v, bs); n > 0 {
				out = append(out, unitMatch{n, m})
			}
			// An escaped backslash, quoted: \\\\ for \\ for \.
			if bs%2 == 0 && bs >= 4 && v[0] == '\\' {
				out = append(out, unitMatch{bs, 1})
			}
		}
	case s[0] == '&':
		if n, m := htmlEntity(s, v); n > 0 {
			out = append(out, unitMatch{n, m})
		}
	}
	return out
}

// backslashes counts the backslashes s starts with, up to 16.
func backslashes(s string) int {
	n := 0
	for n < len(s) && n < 16 && s[n] == '\\' {
		n++
	}
	return n
}

// latin1 reports how many bytes of v the Latin-1 byte c spells: the two
// bytes of UTF-8 of U+0080–U+00FF, when v starts with that character.
func latin1(c byte, v string) int {
	if c < 0x80 {
		return 0
	}
	if enc := string(rune(c)); strings.HasPrefix(v, enc) {
		return len(enc)
	}
	return 0
}

// htmlEntities are the named entities a page may write a secret's
// characters with.
var htmlEntities = map[string]rune{"amp": '&', "quot": '"', "apos": '\'', "lt": '<', "gt": '>', "nbsp": '\u00a0', "sol": '/', "plus": '+', "percnt": '%'}

// htmlEntity matches an HTML entity at the start of s against v: named
// (&amp;), decimal (&#112;) or hex (&#x70;). The ';' may be missing, as
// browsers (and Go's html.UnescapeString) read "&#x70" and "&amp" too: the
// entity then ends where its name or digits do.
func htmlEntity(s, v string) (n, m int) {
	name := entityName(s[1:])
	if name == "" {
		return 0, 0
	}
	r, ok := entityRune(name)
	if !ok {
		return 0, 0
	}
	n = 1 + len(name)
	if n < len(s) && s[n] == ';' {
		n++
	}
	if enc := string(r); strings.HasPrefix(v, enc) {
		return n, len(enc)
	}
	return 0, 0
}

// entityName is the name of an entity at the start of s (after '&'): '#'
// and digits (hex after "#x"), or letters.
func entityName(s string) string {
	i := 0
	if len(s) > 0 && s[0] == '#' {
		i = 1
		hex := len(s) > 1 && (s[1] == 'x' || s[1] == 'X')
		if hex {
			i = 2
		}
		for i < len(s) && i < maxEntity {
			d, ok := unhex(s[i])
			if !ok || (!hex && d > 9) {
				break
			}
			i++
		}
		return s[:i]
	}
	for i < len(s) && i < maxEntity && ('a' <= s[i] && s[i] <= 'z' || 'A' <= s[i] && s[i] <= 'Z') {
		i++
	}
	return s[:i]
}

// maxEntity bounds an entity's length: "&#x10FFFF;" and "&percnt;".
const maxEntity = 10

// entityRune decodes the name of an entity, between '&' and ';'.
func entityRune(name string) (rune, bool) {
	if name[0] != '#' {
		r, ok := htmlEntities[name]
		return r, ok
	}
	digits, base := name[1:], 10
	if len(digits) > 0 && (digits[0] == 'x' || digits[0] == 'X') {
		digits, base = digits[1:], 16
	}
	if digits == "" {
		return 0, false
	}
	var r rune
	for i := range len(digits) {
		d, ok := unhex(digits[i])
		if !ok || int(d) >= base {
			return 0, false
		}
		r = r*rune(base) + rune(d)
		if r > utf8.MaxRune {
			return 0, false
		}
	}
	return r, true
}

// jsonEscape matches a JSON escape at the start of s against v, its
// backslash written bs times: once as JSON has it, twice as Go quotes it
// (which writes the escaped quote \" as \\\").
func jsonEscape(s, v string, bs int) (n, m int) {
	if len(s) <= bs {
		return 0, 0
	}
	c := s[bs]
	if c != 'u' {
		if bs >= 2 && c == '"' && v[0] == '"' {
			return bs + 1, 1 // \\\" : an escaped quote, quoted
		}
		d, ok := map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}[c]
		if ok && d == v[0] {
			return bs + 1, 1
		}
		return 0, 0
	}
	r, ok := hex4(s[bs+1:])
	if !ok {
		return 0, 0
	}
	unit := bs + 5
	n = unit
	if utf16.IsSurrogate(r) {
		lo, ok := rune(0), false
		if len(s) >= 2*unit && strings.Repeat("\\", bs) == s[unit:unit+bs] && s[unit+bs] == 'u' {
			lo, ok = hex4(s[unit+bs+1:])
		}
		if !ok {
			return 0, 0
		}
		r, n = utf16.DecodeRune(r, lo), 2*unit
	}
	if enc := string(r); strings.HasPrefix(v, enc) {
		return n, len(enc)
	}
	return 0, 0
}

// incomplete reports a text that ends inside the first unit it starts:
// "%", "%4", "\", "\u00", "\ud83d\ude", the same with doubled
// backslashes, "&#x7".
func incomplete(s string) bool {
	switch {
	case s[0] == '%':
		return len(s) < 3
	case s[0] == '&':
		return len(s) < maxEntity && !strings.Contains(s, ";") && entityStart(s[1:])
	case s[0] == '\\':
		bs := backslashes(s)
		if len(s) <= bs || (s[bs] == 'u' && len(s) < bs+5) {
			return true
		}
		// A UTF-16 surrogate pair cut after its first half.
		r, ok := hex4(s[bs+1:])
		return s[bs] == 'u' && ok && utf16.IsSurrogate(r) && len(s) < 2*(bs+5)
	}
	return false
}

// entityStart reports text that may begin an entity's name: letters, or
// '#' and digits.
func entityStart(s string) bool {
	for i := range len(s) {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '#') {
			return false
		}
	}
	return true
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	var r rune
	for i := range 4 {
		d, ok := unhex(s[i])
		if !ok {
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
