package paging

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// repeatingLiar serves n records in pages, as a cache keyed by URL would:
// the URLs in lies answer their first tellings asks with a lie (empty, or
// cut in half), the same lie every time; then the truth.
type repeatingLiar struct {
	ids      []string
	lies     map[[2]int]bool // page and count that lie
	short    bool            // the lie is the page cut in half, not empty
	tellings int
	mu       sync.Mutex
	asked    map[[2]int]int
}

func (l *repeatingLiar) page(page, size int) (int, []byte) {
	q := [2]int{page, size}
	l.mu.Lock()
	l.asked[q]++
	n := l.asked[q]
	l.mu.Unlock()
	ids := testutil.PageOf(l.ids, page, size)
	if l.lies[q] && n <= l.tellings {
		if !l.short {
			return http.StatusOK, []byte("[]")
		}
		ids = ids[:len(ids)/2]
	}
	return http.StatusOK, testutil.ArrayOf(ids)
}

// A lie told again and again to the URL of the page that would end the
// read is refuted by another question: every record comes back, whether
// the lie is an empty page or a page cut short, told up to three times,
// one page at a time or four in flight. Red without the other question:
// the same URL asked again repeats the lie and the read stops early.
func TestRepeatedLieIsRefutedByAnotherQuestion(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 7, 30, 37, 45} {
		for _, lied := range []int{1, 2, 3, 4} {
			for _, short := range []bool{false, true} {
				for _, conc := range []int{1, 4} {
					name := fmt.Sprintf("%d records, page %d lies (short %t), %d in flight", n, lied, short, conc)
					want := make([]string, n)
					for i := range want {
						want[i] = fmt.Sprintf("r%02d", i)
					}
					liar := &repeatingLiar{ids: want, lies: map[[2]int]bool{{lied, 10}: true}, short: short, tellings: 3, asked: map[[2]int]int{}}
					rd := scriptedRead(liar.page, 10, 1000, conc)
					rd.MaxSize = 1000
					got, _, err := ReadCount[testRecord](context.Background(), rd)
					if err != nil {
						t.Errorf("%s: %v", name, err)
						continue
					}
					if !slices.Equal(ids(got), want) && (len(got) != 0 || n != 0) {
						t.Errorf("%s: read %d records %v, want %d", name, len(got), ids(got), n)
					}
				}
			}
		}
	}
}

// The same for a limit-style read of records without ids (org metrics),
// told apart by their bytes: an empty lie says totalPages 0, as a replica
// without the data does; a short one keeps the true totalPages.
func TestRepeatedLieIsRefutedByAnotherQuestion_limit(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 7, 30, 37} {
		for _, lied := range []int{1, 2, 3, 4} {
			for _, short := range []bool{false, true} {
				name := fmt.Sprintf("%d records, page %d lies (short %t)", n, lied, short)
				all := make([]string, n)
				for i := range all {
					all[i] = fmt.Sprintf(`{"k":"m%02d"}`, i)
				}
				var mu sync.Mutex
				asked := map[[2]int]int{}
				api := func(page, size int) (int, []byte) {
					mu.Lock()
					asked[[2]int{page, size}]++
					tellings := asked[[2]int{page, size}]
					mu.Unlock()
					from := min((page-1)*size, n)
					recs, total := all[from:min(from+size, n)], (n+size-1)/size
					if page == lied && size == 10 && tellings <= 3 {
						if !short {
							recs, total = nil, 0
						} else {
							recs = recs[:len(recs)/2]
						}
					}
					return http.StatusOK, fmt.Appendf(nil, `{"results":[%s],"page":%d,"limit":%d,"totalPages":%d}`, strings.Join(recs, ","), page, size, total)
				}
				rd := limitRead(api, 10)
				rd.MaxSize = 100
				got, _, _, err := ReadLimit[testRecord](context.Background(), rd)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				var raws []string
				for _, r := range got {
					raws = append(raws, r.Raw)
				}
				if !slices.Equal(raws, all) && (len(got) != 0 || n != 0) {
					t.Errorf("%s: read %d records, want %d", name, len(got), n)
				}
			}
		}
	}
}

// A one-page read takes two rounds: the other question an empty page 2
// would need goes out beside page 2, not after its answer. Page 2 here is
// answered only once that question has been asked (or after a second, and
// the test fails), one page in flight or four. When page 2 holds records
// (a server that serves 7 a page whatever is asked), the question sent
// ahead is let go: the read returns every record, with no fetch running.
func TestTheOtherQuestionGoesOutBesidePageTwo(t *testing.T) {
	t.Parallel()
	// On synctest's clock: the second runs out only when nothing else can move.
	synctest.Test(t, func(t *testing.T) {
		for _, c := range []struct {
			records, served int
		}{{7, 10}, {25, 7}} {
			for _, conc := range []int{1, 4} {
				list := make([]string, c.records)
				for i := range list {
					list[i] = fmt.Sprintf("r%02d", i)
				}
				var mu sync.Mutex
				var asked [][2]int
				otherAsked := make(chan struct{})
				var fetching atomic.Int32
				waitedInVain := false
				rd := scriptedRead(nil, 10, 100, conc)
				rd.MaxSize = 100
				rd.Fetch = func(ctx context.Context, page, size int) (Page[testRecord], error) {
					fetching.Add(1)
					defer fetching.Add(-1)
					mu.Lock()
					asked = append(asked, [2]int{page, size})
					mu.Unlock()
					switch {
					case page == 2 && size == 6:
						close(otherAsked)
						time.Sleep(20 * time.Millisecond) // answered after page 2: a read that drops it waits for it
					case page == 2 && size == 7:
						select {
						case <-otherAsked:
						case <-time.After(time.Second):
							waitedInVain = true
						}
					}
					body := testutil.ArrayOf(testutil.PageOf(list, page, min(size, c.served)))
					recs, err := pagejson.DecodeArray[testRecord](body, true, nil)
					return Page[testRecord]{Records: recs, Body: body}, err
				}
				recs, _, err := ReadCount[testRecord](context.Background(), rd)
				name := fmt.Sprintf("%d records served %d a page, %d in flight", c.records, c.served, conc)
				if err != nil || !slices.Equal(ids(recs), list) {
					t.Fatalf("%s: %v, %v", name, ids(recs), err)
				}
				if waitedInVain {
					t.Errorf("%s: page 2 was answered before the other question was asked; asked %v", name, asked)
				}
				if n := fetching.Load(); n != 0 {
					t.Errorf("%s: the read returned with %d fetches running", name, n)
				}
				if want := [][2]int{{1, 10}, {2, 7}, {2, 6}}; c.records == 7 && !slices.Equal(sortedQuestions(asked), want) {
					t.Errorf("%s: asked %v, want %v", name, asked, want)
				}
			}
		}
	})
}

// sortedQuestions are questions by page, then by size, largest first.
func sortedQuestions(qs [][2]int) [][2]int {
	out := slices.Clone(qs)
	slices.SortFunc(out, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return b[1] - a[1]
	})
	return out
}
