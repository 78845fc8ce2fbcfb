package redact

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// Secrets with every character an encoding treats specially: '/', '+',
// '%', '"', a space, '<', a two-byte rune, and one outside the BMP (a JSON
// surrogate pair).
var testSecrets = []string{`tok/9+Zq%x"é_42 ab<c`, "k😀y-Secret-77", `back\sl"ash/99`}

// forms are the spellings a server may echo a secret in.
var forms = map[string]func(string) string{
	"raw":                    func(s string) string { return s },
	"JSON, / escaped":        func(s string) string { return strings.ReplaceAll(jsonEscaped(s), "/", `\/`) },
	"JSON, every rune \\u":   jsonEveryRune,
	"query, upper-case hex":  url.QueryEscape,
	"query, lower-case hex":  func(s string) string { return lowerHex(url.QueryEscape(s)) },
	"path escape":            url.PathEscape,
	"every byte %xx":         everyBytePercent,
	"every byte %XX, mixed":  func(s string) string { return strings.ToUpper(everyBytePercent(s)) },
	"query escape, then \\/": func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "%2F", `\/`) },
	// Go's own errors quote what they saw (strconv.Quote, %q): backslashes
	// doubled, quotes escaped.
	"Go-quoted JSON \\u":             func(s string) string { return goQuoted(jsonEveryRune(s)) },
	"Go-quoted JSON, / escaped":      func(s string) string { return goQuoted(strings.ReplaceAll(jsonEscaped(s), "/", `\/`)) },
	"HTML, named entities":           html.EscapeString,
	"HTML, every rune decimal":       func(s string) string { return everyRuneEntity(s, "&#%d;") },
	"HTML, every rune hex":           func(s string) string { return everyRuneEntity(s, "&#x%x;") },
	"HTML, every rune hex, upper X":  func(s string) string { return everyRuneEntity(s, "&#X%X;") },
	"Latin-1 percent":                latin1Percent,
	"Latin-1 raw bytes":              latin1Raw,
	"Latin-1 percent, then Go-quote": func(s string) string { return goQuoted(latin1Percent(s)) },
	"JSON string, Go-quoted":         func(s string) string { return goQuoted(jsonEscaped(s)) },
	// Whole encodings (encoded.go).
	"base64":                func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) },
	"base64 URL, unpadded":  func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) },
	"hex":                   func(s string) string { return hex.EncodeToString([]byte(s)) },
	"hex, upper case":       func(s string) string { return strings.ToUpper(hex.EncodeToString([]byte(s))) },
	"percent-encoded twice": func(s string) string { return strings.ReplaceAll(everyBytePercent(s), "%", "%25") },
	"% as \\u0025":          func(s string) string { return strings.ReplaceAll(everyBytePercent(s), "%", `\u0025`) },
	"% as &#37;":            func(s string) string { return strings.ReplaceAll(everyBytePercent(s), "%", "&#37;") },
	// A URL's escaping applied twice, and its % written as an escape.
	"query-escaped twice":            func(s string) string { return url.QueryEscape(url.QueryEscape(s)) },
	"path-escaped twice, lower case": func(s string) string { return strings.ReplaceAll(lowerHex(url.PathEscape(s)), "%", "%25") },
	"query-escaped, % as \\u0025":    func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "%", `\u0025`) },
	"query-escaped, % as &percnt;":   func(s string) string { return strings.ReplaceAll(url.QueryEscape(s), "%", "&percnt;") },
}

// goQuoted is s as Go's %q writes it, without the surrounding quotes.
func goQuoted(s string) string { q := strconv.Quote(s); return q[1 : len(q)-1] }

// everyRuneEntity writes every rune of s as an HTML entity in format.
func everyRuneEntity(s, format string) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, format, r)
	}
	return b.String()
}

// latin1Percent percent-encodes every byte, and a rune of Latin-1 as its
// one Latin-1 byte (%E9 for é), as a server on ISO-8859-1 does.
func latin1Percent(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x100 {
			fmt.Fprintf(&b, "%%%02X", r)
			continue
		}
		b.WriteString(everyBytePercent(string(r)))
	}
	return b.String()
}

// latin1Raw writes a rune of Latin-1 as its one raw byte.
func latin1Raw(s string) string {
	var b []byte
	for _, r := range s {
		if r < 0x100 {
			b = append(b, byte(r))
			continue
		}
		b = utf8.AppendRune(b, r)
	}
	return string(b)
}

// TestTextRedactsEveryFormAtEveryCut feeds each secret in each form, behind
// prefixes of every length (so the output limit falls at every place in
// it), cut at every byte (a capped read), and checks that no four bytes of
// the secret survive in any spelling.
func TestTextRedactsEveryFormAtEveryCut(t *testing.T) {
	t.Parallel()
	for _, secret := range testSecrets {
		for name, form := range forms {
			enc := form(secret)
			for p := 0; p <= 30; p += 3 {
				body := strings.Repeat("x", p) + " Bearer " + enc + " is not allowed here"
				for cutAt := 0; cutAt <= len(body); cutAt++ {
					for _, limit := range []int{0, 20, 40} {
						out := Text(body[:cutAt], limit, Secret{Value: secret})
						if leak := leaked(out, secret); leak != "" {
							t.Fatalf("%s, prefix %d, cut at %d, limit %d: %q survives in %q", name, p, cutAt, limit, leak, out)
						}
					}
				}
				if out := Text(body, 0, Secret{Value: secret}); !strings.Contains(out, DefaultLabel+" is not allowed here") {
					t.Errorf("%s: whole body %q became %q, want the secret replaced and the rest kept", name, body, out)
				}
			}
		}
	}
}

// The secret inside a larger encoded value (HTTP Basic's id:secret, at
// each of base64's three alignments, either alphabet), and a run of it (a
// token's first half echoed): no run of the secret's encoding that holds
// a whole group of it survives, nor the run.
func TestTextRedactsEncodingsInsideValuesAndRuns(t *testing.T) {
	t.Parallel()
	for _, secret := range testSecrets {
		for _, id := range []string{"a:", "ab:", "abc:"} {
			for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
				whole := enc.EncodeToString([]byte(id + secret))
				out := Text("Basic "+whole+" refused", 0, Secret{Value: secret})
				k := (3 - len(id)%3) % 3
				core := base64.RawStdEncoding.EncodeToString([]byte(secret[k : k+3*((len(secret)-k)/3)]))
				if enc == base64.URLEncoding {
					core = base64.RawURLEncoding.EncodeToString([]byte(secret[k : k+3*((len(secret)-k)/3)]))
				}
				if strings.Contains(out, core) || !strings.Contains(out, DefaultLabel) {
					t.Errorf("%q inside %q: %q", secret, id, out)
				}
			}
		}
		run := string([]rune(secret)[:min(12, len([]rune(secret))/2)])
		if out := Text("token "+run+" expired", 0, Secret{Value: secret}); out != "token "+DefaultLabel+" expired" {
			t.Errorf("a run of %q: %q", secret, out)
		}
	}
	// Runs are redacted, but they do not make a value hold the secret.
	if Holds("sandbox-user-1", Secret{Value: "sandbox-secret-Z9"}) || !Holds(base64.StdEncoding.EncodeToString([]byte("sandbox-secret-Z9")), Secret{Value: "sandbox-secret-Z9"}) {
		t.Error("Holds: runs count, or base64 does not")
	}
}

// TestTextBasicCredentials: the base64 of client id and secret, as HTTP
// Basic sends them, is a secret of its own.
func TestTextBasicCredentials(t *testing.T) {
	t.Parallel()
	basic := base64.StdEncoding.EncodeToString([]byte("app:" + url.QueryEscape(testSecrets[0])))
	body := "Authorization: Basic " + basic + " refused"
	for cutAt := 0; cutAt <= len(body); cutAt++ {
		out := Text(body[:cutAt], 0, Secret{Value: basic, Label: "[client credentials]"})
		if leak := leaked(out, basic); leak != "" {
			t.Fatalf("cut at %d: %q survives in %q", cutAt, leak, out)
		}
	}
	if out := Text(body, 0, Secret{Value: basic, Label: "[client credentials]"}); out != "Authorization: Basic [client credentials] refused" {
		t.Errorf("got %q", out)
	}
}

func TestTextKeepsOtherText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in    string
		limit int
		want  string
	}{
		{"line one\n\n\tline\x00two \xff end ", 0, "line one line two end"},
		{"no secret here", 0, "no secret here"},
		{strings.Repeat("é", 50), 10, strings.Repeat("é", 10) + "…"},
		{"exactly ten", 11, "exactly ten"},
		// Fewer than minPartial bytes of a secret cut off at the end stay:
		// "to" ends many words.
		{"go to", 0, "go to"},
		{"Bearer tok/", 0, "Bearer " + DefaultLabel},
		{"Bearer tok%2f9", 0, "Bearer " + DefaultLabel},
		{"Bearer tok%2", 0, "Bearer tok%2"}, // three bytes and a piece
		{"a tok/9+Zq%x\"é_42 ab<c b tok%2F9%2BZq%25x%22%C3%A9_42+ab%3Cc c", 0, "a [S] b [S] c"},
	} {
		if got := Text(tc.in, tc.limit, Secret{Value: testSecrets[0], Label: "[S]"}, Secret{}); got != strings.ReplaceAll(tc.want, DefaultLabel, "[S]") {
			t.Errorf("Text(%q, %d) = %q, want %q", tc.in, tc.limit, got, tc.want)
		}
	}
}

// FuzzText: whatever surrounds the secret and wherever the text and the
// output are cut, no four bytes of the secret survive.
func FuzzText(f *testing.F) {
	for i := range forms {
		f.Add("prefix ", i, " suffix", 400, uint8(40))
	}
	f.Add(`{"error":"`, "JSON, / escaped", `"}`, 17, uint8(0))
	f.Add("%", "every byte %xx", "%4", 1000, uint8(5))
	f.Fuzz(func(t *testing.T, prefix, formName, suffix string, cutAt int, limit uint8) {
		form, ok := forms[formName]
		if !ok {
			t.Skip()
		}
		for _, secret := range testSecrets {
			// Pieces of the secret in the surroundings are not the secret.
			if leaked(prefix, secret) != "" || leaked(suffix, secret) != "" {
				t.Skip()
			}
			body := prefix + form(secret) + suffix
			cutAt = max(0, min(cutAt, len(body)))
			out := Text(body[:cutAt], int(limit), Secret{Value: secret})
			if leak := leaked(out, secret); leak != "" {
				t.Fatalf("%q survives in %q (from %q)", leak, out, body[:cutAt])
			}
		}
	})
}

// leaked decodes every spelling in out and returns a piece of minPartial
// bytes of secret found in it, or "".
func leaked(out, secret string) string {
	plains := []string{out, decodeAll(out), decodeAll(strings.ReplaceAll(out, `\\`, `\`)), html.UnescapeString(out)}
	// Escaping applied twice, and % spelled as a JSON or HTML escape.
	for _, pct := range []string{"%25", `\u0025`, "&#37;", "&percnt;"} {
		plains = append(plains, decodeAll(strings.ReplaceAll(out, pct, "%")))
	}
	for _, p := range plains[1:] {
		plains = append(plains, latin1Fixed(p))
	}
	for i := 0; i+minPartial <= len(secret); i++ {
		piece := secret[i : i+minPartial]
		for _, p := range plains {
			if strings.Contains(p, piece) {
				return piece
			}
		}
	}
	// Eight characters of the secret's base64 (at any of its three
	// alignments, either alphabet) or hex (either case) spell four bytes
	// or more of it.
	var encodings []string
	for k := range 3 {
		b := []byte(secret[k:])
		encodings = append(encodings, base64.RawStdEncoding.EncodeToString(b), base64.RawURLEncoding.EncodeToString(b))
	}
	encodings = append(encodings, hex.EncodeToString([]byte(secret)), strings.ToUpper(hex.EncodeToString([]byte(secret))))
	for _, e := range encodings {
		for i := 0; i+8 <= len(e); i++ {
			if strings.Contains(out, e[i:i+8]) {
				return e[i : i+8]
			}
		}
	}
	return ""
}

// latin1Fixed reads each byte of s that is not valid UTF-8 as Latin-1.
func latin1Fixed(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n == 1 {
			r = rune(s[0])
		}
		b.WriteRune(r)
		s = s[n:]
	}
	return b.String()
}

var escapeRE = regexp.MustCompile(`%[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}(?:\\u[0-9a-fA-F]{4})?|\\["\\/bfnrt]|\+`)

// decodeAll undoes percent-encoding, '+' and JSON escapes wherever they
// occur, independently of the code under test.
func decodeAll(s string) string {
	return escapeRE.ReplaceAllStringFunc(s, func(e string) string {
		switch {
		case e == "+":
			return " "
		case e[0] == '%':
			b, _ := strconv.ParseUint(e[1:], 16, 8)
			return string([]byte{byte(b)})
		case e[1] == 'u':
			r1, _ := strconv.ParseUint(e[2:6], 16, 16)
			if len(e) == 12 {
				r2, _ := strconv.ParseUint(e[8:], 16, 16)
				if r := utf16.DecodeRune(rune(r1), rune(r2)); r != utf8.RuneError {
					return string(r)
				}
				return string(rune(r1)) + decodeAll(e[6:])
			}
			return string(rune(r1))
		}
		return map[byte]string{'"': `"`, '\\': `\`, '/': "/", 'b': "\b", 'f': "\f", 'n': "\n", 'r': "\r", 't': "\t"}[e[1]]
	})
}

func jsonEscaped(s string) string {
	return strings.NewReplacer(`"`, `\"`, `\`, `\\`, "<", `\u003c`).Replace(s)
}

func jsonEveryRune(s string) string {
	var b strings.Builder
	for _, r := range s {
		for _, u := range utf16.Encode([]rune{r}) {
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	return b.String()
}

func everyBytePercent(s string) string {
	var b strings.Builder
	for i := range len(s) {
		fmt.Fprintf(&b, "%%%02x", s[i])
	}
	return b.String()
}

func lowerHex(s string) string {
	return regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(s, strings.ToLower)
}

// A secret holding white space is matched as the server sent it, before
// white space is collapsed for the message.
func TestTextRedactsSecretsWithWhiteSpace(t *testing.T) {
	t.Parallel()
	secret := "Abcd  efgh\tijkl"
	got := Text("echo: "+secret+" end", 0, Secret{Value: secret})
	if got != "echo: [redacted] end" {
		t.Fatalf("got %q", got)
	}
}

// White space collapsed in the message can bring text from near the cut
// into it; a secret the cut split is caught from its first byte there.
func TestTextRedactsASecretSplitAtTheWindow(t *testing.T) {
	t.Parallel()
	const token = "TOKEN-value-123456"
	limit := 20
	window := 4*limit + 8*len(token) + 16
	for keep := 1; keep < 8; keep++ {
		s := strings.Repeat(" ", window-keep) + token
		got := Text(s, limit, Secret{Value: token})
		if strings.Contains(got, token[:keep]) {
			t.Fatalf("%d bytes of the token before the cut: %q survives", keep, got)
		}
	}
}

// spellRune writes r in one of the spellings a server may use, chosen by c.
func spellRune(r rune, c byte) string {
	s := string(r)
	switch c % 9 {
	case 1:
		return everyBytePercent(s)
	case 2:
		if r < 0x100 {
			return fmt.Sprintf("%%%02X", r)
		}
		return strings.ToUpper(everyBytePercent(s))
	case 3:
		return jsonEveryRune(s)
	case 4:
		return goQuoted(jsonEveryRune(s))
	case 5:
		return fmt.Sprintf("&#%d;", r)
	case 6:
		return fmt.Sprintf("&#X%X;", r)
	case 7:
		return html.EscapeString(s)
	case 8:
		return goQuoted(html.EscapeString(s))
	}
	return s
}

// FuzzSpelling: a secret spelled a different way rune by rune, at any
// position in the text, the text cut anywhere: no four bytes survive.
func FuzzSpelling(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8}, "Bearer ", 1000, uint8(0))
	f.Add([]byte{4}, "", 9, uint8(10))
	f.Add([]byte{6, 2}, "x=", 40, uint8(30))
	f.Fuzz(func(t *testing.T, choices []byte, prefix string, cutAt int, limit uint8) {
		if len(choices) == 0 {
			t.Skip()
		}
		for _, secret := range testSecrets {
			if leaked(prefix, secret) != "" {
				t.Skip()
			}
			var b strings.Builder
			i := 0
			for _, r := range secret {
				b.WriteString(spellRune(r, choices[i%len(choices)]))
				i++
			}
			body := prefix + b.String() + " end"
			cutAt = max(0, min(cutAt, len(body)))
			out := Text(body[:cutAt], int(limit), Secret{Value: secret})
			if leak := leaked(out, secret); leak != "" {
				t.Fatalf("%q survives in %q (from %q)", leak, out, body[:cutAt])
			}
			if cutAt == len(body) && limit == 0 && !strings.Contains(out, DefaultLabel+" end") {
				t.Fatalf("%q: the secret was not replaced whole: %q", body, out)
			}
		}
	})
}

// The client secret inside HTTP Basic's credentials, both secrets of one
// text: the credentials go whole, under their own label, and nothing of
// either survives.
func TestTextBasicCredentialsBesideTheirSecret(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"app", "ap", "a", "app-key-7"} {
		secret := "s3cr-Zq9v-Kx7w-M2p"
		basic := base64.StdEncoding.EncodeToString([]byte(id + ":" + secret))
		both := []Secret{{Value: basic, Label: "[client credentials]"}, {Value: secret, Label: "[client secret]"}}
		for _, secrets := range [][]Secret{both, {both[1], both[0]}} {
			got := Text("Authorization: Basic "+basic+" refused", 0, secrets...)
			if got != "Authorization: Basic [client credentials] refused" {
				t.Errorf("id %q, %s first: %q", id, secrets[0].Label, got)
			}
		}
	}
}

// A run of the secret longer than the shortest redacted goes whole: what
// stands of the secret around the run is taken with it.
func TestTextRedactsALongRunWhole(t *testing.T) {
	t.Parallel()
	const secret = "tok-3f9a-SECRET-b71c-e2d0"
	for _, echo := range []string{"ok-3f9a-SECRET-b71", "tok-3f9a-SECRET-b71c-e2", "f9a-SECRET-b71c-e2d0"} {
		if got := Text("token "+echo+" expired", 0, Secret{Value: secret}); got != "token "+DefaultLabel+" expired" {
			t.Errorf("%q: %q", echo, got)
		}
	}
}

// Holds is about the whole secret: a few of its bytes ending a text do not
// make the text hold it.
func TestHoldsNotACutOff(t *testing.T) {
	t.Parallel()
	sec := Secret{Value: `back\sl"ash/99`}
	if Holds("please go back", sec) || !Holds(url.QueryEscape(url.QueryEscape(sec.Value)), sec) {
		t.Error("Holds takes a cut-off for the secret, or misses it escaped twice")
	}
}

// BenchmarkSecretsLogLine is the redaction of one log line that holds no
// secret, as every line the provider logs is redacted.
//
//	go test ./internal/redact -run '^$' -bench SecretsLogLine
func BenchmarkSecretsLogLine(b *testing.B) {
	line := "GET https://api.example.com/api/v1/organizations/me/memberships?count=1000&page=17 -> 200 in 48ms (1,000 records, 1.1 MB)"
	sec := Secret{Value: "tok-3f9a-SECRET-b71c-e2d0"}
	for b.Loop() {
		if Secrets(line, sec) != line {
			b.Fatal("a line without the secret was changed")
		}
	}
}
