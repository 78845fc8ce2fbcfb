package redact

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// secret has the characters JSON, URLs and Go's quoting escape, so most
// of its spellings differ from one another.
const secret = `tok/9+Zq%x-SECRET"b71c`

// spelled are the ways a server may echo secret, as a test writes them
// (not as Spellings does).
var spelled = map[string]string{
	"as it is":                       secret,
	"JSON-escaped":                   `tok/9+Zq%x-SECRET\"b71c`,
	"JSON-escaped with \\/":          `tok\/9+Zq%x-SECRET\"b71c`,
	"query-escaped":                  url.QueryEscape(secret),
	"query-escaped, lower hex":       strings.NewReplacer("%2F", "%2f", "%2B", "%2b", "%22", "%22").Replace(url.QueryEscape(secret)),
	"path-escaped":                   url.PathEscape(secret),
	"query-escaped twice":            url.QueryEscape(url.QueryEscape(secret)),
	"query-escaped twice, lower hex": strings.NewReplacer("%252F", "%252f", "%252B", "%252b").Replace(url.QueryEscape(url.QueryEscape(secret))),
	"base64":                         base64.StdEncoding.EncodeToString([]byte(secret)),
	"base64, URL alphabet":           base64.RawURLEncoding.EncodeToString([]byte(secret)),
	"hex":                            hex.EncodeToString([]byte(secret)),
	"hex, upper case":                strings.ToUpper(hex.EncodeToString([]byte(secret))),
	"Go-quoted":                      strings.Trim(strconv.Quote(secret), `"`),
	"Go-quoted JSON escape":          strings.Trim(strconv.Quote(`tok/9+Zq%x-SECRET\"b71c`), `"`),
}

func TestTextRemovesEverySpelling(t *testing.T) {
	t.Parallel()
	for name, s := range spelled {
		got := Text("before "+s+" after", 0, Secret{Value: secret})
		if got != "before [redacted] after" {
			t.Errorf("%s: %q", name, got)
		}
	}
}

// A run of the secret of MinRun characters or more is removed, wherever it
// starts in the secret; a shorter piece is kept, as a word may share it.
func TestTextRemovesRunsOfTheSecret(t *testing.T) {
	t.Parallel()
	for i := 0; i+MinRun <= len(secret); i++ {
		run := secret[i : i+MinRun]
		if got := Text("a "+run+" b", 0, Secret{Value: secret}); got != "a [redacted] b" {
			t.Errorf("the run %q: %q", run, got)
		}
	}
	short := secret[3 : 3+MinRun-1]
	if got := Text("a "+short+" b", 0, Secret{Value: secret}); got != "a "+short+" b" {
		t.Errorf("a piece of %d characters was changed: %q", MinRun-1, got)
	}
}

// A secret shorter than MinLength is not looked for: the provider's own
// words, or a member's e-mail, would be garbled by a token "test".
func TestTextLeavesSecretsTooShortAlone(t *testing.T) {
	t.Parallel()
	if got := Text("the access token was refused", 0, Secret{Value: "token"}); got != "the access token was refused" {
		t.Fatalf("%q", got)
	}
	if holds("a token", "token") {
		t.Fatal("Holds found a secret shorter than MinLength")
	}
}

// The secret is removed before the text is cut: wherever the cut falls,
// no piece of it is left.
func TestTextRemovesBeforeItCuts(t *testing.T) {
	t.Parallel()
	for pad := range 30 {
		got := Text(strings.Repeat("x", pad)+secret+" end", 20, Secret{Value: secret})
		if strings.Contains(got, secret[:4]) || len([]rune(got)) > 21 {
			t.Errorf("pad %d: %q", pad, got)
		}
	}
}

// Control characters become spaces, white space one space, and the text
// is cut at limit runes with "…"; text without a secret keeps its words.
func TestTextIsPrintable(t *testing.T) {
	t.Parallel()
	if got := Text("line one\n\n\tline\x00two \xff end ", 0); got != "line one line two end" {
		t.Fatalf("%q", got)
	}
	if got := Text("ééééé", 3); got != "ééé…" {
		t.Fatalf("%q", got)
	}
	if got := Secrets("keep\tit as  sent "+secret, Secret{Value: secret, Label: "[token]"}); got != "keep\tit as  sent [token]" {
		t.Fatalf("Secrets changed more than the secret: %q", got)
	}
}

// Each secret gets its own label; a spelling shared by two is one label.
func TestTextLabels(t *testing.T) {
	t.Parallel()
	got := Text("a "+secret+" b 0123456789ab", 0, Secret{Value: secret, Label: "[one]"}, Secret{Value: "0123456789ab", Label: "[two]"})
	if got != "a [one] b [two]" {
		t.Fatalf("%q", got)
	}
}

func TestHolds(t *testing.T) {
	t.Parallel()
	for name, s := range spelled {
		if !holds("x"+s+"y", secret) {
			t.Errorf("%s: not held", name)
		}
	}
	if holds(secret[:MinRun+2], secret) {
		t.Error("a run was taken for the secret whole")
	}
}

// FuzzText: whatever the text, the secret comes out in none of its
// spellings, and in no run of MinRun characters.
func FuzzText(f *testing.F) {
	f.Add("body: "+secret+" end", secret, 0)
	f.Add(url.QueryEscape(secret)+secret[:13], secret, 10)
	f.Add("0123456789abcdef0123", "0123456789abcdef", 5)
	f.Fuzz(func(t *testing.T, text, sec string, limit int) {
		if len(sec) < MinLength || strings.IndexFunc(sec, func(r rune) bool { return !unicode.IsPrint(r) || unicode.IsSpace(r) }) >= 0 {
			return // a secret with white space may be joined by the collapsing of it
		}
		got := Text(text, limit%200, Secret{Value: sec})
		if holds(got, sec) {
			t.Fatalf("Text(%q, %q) = %q holds a spelling", text, sec, got)
		}
		for i := 0; i+MinRun <= len(sec); i++ {
			if strings.Contains(got, sec[i:i+MinRun]) {
				t.Fatalf("Text(%q, %q) = %q holds the run %q", text, sec, got, sec[i:i+MinRun])
			}
		}
	})
}

// BenchmarkTextLogLine is the cost of one error message.
func BenchmarkTextLogLine(b *testing.B) {
	line := "memberships page 3: the API answered HTTP 500 after 3 attempts over 1.2s: the server failed (the API said: \"upstream timeout\")"
	for b.Loop() {
		Text(line, 0, Secret{Value: secret})
	}
}

// holds reports whether s holds secret in one of its spellings, whole.
func holds(s, secret string) bool {
	return len(secret) >= MinLength && slices.ContainsFunc(Spellings(secret), func(f string) bool { return strings.Contains(s, f) })
}
