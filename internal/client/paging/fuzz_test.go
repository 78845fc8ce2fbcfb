package paging

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fuzzPageSize is the page size both fuzzers read with.
const fuzzPageSize = 3

// fuzzMaxPages bounds FuzzPaging's reads.
const fuzzMaxPages = 6

// pagingScript turns fuzz bytes into a deterministic API: byte 0 picks the
// client's concurrency, then two bytes per page pick the page's records
// (0–4 of them, ids from a pool of 8 so they repeat), whether their bytes
// differ per page, whether the page repeats the previous page's bytes,
// whether it fails with HTTP 500, and whether its first answer is a lie
// told with a 200 (an empty page, the page cut to its first record, a
// maintenance page): asked again, it tells the truth. Pages past the
// script are empty.
type pagingScript []byte

// A lie a page's first answer tells (pagingScript.lie).
const (
	noLie = iota
	lieEmpty
	lieCut
	lieNotJSON
)

// lie is the lie page p's first answer tells, if any.
func (s pagingScript) lie(p int) int {
	i := 1 + 2*(p-1)
	if p < 1 || i+1 >= len(s) {
		return noLie
	}
	switch s[i] >> 5 {
	case 5:
		return lieEmpty
	case 4:
		return lieCut
	case 3:
		return lieNotJSON
	}
	return noLie
}

// holds is how many records page p truly holds.
func (s pagingScript) holds(p int) int {
	_, body := s.page(p)
	return bytes.Count(body, []byte(`"_id"`))
}

// lies reports whether any page of the script lies.
func (s pagingScript) lies() bool {
	for p := 1; 1+2*(p-1)+1 < len(s); p++ {
		if s.lie(p) != noLie {
			return true
		}
	}
	return false
}

// firstAnswer is what page p answers the first time it is asked. The
// lies are told where the rules promise to see through them; two places
// are left out, the rules' stated limits (DESIGN.md, "Paging rules"): this
// server ignores count, so page 1 cut short, in a list that fits in page
// 1, cannot be told from a short list by one request more; and an empty
// page after a short page confirmed is the end, so records that a server
// serves after a short page are lost when that page is answered empty.
func (s pagingScript) firstAnswer(p int) (int, []byte) {
	status, body := s.page(p)
	if p > 1 && s.holds(p-1) < fuzzPageSize {
		return status, body
	}
	switch s.lie(p) {
	case lieEmpty:
		return http.StatusOK, []byte("[]")
	case lieCut:
		// Not page 1: this server ignores count, and a list that fits in
		// page 1 cut short there cannot be told from a short list by one
		// request more (DESIGN.md, "Paging rules": what is not caught).
		if end := bytes.Index(body, []byte("},")); end > 0 && p > 1 {
			return http.StatusOK, append(append([]byte(nil), body[:end+1]...), ']')
		}
	case lieNotJSON:
		return http.StatusOK, []byte("<html>maintenance</html>")
	}
	return status, body
}

func (s pagingScript) concurrency() int {
	if len(s) == 0 {
		return 1
	}
	return 1 + int(s[0])%4
}

// page returns the status and body the API answers for page p.
func (s pagingScript) page(p int) (int, []byte) {
	i := 1 + 2*(p-1)
	if p < 1 || i+1 >= len(s) {
		return http.StatusOK, []byte("[]")
	}
	b0, b1 := s[i], s[i+1]
	status := http.StatusOK
	switch b0 >> 5 {
	case 7:
		status = http.StatusInternalServerError
	case 6:
		if p > 1 {
			_, prev := s.page(p - 1)
			return status, prev
		}
	}
	n := int(b0&7) % 5
	parts := make([]string, n)
	for k := range n {
		id := (int(b1) + k*(1+int(b0>>3&3))) % 8
		if b0&0x10 != 0 {
			parts[k] = fmt.Sprintf(`{"_id":"r%d","seen_on":%d}`, id, p)
		} else {
			parts[k] = fmt.Sprintf(`{"_id":"r%d"}`, id)
		}
	}
	return status, []byte("[" + strings.Join(parts, ",") + "]")
}

// expect is what a correct client must make of the script: the ids in
// order, or an error. A concurrent read that sees a record twice is read
// again one page at a time.
func (s pagingScript) expect() ([]string, bool) {
	out, ok, changed := s.expectPass(s.concurrency() > 1)
	if changed {
		out, ok, _ = s.expectPass(false)
	}
	return out, ok
}

// expectPass models one pass of countReader over the script.
func (s pagingScript) expectPass(concurrent bool) (out []string, ok, changed bool) {
	seen := map[string]bool{}
	bodies := map[string]int{}
	size, longest := fuzzPageSize, 0
	prevShort, prevStale, wentConcurrent := false, false, false
	for p := 1; ; p++ {
		if p > fuzzMaxPages && (!prevShort || p > fuzzMaxPages+1) {
			return nil, false, false // the page cap
		}
		status, body := s.page(p)
		if status != http.StatusOK {
			return nil, false, false
		}
		var recs []struct {
			ID string `json:"_id"`
		}
		if err := json.Unmarshal(body, &recs); err != nil {
			panic(err)
		}
		if len(recs) == 0 {
			return out, true, false
		}
		if _, dup := bodies[string(body)]; dup {
			if prevShort && p == 2 {
				return out, true, false // a short page 1 repeated, and again on page 1: not paginated
			}
			return nil, false, false
		}
		bodies[string(body)] = p
		longest = max(longest, len(recs))
		if prevShort {
			size = min(longest, fuzzPageSize)
		}
		fresh := 0
		for _, r := range recs {
			if !seen[r.ID] {
				seen[r.ID] = true
				out = append(out, r.ID)
				fresh++
			}
		}
		if wentConcurrent && fresh < len(recs) {
			return nil, false, true
		}
		if fresh == 0 && (len(recs) >= size || prevStale) {
			return nil, false, false
		}
		prevStale = fresh == 0
		prevShort = len(recs) < size
		wentConcurrent = wentConcurrent || (concurrent && !prevShort)
	}
}

// FuzzPaging reads from a server whose pages come from the fuzz input. The
// read always ends; it either fails or returns each record once, in the
// order first seen, exactly as a model of the paging rules says.
func FuzzPaging(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{3, 3, 0, 3, 3, 1, 0})                         // full, full, short
	f.Add([]byte{1, 3, 0, 3, 0})                               // the same page twice
	f.Add([]byte{2, 3, 0, 0xc3, 0})                            // repeat of the previous page's bytes
	f.Add([]byte{3, 3, 0, 0xe3, 0, 3, 9})                      // HTTP 500 on page 2
	f.Add([]byte{0, 3, 0, 3, 3, 3, 6, 3, 1, 3, 2, 3, 3, 3, 4}) // runs into the page cap
	f.Add([]byte{1, 0x13, 0, 0x13, 1, 0x12, 2})                // shifted records, new bytes
	f.Add([]byte{2, 4, 5, 4, 6, 1, 7})                         // oversized pages
	f.Add([]byte{3, 0x1b, 0, 0x1b, 0, 0x1b, 0, 0x1b, 0, 1, 0}) // pages of seen records

	f.Add([]byte{0, 0xa3, 0, 3, 3, 1, 6})          // page 1's first answer empty
	f.Add([]byte{3, 3, 0, 3, 3, 0xa3, 6, 0x81, 1}) // page 3's first answer empty, a short page 4
	f.Add([]byte{1, 3, 0, 0x83, 3, 2, 6})          // page 2 cut to its first record
	f.Add([]byte{2, 0x83, 0, 3, 3})                // page 1 cut to its first record
	f.Add([]byte{3, 3, 0, 0x63, 3, 2, 6})          // a maintenance page on page 2
	f.Add([]byte("010C2\x9b1"))                    // a page cut after a page larger than count
	f.Add([]byte("01112C1\x9c0"))                  // a page cut to the size of earlier pages

	f.Fuzz(func(t *testing.T, data []byte) {
		s := pagingScript(data)
		var asked asks
		api := func(page, _ int) (int, []byte) {
			if asked.ask(page) {
				return s.firstAnswer(page)
			}
			return s.page(page)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		recs, _, err := ReadCount[testRecord](ctx, scriptedRead(api, fuzzPageSize, fuzzMaxPages, s.concurrency()))
		if ctx.Err() != nil {
			t.Fatalf("the read did not end: %v", err)
		}
		// The model reads the truth: lies told once must not change the
		// list. They may fail the read (loud), never shorten it (wrong).
		want, ok := s.expect()
		if err != nil {
			if recs != nil {
				t.Fatalf("records with error %v", err)
			}
			if ok && !s.lies() {
				t.Fatalf("read failed (%v), the model expects %v", err, want)
			}
			return
		}
		if !ok && !s.lies() {
			t.Fatalf("read returned %v, the model expects an error", ids(recs))
		}
		if !ok {
			// The truth is a server at odds with itself (a page repeated
			// after a short page, say) that a lie hid: a list the rules
			// accept from what was answered, which the truth cannot judge.
			return
		}
		got := ids(recs)
		seen := map[string]bool{}
		for _, id := range got {
			if seen[id] {
				t.Fatalf("record %s returned twice: %v", id, got)
			}
			seen[id] = true
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Fatalf("read returned %v, the model expects %v", got, want)
		}
	})
}

// The FuzzPaging model itself, on scripts whose answer is known.
func TestPagingScriptModel(t *testing.T) {
	t.Parallel()
	cases := []struct {
		script []byte
		want   string
		ok     bool
	}{
		{[]byte{0}, "", true},
		{[]byte{3, 3, 0, 3, 3, 1, 0}, "r0,r1,r2,r3,r4,r5", true},
		{[]byte{1, 3, 0, 3, 0}, "", false},                               // identical page
		{[]byte{3, 3, 0, 0xe3, 0, 3, 9}, "", false},                      // HTTP 500
		{[]byte{0, 3, 0, 3, 3, 3, 6, 3, 1, 3, 2, 3, 3, 3, 4}, "", false}, // page cap
		{[]byte{1, 0x13, 0, 0x13, 1, 0x12, 2}, "r0,r3,r6,r1,r4,r7,r2,r5", true},
		{[]byte{2, 4, 5, 4, 6, 1, 7}, "r5,r6,r7,r0,r1", true},            // shifted, oversized pages
		{[]byte{3, 0x1b, 0, 0x1b, 0, 0x1b, 0, 0x1b, 0, 1, 0}, "", false}, // full page of seen records
	}
	for _, c := range cases {
		got, ok := pagingScript(c.script).expect()
		if strings.Join(got, ",") != c.want || ok != c.ok {
			t.Errorf("script %v: model gives %v, %v; want %q, %v", c.script, got, ok, c.want, c.ok)
		}
	}
}
