package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Spellings of a secret that are not one character at a time, which the
// matcher of spelling.go reads: the secret base64-encoded (either
// alphabet, padded or not, and inside a larger value such as HTTP Basic's
// id:secret, at any of the three alignments), hex-encoded (either case),
// percent-encoded twice (%2574, or only what a URL escapes: %252F), its
// percent signs written as a JSON or HTML escape (\u002574, &#37;74), and
// any run of it of at least 12
// characters (or half of it, when shorter): a server that echoes a prefix
// of a token leaks most of it. Each is a fixed string for a given secret,
// found by search and replaced by the secret's label after the matcher's
// pass.

// minRun is the shortest run of a secret redacted on its own.
const minRun = 12

// fixedForms are a secret's fixed spellings: the whole secret encoded,
// those of them without an escape character (Encodings), and its runs
// (each with where it starts in the secret).
type fixedForms struct {
	whole []string
	plain []string
	runs  []run
}

// run is a piece of a secret, and the byte where it starts in it.
type run struct {
	text string
	at   int
}

// encodedForms are a secret's fixed spellings, each list longest first,
// cached per value: a read's every message and log field is redacted with
// the same few secrets.
func encodedForms(v string) fixedForms {
	if f, ok := formsCache.Load(v); ok {
		return f.(fixedForms) //nolint:forcetypeassert // only this function stores, and it stores fixedForms
	}
	set := map[string]bool{}
	add := func(s string) {
		if len(s) >= minPartial && s != v {
			set[s] = true
		}
	}
	b := []byte(v)
	for k := range 3 { // the alignments inside a larger encoded value
		if m := (len(b) - k) / 3; m > 0 {
			core := b[k : k+3*m]
			add(base64.RawStdEncoding.EncodeToString(core))
			add(base64.RawURLEncoding.EncodeToString(core))
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		add(enc.EncodeToString(b))
	}
	add(hex.EncodeToString(b))
	add(strings.ToUpper(hex.EncodeToString(b)))
	for _, pct := range []string{"%25", `\u0025`, "&#37;", "&percnt;"} {
		for _, format := range []string{"%02X", "%02x"} {
			var s strings.Builder
			for _, c := range b {
				s.WriteString(pct)
				fmt.Fprintf(&s, format, c)
			}
			add(s.String())
		}
		// A URL's own escaping (only what it must escape), its % spelled
		// again: what escaping the escaped value, or a JSON or HTML
		// writer, makes of it.
		for _, esc := range []string{url.QueryEscape(v), url.PathEscape(v)} {
			if !strings.Contains(esc, "%") {
				continue
			}
			add(strings.ReplaceAll(esc, "%", pct))
			add(strings.ReplaceAll(lowerEscapes.ReplaceAllStringFunc(esc, strings.ToLower), "%", pct))
		}
	}
	add(url.QueryEscape(url.QueryEscape(v))) // a space is + once, %2B twice
	add(url.PathEscape(url.PathEscape(v)))
	var forms fixedForms
	forms.whole = sortedByLength(set)
	for _, f := range forms.whole {
		if !strings.ContainsAny(f, `%\&`) {
			forms.plain = append(forms.plain, f)
		}
	}
	if n := min(minRun, utf8.RuneCountInString(v)/2); n >= minPartial {
		starts := []int{}
		for i := range v {
			starts = append(starts, i)
		}
		starts = append(starts, len(v))
		for i := 0; i+n < len(starts); i++ {
			forms.runs = append(forms.runs, run{text: v[starts[i]:starts[i+n]], at: starts[i]})
		}
	}
	formsCache.Store(v, forms)
	return forms
}

// sortedByLength is the set's strings, longest first, and in byte order
// among equals: one order in every process.
func sortedByLength(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return out
}

// lowerEscapes are a URL escape's percent escapes, to write in lower case.
var lowerEscapes = regexp.MustCompile(`%[0-9A-F]{2}`)

var formsCache sync.Map // secret value -> fixedForms

// removeEncoded replaces each whole encoding of each secret with its
// label, one cut off at the end of s, and each run of it: after the
// matcher, which takes the whole secret in any character-wise spelling
// first (a secret of its own that holds another's encoding, as HTTP
// Basic's credentials hold the client secret's base64, so goes whole).
func removeEncoded(s string, secrets []Secret) string {
	for _, sec := range secrets {
		forms := encodedForms(sec.Value)
		s = replaceEach(s, forms.whole, sec.Label)
		s = removeCutEncoding(s, sec.Value, forms.whole, sec.Label)
		s = removeRuns(s, sec.Value, forms.runs, sec.Label)
	}
	return s
}

// removeRuns replaces each run of secret in s, stretched to all of the
// secret that stands there around it, with label.
func removeRuns(s, secret string, runs []run, label string) string {
	for _, r := range runs {
		for {
			i := strings.Index(s, r.text)
			if i < 0 {
				break
			}
			lo, hi, at := i, i+len(r.text), r.at
			for lo > 0 && at > 0 && s[lo-1] == secret[at-1] {
				lo, at = lo-1, at-1
			}
			for end := r.at + len(r.text); hi < len(s) && end < len(secret) && s[hi] == secret[end]; end++ {
				hi++
			}
			s = s[:lo] + label + s[hi:]
		}
	}
	return s
}

func replaceEach(s string, list []string, label string) string {
	for _, f := range list {
		if strings.Contains(s, f) {
			s = strings.ReplaceAll(s, f, label)
		}
	}
	return s
}

// minEncodedPiece is how many characters of a secret's encoding, cut off
// at the end of the text (a capped read), are enough to redact them: eight
// characters of base64 or hex spell at least four bytes of the secret, as
// many as minPartial keeps out of its plain spellings. An encoding that
// escapes only some characters starts with the secret's own: there,
// minPartial of them are enough ("back%25" of back\…).
const minEncodedPiece = 8

// removeCutEncoding replaces the longest start of an encoding that ends
// s, when at least minEncodedPiece characters of it are there.
func removeCutEncoding(s, secret string, whole []string, label string) string {
	longest := 0
	for _, f := range whole {
		least := minEncodedPiece
		if plain := commonPrefix(f, secret); plain >= minPartial {
			least = min(least, plain)
		}
		for k := min(len(f)-1, len(s)); k >= max(least, longest+1); k-- {
			if f[k-1] == s[len(s)-1] && strings.HasSuffix(s, f[:k]) {
				longest = k
				break
			}
		}
	}
	if longest == 0 {
		return s
	}
	return s[:len(s)-longest] + label
}

// Holds reports whether s holds the whole secret in any spelling the
// redaction knows (runs of it aside: a run of a short secret may be any
// word): for deciding that a value carries it, where Secrets is for
// taking it out of text.
func Holds(s string, sec Secret) bool {
	live := liveSecrets([]Secret{sec})
	if len(live) == 0 {
		return false
	}
	for i := range len(s) {
		if n, _ := matchAt(s[i:], live, len(sec.Value)); n > 0 {
			return true
		}
	}
	for _, f := range encodedForms(sec.Value).whole {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// commonPrefix is how many leading bytes a and b share.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Encodings are the whole encodings of v the redaction knows that hold no
// escape character (%, \\, &): its base64 and hex spellings. A caller that
// looks for v in data first (the token guard) looks for these too; the
// others show by their escape character. The slice is shared: not to be
// changed.
func Encodings(v string) []string { return encodedForms(v).plain }
