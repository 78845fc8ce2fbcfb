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
// minPartial of its bytes are there. Whole encodings of a secret (base64,
// hex, percent-encoding applied twice) and any long run of it are removed
// too (encoded.go).
package redact

import (
	"strings"
	"unicode"
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
		// (\u0025XX, 8 bytes a byte). White space collapsed below may bring
		// text from near the cut into the output, so a secret cut here is
		// caught from its first byte.
		if window := 4*limit + 8*longest + 16; len(s) > window {
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
	return removeEncoded(b.String(), secrets)
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

// htmlEntities are the named entities a page may write a secret's
// characters with.
var htmlEntities = map[string]rune{"amp": '&', "quot": '"', "apos": '\'', "lt": '<', "gt": '>', "nbsp": '\u00a0', "sol": '/', "plus": '+', "percnt": '%'}

// maxEntity bounds an entity's length: "&#x10FFFF;" and "&percnt;".
const maxEntity = 10
