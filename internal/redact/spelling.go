package redact

import (
	"strings"
	"unicode/utf16"
)

// How a secret may be spelled in server text: one unit at a time, each unit
// the byte itself or an encoding of it (see the package comment).

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
