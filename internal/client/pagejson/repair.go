package pagejson

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// Member data holds text that is not valid Unicode (an emoji cut in half
// leaves a lone "\ud83d"; Latin-1 bytes), which the decoder refuses, failing
// the read for one name. RepairStrings replaces invalid UTF-8 in JSON
// strings with U+FFFD and unpaired surrogate escapes with \ufffd, on the
// page bytes (so raw_json shows it too), and returns how many values it
// changed. Valid input is returned as is.
func RepairStrings(b []byte) ([]byte, int) {
	if utf8.Valid(b) && !hasSurrogateEscape(b) {
		return b, 0
	}
	out := make([]byte, 0, len(b)+16)
	values := 0
	inString, changed := false, false
	for i := 0; i < len(b); {
		c := b[i]
		switch {
		case !inString:
			out = append(out, c)
			inString, changed = c == '"', false
			i++
		case c == '"':
			out = append(out, c)
			inString = false
			if changed {
				values++
			}
			i++
		case c == '\\':
			n, repaired := escapeAt(b[i:])
			if repaired {
				out = append(out, `\ufffd`...)
				changed = true
			} else {
				out = append(out, b[i:i+n]...)
			}
			i += n
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size <= 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
				changed = true
			} else {
				out = append(out, b[i:i+size]...)
			}
			i += size
		}
	}
	return out, values
}

// escapeAt is the length of the escape starting e, and whether it is an
// unpaired surrogate (a pair is one sequence of 12 bytes).
func escapeAt(e []byte) (n int, unpaired bool) {
	if len(e) < 6 || e[1] != 'u' {
		return min(2, len(e)), false
	}
	r, ok := hex4(e[2:6])
	if !ok {
		return 2, false // the decoder reports the bad escape
	}
	switch {
	case r < 0xD800 || r > 0xDFFF:
		return 6, false
	case r <= 0xDBFF && len(e) >= 12 && e[6] == '\\' && e[7] == 'u':
		if low, ok := hex4(e[8:12]); ok && low >= 0xDC00 && low <= 0xDFFF {
			return 12, false
		}
	}
	return 6, true
}

func hex4(h []byte) (rune, bool) {
	r, err := strconv.ParseUint(string(h[:4]), 16, 16)
	return rune(r), err == nil
}

// hasSurrogateEscape reports whether b may hold a \uD800–\uDFFF escape.
func hasSurrogateEscape(b []byte) bool {
	for {
		i := bytes.Index(b, []byte(`\u`))
		if i < 0 || i+3 >= len(b) {
			return false
		}
		if (b[i+2] == 'd' || b[i+2] == 'D') && bytes.IndexByte([]byte("89abcdefABCDEF"), b[i+3]) >= 0 {
			return true
		}
		b = b[i+2:]
	}
}
