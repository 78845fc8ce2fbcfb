package redact

import (
	"strings"
	"unicode/utf8"
)

// HTML entities: a server's HTML page may spell a secret's characters as
// named, decimal or hexadecimal entities, with or without the ';'.

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
