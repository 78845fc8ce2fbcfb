package paging

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// A lie a limit-style page's first answer tells, as make chaos tells them,
// or a transient fault.
const (
	limitTruth        = iota
	limitLieEmpty     // no results, totalPages 0: a replica with no data
	limitLieShort     // the results cut to half
	limitLieNotJSON   // a maintenance page
	limitLieErrObject // a JSON error object where the page belongs
	limitFault503     // not a lie: a transient 503, retried
	limitLies
)

// FuzzLimitPaging reads a limit-style endpoint whose pages' first answers
// may lie, once each, the way make chaos lies: byte 0 picks the reads'
// concurrency (bits 0-1) and whether one read or two run (bit 2: two at
// once, sharing the run's answer book and the server's count of asks, as
// two data sources of one plan do), byte 1 the records (0-60), byte 2 the
// page size (1-12), and a byte per page its first answer's lie. A read fails, or returns every record in order:
// never a shorter list. Without lies, it returns them.
func FuzzLimitPaging(f *testing.F) {
	f.Add([]byte{0, 41, 9, 0, 0, 0, limitLieEmpty, limitLieEmpty}) // make chaos, seed 44: 40 of 41
	f.Add([]byte{4, 41, 9, 0, 0, 0, limitLieEmpty, limitLieEmpty}) // the same, two reads at once
	f.Add([]byte{3, 41, 9, 0, limitLieShort, 0, limitLieEmpty, limitLieEmpty})
	f.Add([]byte{1, 0, 5, limitLieEmpty})
	f.Add([]byte{2, 10, 9, limitLieShort, limitLieNotJSON})
	f.Add([]byte{3, 27, 9, limitLieErrObject, limitLieEmpty, limitLieShort})
	f.Add([]byte{0, 60, 7, 0, 0, 0, 0, 0, 0, 0, 0, limitLieEmpty})
	f.Fuzz(func(t *testing.T, data []byte) {
		at := func(i int) int {
			if i < len(data) {
				return int(data[i])
			}
			return 0
		}
		n, size := at(1)%61, 1+at(2)%12
		all := make([]string, n)
		for i := range all {
			all[i] = fmt.Sprintf("m%02d", i)
		}
		var lied atomic.Bool // pages are asked concurrently
		lieOf := func(page int) int {
			k := at(2+page) % limitLies
			if k != limitTruth {
				lied.Store(true)
			}
			return k
		}
		var asked asks
		api := func(page, size int) (int, []byte) {
			truth := func(ids []string) []byte {
				return fmt.Appendf(nil, `{"results":%s,"page":%d,"limit":%d,"totalPages":%d}`, testutil.ArrayOf(ids), page, size, (n+size-1)/size)
			}
			ids := testutil.PageOf(all, page, size)
			if !asked.ask(page) {
				return http.StatusOK, truth(ids)
			}
			switch lieOf(page) {
			case limitLieEmpty:
				return http.StatusOK, fmt.Appendf(nil, `{"results":[],"page":%d,"limit":%d,"totalPages":0}`, page, size)
			case limitLieShort:
				return http.StatusOK, truth(ids[:len(ids)/2])
			case limitLieNotJSON:
				return http.StatusOK, []byte("<html>maintenance</html>")
			case limitLieErrObject:
				return http.StatusOK, []byte(`{"error":"search_timeout"}`)
			case limitFault503:
				return http.StatusServiceUnavailable, []byte(`{"error":"unavailable"}`)
			}
			return http.StatusOK, truth(ids)
		}
		book := NewAnswers()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var wg sync.WaitGroup
		reads := 1 + (at(0)>>2)%2
		got := make([][]string, reads)
		errs := make([]error, reads)
		for i := range reads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rd := limitRead(api, size)
				rd.Answers, rd.MaxInFlight = book, 1+at(0)%4
				recs, _, _, err := ReadLimit[testRecord](ctx, rd)
				got[i], errs[i] = ids(recs), err
			}()
		}
		wg.Wait()
		if ctx.Err() != nil {
			t.Fatal("a read did not end")
		}
		for i := range reads {
			switch {
			case errs[i] == nil && !slices.Equal(got[i], all):
				t.Fatalf("read %d returned %d of %d records: %v", i, len(got[i]), n, got[i])
			case errs[i] != nil && !lied.Load():
				t.Fatalf("read %d failed without a lie told: %v", i, errs[i])
			}
		}
	})
}
