package paging

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

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
