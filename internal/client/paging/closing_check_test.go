package paging

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The closing check asked beside a claimed end goes stale when that end is
// refuted and records are served after it: it is asked again at the real
// end. Here page 3 first lies short, so the end is claimed there and page 1
// asked again beside it; right after that answer the front record is
// deleted; the end's other question refutes the lie, and pages 3 on come
// from the shifted list. Trusting the stale check would lose the record
// that moved onto a page already read (r30, with the rule removed); asked
// again at the real end, page 1 differs, and the read starts again and
// returns the list as it is now.
func TestAStaleClosingCheckIsAskedAgain(t *testing.T) {
	t.Parallel()
	for range 50 {
		var mu sync.Mutex
		list := make([]string, 45)
		for i := range list {
			list[i] = fmt.Sprintf("r%02d", i)
		}
		var pageOneAsks, pageThreeAsks int
		api := func(page, size int) (int, []byte) {
			mu.Lock()
			defer mu.Unlock()
			lo := min((page-1)*size, len(list))
			hi := min(lo+size, len(list))
			recs := slices.Clone(list[lo:hi])
			switch {
			case page == 1 && size == 10:
				pageOneAsks++
				if pageOneAsks == 2 { // the check beside the claimed end: then the front record goes
					list = list[1:]
				}
			case page == 3 && size == 10:
				pageThreeAsks++
				if pageThreeAsks == 1 { // a lie: page 3 cut short, as a lagging replica serves it
					recs = recs[:5]
				}
			}
			body := make([]string, len(recs))
			for i, id := range recs {
				body[i] = `{"_id":"` + id + `"}`
			}
			return http.StatusOK, []byte("[" + strings.Join(body, ",") + "]")
		}
		rd := scriptedRead(api, 10, 1000, 4)
		recs, _, err := ReadCount[testRecord](context.Background(), rd)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		want := slices.Clone(list)
		mu.Unlock()
		if got := ids(recs); !slices.Equal(got, want) {
			t.Fatalf("read %d records %v\nwant the %d of the list as it is now %v", len(got), got, len(want), want)
		}
	}
}
