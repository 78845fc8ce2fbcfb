package paging

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// pageTwoWatch serves n records in pages and notes when page 2 is first
// asked for.
type pageTwoWatch struct {
	ids   []string
	once  sync.Once
	asked chan struct{} // closed at the first ask of page 2
}

func newPageTwoWatch(n int) *pageTwoWatch {
	w := &pageTwoWatch{asked: make(chan struct{})}
	for i := range n {
		w.ids = append(w.ids, fmt.Sprintf("r%03d", i))
	}
	return w
}

func (w *pageTwoWatch) page(page, size int) (int, []byte) {
	if page == 2 {
		w.once.Do(func() { close(w.asked) })
	}
	return http.StatusOK, testutil.ArrayOf(testutil.PageOf(w.ids, page, size))
}

// keepWatch is a guard that, at the first record it sees (page 1's first,
// as step keeps it), waits up to a second for page 2 to be asked for, and
// notes whether it was.
type keepWatch struct {
	asked  <-chan struct{}
	seen   int
	before bool // page 2 was asked for before page 1's records were kept
}

func (g *keepWatch) See(*testRecord, []byte) {
	g.seen++
	if g.seen > 1 {
		return
	}
	select {
	case <-g.asked:
		g.before = true
	case <-time.After(time.Second):
	}
}

func (g *keepWatch) Err() error { return nil }

// The slow start opens as soon as page 1 is decoded, when it is full and
// no earlier answer of the run contradicts it: pages 2 to 4 leave before
// step keeps page 1's records (with the guards, 3-4 ms for 1,000
// records), not after. A short page 1 changes the count asked for, and one
// that contradicts the run's answer is asked again: then page 2 waits for
// step. Red before opens: page 2 always waited.
func TestSlowStartOpensBeforePageOneIsKept(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name        string
		n           int
		contradicts bool
		want        bool
	}{
		{"page 1 full", 45, false, true},
		{"page 1 short", 7, false, false},
		{"page 1 full, against an earlier answer of the run", 45, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w := newPageTwoWatch(c.n)
			rd := scriptedRead(w.page, 10, 100, 4)
			if c.contradicts {
				rd.Book.record(rd.Question(1, 10), answer{digest: 1, records: 10})
			}
			g := &keepWatch{asked: w.asked}
			rd.NewGuard = func() Guard[testRecord] { return g }
			got, _, err := ReadCount[testRecord](context.Background(), rd)
			if err != nil || len(got) != c.n {
				t.Fatalf("read %d of %d: %v", len(got), c.n, err)
			}
			if g.before != c.want {
				t.Errorf("page 2 asked for before page 1 was kept: %t, want %t", g.before, c.want)
			}
		})
	}
}

// Page 1 is believed once, when the slow start opens on it: another read
// of the run recording a different answer to its URL meanwhile (before
// step takes page 1) does not make this read ask page 1 again with pages
// 2-4 already out, where a short second answer would change the count
// they were asked with. (From a review: opens and step each looked in the
// book, and a read of the same URL between the two made the read ask page
// 1 again, race on the count, and read everything again from page 1.)
func TestPageOneBelievedWhenTheSlowStartOpens(t *testing.T) {
	t.Parallel()
	w := newPageTwoWatch(45)
	var mu sync.Mutex
	pageOne := 0
	api := func(page, size int) (int, []byte) {
		if page == 1 {
			mu.Lock()
			pageOne++
			mu.Unlock()
		}
		return w.page(page, size)
	}
	rd := scriptedRead(api, 10, 100, 4)
	rd.Handed = func(page int) {
		if page != 1 {
			return
		}
		<-w.asked // pages 2-4 are out
		other := newIDsHash()
		for _, id := range w.ids[:7] {
			other.add(id)
		}
		rd.Book.record(rd.Question(1, 10), answer{digest: other.sum(), records: 7})
	}
	got, stats, err := ReadCount[testRecord](context.Background(), rd)
	if err != nil || len(got) != 45 {
		t.Fatalf("read %d of 45: %v", len(got), err)
	}
	if stats.Reread {
		t.Error("the read started again from page 1")
	}
	mu.Lock()
	defer mu.Unlock()
	if pageOne != 2 {
		t.Errorf("page 1 asked %d times, want 2 (once, and the closing check)", pageOne)
	}
}
