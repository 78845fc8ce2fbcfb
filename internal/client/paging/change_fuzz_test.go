package paging

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
)

// changingList is a model API whose list changes between page requests and
// whose page size may be below what is asked for, driven by fuzz bytes:
//
//	byte 0: client concurrency 1–4
//	byte 1: records at the start, 0–40
//	byte 2: the server's page size cap, 0 (none) or 1–7 (bits 0–2); the client
//	asks for 5; and a lie (bits 3–4: none, an empty page, the page cut to
//	its first record, a maintenance page) told by the first answer to every
//	page whose number is a multiple of 2 or 3 (bit 5)
//	then pairs: after request k (first byte), insert 1–3 records (second
//	byte) at a position (also the second byte), or with pages in flight
//	and bit 6 of the second byte set, remove 1–3 records from the front
//
// Insertions one page at a time may go anywhere; with pages in flight
// concurrently they go at the front or the end, and removals at the front
// come once the client fetched two pages at once (its read is concurrent)
// and before page 1 is asked a second time (the closing check, or the read
// again one page at a time): the changes a concurrent read is promised to
// survive. A removal one page at a time, or past page 1, or of a record
// inserted during the read, can shift a record past the reader unseen
// (see DESIGN.md and the index's "What a Read Promises"), so the model
// makes none.
type changingList struct {
	mu       sync.Mutex
	ids      []string
	cap      int
	requests int
	events   map[int][]insertEvent
	inserted int
	removed  map[string]bool
	// fetching is how many pages the client is fetching now; concurrent,
	// whether it ever fetched two at once (it then reads concurrently).
	fetching   int
	concurrent bool
	lie        int         // noLie, lieEmpty, lieCut or lieNotJSON
	every      int         // the pages that lie are multiples of every
	asked      map[int]int // requests per page
}

type insertEvent struct {
	count  int
	at     func(n int) int // position in a list of n records
	remove bool            // remove count records from the front instead
}

const changeAskedSize = 5

func newChangingList(data []byte) (*changingList, int) {
	at := func(i int) byte {
		if i < len(data) {
			return data[i]
		}
		return 0
	}
	conc := 1 + int(at(0))%4
	l := &changingList{cap: int(at(2)) % 8, events: map[int][]insertEvent{}, asked: map[int]int{}, removed: map[string]bool{},
		lie: int(at(2)>>3) % 4, every: 2 + int(at(2)>>5)%2}
	for i := range int(at(1)) % 41 {
		l.ids = append(l.ids, fmt.Sprintf("r%02d", i))
	}
	for i := 3; i+1 < len(data) && i < 3+2*6; i += 2 {
		k, b := 1+int(data[i])%12, int(data[i+1])
		ev := insertEvent{count: 1 + b%3}
		switch {
		case conc == 1:
			ev.at = func(n int) int { return (b / 3) % (n + 1) }
		case b&0x40 != 0:
			ev.remove = true
		case b&0x80 != 0:
			ev.at = func(n int) int { return n }
		default:
			ev.at = func(int) int { return 0 }
		}
		l.events[k] = append(l.events[k], ev)
	}
	return l, conc
}

// answer answers one ask of a page, then changes the list as the events
// say, between this request and the next.
func (l *changingList) answer(page, size int) (int, []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cap > 0 {
		size = min(size, l.cap)
	}
	l.requests++
	l.asked[page]++
	records := testutil.PageOf(l.ids, page, size)
	body := testutil.ArrayOf(records)
	if l.asked[page] == 1 && page%l.every == 0 {
		switch l.lie {
		case lieEmpty:
			body = []byte("[]")
		case lieCut:
			body = testutil.ArrayOf(records[:min(1, len(records))])
		case lieNotJSON:
			body = []byte("<html>maintenance</html>")
		}
	}
	defer l.change()
	return http.StatusOK, body
}

// fetch is the client's fetch of pages through answer, counting the pages
// it fetches at once.
func (l *changingList) fetch(rd Read[testRecord]) func(context.Context, int, int) (Page[testRecord], error) {
	return func(ctx context.Context, page, size int) (Page[testRecord], error) {
		l.mu.Lock()
		l.fetching++
		l.concurrent = l.concurrent || l.fetching > 1
		l.mu.Unlock()
		defer func() {
			l.mu.Lock()
			l.fetching--
			l.mu.Unlock()
		}()
		return rd.Fetch(ctx, page, size)
	}
}

// change inserts or removes what the events say after the request just
// answered.
func (l *changingList) change() {
	for _, ev := range l.events[l.requests] {
		if ev.remove {
			if !l.concurrent || l.asked[1] > 1 {
				continue // one page at a time, or past the closing check: see the type's comment
			}
			// Records there from the start only: one inserted and removed
			// again can leave page 1 as it was, which no check sees.
			n := 0
			for n < min(ev.count, len(l.ids)) && strings.HasPrefix(l.ids[n], "r") {
				n++
			}
			for _, id := range l.ids[:n] {
				l.removed[id] = true
			}
			l.ids = slices.Delete(l.ids, 0, n)
			continue
		}
		pos := ev.at(len(l.ids))
		var fresh []string
		for range ev.count {
			l.inserted++
			fresh = append(fresh, fmt.Sprintf("new%02d", l.inserted))
		}
		l.ids = slices.Insert(l.ids, pos, fresh...)
	}
}

// FuzzPagingUnderChange: whatever the page size the server really serves,
// whatever it inserts or removes between requests and whatever its first
// answers to pages lie, the read returns every record that existed
// throughout it, each once, and nothing that never existed, or it fails
// saying the server is not advancing or answers inconsistently. Without
// changes it returns the list exactly, lies or not.
func FuzzPagingUnderChange(f *testing.F) {
	f.Add([]byte{0, 23, 0})
	f.Add([]byte{3, 40, 2})                         // capped page size, concurrent
	f.Add([]byte{3, 40, 0, 2, 0, 3, 0x80})          // front then end inserts, concurrent
	f.Add([]byte{0, 37, 3, 1, 7, 2, 20, 4, 200})    // sequential, inserts anywhere, capped
	f.Add([]byte{2, 30, 0, 1, 2})                   // front insert right after page 1
	f.Add([]byte{1, 35, 4, 2, 1, 2, 1, 3, 1, 4, 1}) // many small front inserts
	f.Add([]byte{0, 12, 7, 1, 200})                 // cap above the asked size
	f.Add([]byte{0, 23, 0x08})                      // empty first answers, sequential
	f.Add([]byte{3, 40, 0x12, 2, 0, 3, 0x80})       // cut first answers, capped, inserts, concurrent
	f.Add([]byte{2, 25, 0x38})                      // maintenance pages
	f.Add([]byte{3, 40, 0, 3, 0x40})                // a front record removed while pages are in flight
	f.Add([]byte{1, 33, 2, 2, 0x41, 5, 0x42})       // removals, capped page size

	f.Fuzz(func(t *testing.T, data []byte) {
		api, conc := newChangingList(data)
		initial := slices.Clone(api.ids)
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		rd := scriptedRead(api.answer, changeAskedSize, 200, conc)
		rd.Fetch = api.fetch(rd)
		recs, _, err := ReadCount[testRecord](ctx, rd)
		if ctx.Err() != nil {
			t.Fatalf("the read did not end: %v", err)
		}
		if err != nil {
			if recs != nil {
				t.Fatal("records with an error")
			}
			if !(errors.Is(err, failure.ErrNotAdvancing) || errors.Is(err, ErrDataChanged) || errors.Is(err, failure.ErrInconsistentAnswers)) || api.inserted+len(api.removed) == 0 {
				t.Fatalf("read failed with %v (%d records inserted, %d removed)", err, api.inserted, len(api.removed))
			}
			return
		}
		got := ids(recs)
		seen := map[string]bool{}
		for _, id := range got {
			if seen[id] {
				t.Fatalf("%s returned twice: %v", id, got)
			}
			if !strings.HasPrefix(id, "r") && !strings.HasPrefix(id, "new") {
				t.Fatalf("unknown record %q", id)
			}
			seen[id] = true
		}
		for _, id := range initial {
			if !seen[id] && !api.removed[id] {
				t.Fatalf("%s, there throughout the read, is missing: got %v of %v (concurrency %d, cap %d, %d inserted, removed %v)",
					id, got, initial, conc, api.cap, api.inserted, api.removed)
			}
		}
		if api.inserted+len(api.removed) == 0 && !slices.Equal(got, initial) {
			t.Fatalf("got %v, want %v", got, initial)
		}
	})
}
