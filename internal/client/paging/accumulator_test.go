package paging

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

// recordsOf is a page of records with those ids, "" for a record without
// one, each carrying its position so its raw JSON can be told apart.
func recordsOf(t *testing.T, ids []string) []pagejson.Record[testRecord] {
	t.Helper()
	parts := make([]string, len(ids))
	for i, id := range ids {
		if id == "" {
			parts[i] = fmt.Sprintf(`{"at":%d}`, i)
		} else {
			parts[i] = fmt.Sprintf(`{"_id":%q,"at":%d}`, id, i)
		}
	}
	recs, err := pagejson.DecodeArray[testRecord]([]byte("["+strings.Join(parts, ",")+"]"), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// The accumulator keeps the first occurrence of each id, in order, and
// every record without an id (two equal id-less records are two records);
// the same records again are all duplicates but the id-less ones. The
// guard sees every record, duplicates included.
func FuzzAccumulatorKeepsFirstOfEachID(f *testing.F) {
	f.Add([]byte("abac"))
	f.Add([]byte("a\x00a\x00b"))
	f.Add([]byte(""))
	f.Fuzz(func(t *testing.T, data []byte) {
		ids := make([]string, len(data))
		for i, b := range data {
			if b%5 != 0 { // every fifth byte value: a record without an id
				ids[i] = fmt.Sprintf("r%d", b%7)
			}
		}
		recs := recordsOf(t, ids)
		seen := &countingGuard{}
		acc := newAccumulator[testRecord](&Read[testRecord]{NewGuard: func() Guard[testRecord] { return seen }})
		fresh, err := acc.keep(1, recs, true)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		had := map[string]bool{}
		for _, id := range ids {
			if id == "" || !had[id] {
				had[id] = true
				want = append(want, id)
			}
		}
		got := make([]string, len(acc.out))
		for i, r := range acc.out {
			got[i] = r.Key()
			if r.Raw == "" {
				t.Fatalf("record %d kept without its raw JSON", i)
			}
		}
		if !slices.Equal(got, want) || fresh != len(want) || acc.duplicates != len(ids)-len(want) {
			t.Fatalf("kept %v (fresh %d, %d duplicates) of %v, want %v", got, fresh, acc.duplicates, ids, want)
		}
		idless := 0
		for _, id := range ids {
			if id == "" {
				idless++
			}
		}
		if again, _ := acc.keep(2, recs, true); again != idless {
			t.Fatalf("the same page again kept %d records, want the %d without an id", again, idless)
		}
		if seen.n != 2*len(ids) {
			t.Fatalf("the guard saw %d records, want every one of both passes (%d)", seen.n, 2*len(ids))
		}
	})
}

// countingGuard counts the records it sees.
type countingGuard struct{ n int }

func (g *countingGuard) See(*testRecord, []byte) { g.n++ }
func (g *countingGuard) Err() error              { return nil }
