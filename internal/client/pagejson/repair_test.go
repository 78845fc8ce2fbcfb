package pagejson

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRepairJSONStrings(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, in, want string
		values         int
	}{
		{"valid text is not copied", `[{"a":"é\u00e9😀\ud83d\ude00"}]`, `[{"a":"é\u00e9😀\ud83d\ude00"}]`, 0},
		{"lone high surrogate", `[{"a":"x\ud83d"}]`, `[{"a":"x\ufffd"}]`, 1},
		{"lone low surrogate, upper case", `[{"a":"\uDE00y"}]`, `[{"a":"\ufffdy"}]`, 1},
		{"high then not a low", `[{"a":"\ud83d\u0041"}]`, `[{"a":"\ufffd\u0041"}]`, 1},
		{"two highs", `[{"a":"\ud83d\ud83d\ude00"}]`, `[{"a":"\ufffd\ud83d\ude00"}]`, 1},
		{"escaped backslash is not an escape", `[{"a":"\\ud83d"}]`, `[{"a":"\\ud83d"}]`, 0},
		{"invalid byte", "[{\"a\":\"x\xffy\",\"b\":\"\xc3\"}]", "[{\"a\":\"x\uFFFDy\",\"b\":\"\uFFFD\"}]", 2},
		{"in a member name", "[{\"\xff\":1}]", "[{\"\uFFFD\":1}]", 1},
		{"two in one value count once", `[{"a":"\ud83d-\ud83d"}]`, `[{"a":"\ufffd-\ufffd"}]`, 1},
		{"outside strings untouched", "[\xff]", "[\xff]", 0},
		{"escaped quote keeps the string open", `[{"a":"\"\ud83d"}]`, `[{"a":"\"\ufffd"}]`, 1},
	}
	for _, c := range cases {
		got, values := RepairStrings([]byte(c.in))
		if string(got) != c.want || values != c.values {
			t.Errorf("%s: got %q (%d values), want %q (%d)", c.name, got, values, c.want, c.values)
		}
		if c.name != "outside strings untouched" && (!utf8.Valid(got) || !json.Valid(got)) {
			t.Errorf("%s: repaired text %q is not valid JSON in UTF-8", c.name, got)
		}
	}
	// Malformed JSON stays malformed: the decoder reports it.
	if _, err := DecodeArray[struct {
		ID *string `json:"_id"`
	}]([]byte("[{\"_id\":\"a\"}\xff]"), false, nil); err == nil {
		t.Fatal("malformed JSON accepted")
	}
}

// What encoding/json makes of a repaired value is what it makes of the
// original: both read the bad sequence as U+FFFD.
func TestRepairAgreesWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`"a\ud83d"`, "\"\xff\xfe\"", `"\udc00\ud800"`, "\"ok\xe2\x82\"", `"\ud83d\ude00"`} {
		fixed, _ := RepairStrings([]byte(in))
		var want, got string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(fixed, &got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%q: repaired reads %q, encoding/json reads the original as %q", in, got, want)
		}
	}
}

func BenchmarkRepairValidPage(b *testing.B) {
	page := []byte(strings.Repeat(`{"_id":"60c3","email":"a@example.com","display_name":"Zoë Ørsted 😀","profile":{"first_name":"Zoë"}},`, 1000))
	page = append(append([]byte{'['}, page[:len(page)-1]...), ']')
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, n := RepairStrings(page); n != 0 {
			b.Fatal(n)
		}
	}
}
