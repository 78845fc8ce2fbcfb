package paging

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// endless answers every page with size records never seen before: a
// server that never ends its list. asked is the highest page asked.
func endless(asked *atomic.Int64) scriptedAPI {
	return func(page, size int) (int, []byte) {
		for {
			if old := asked.Load(); int64(page) <= old || asked.CompareAndSwap(old, int64(page)) {
				break
			}
		}
		recs := make([]string, size)
		for i := range recs {
			recs[i] = fmt.Sprintf("p%d-%d", page, i)
		}
		return http.StatusOK, testutil.ArrayOf(recs)
	}
}

// A server that pages forever is stopped by the budget at the page that
// passes it, one page at a time or four, not at the page cap.
func TestBudgetStopsAServerThatNeverEnds(t *testing.T) {
	t.Parallel()
	for _, inFlight := range []int{1, 4} {
		var asked atomic.Int64
		rd := scriptedRead(endless(&asked), 100, 100_000, inFlight)
		rd.Budget = Budget[testRecord]{MaxValues: 5_000, Width: 2}
		recs, _, err := ReadCount[testRecord](context.Background(), rd)
		var over *failure.BudgetError
		if !errors.As(err, &over) || recs != nil {
			t.Fatalf("in flight %d: got %d records, error %v; want a budget error", inFlight, len(recs), err)
		}
		// 2,500 records fill the budget; the 2,501st, on page 26, passes it.
		if over.Over != "values" || over.Records != 2_501 || over.Values != 5_002 || over.Pages != 26 || asked.Load() > int64(26+2*inFlight) {
			t.Fatalf("in flight %d: %+v, %d pages asked", inFlight, *over, asked.Load())
		}
	}
}

// The bytes bound counts each value as a byte and the text the weigh
// finds; a read exactly at a bound is not refused.
func TestBudgetBoundsAreInclusive(t *testing.T) {
	t.Parallel()
	list := func(page, size int) (int, []byte) {
		all := make([]string, 250)
		for i := range all {
			all[i] = fmt.Sprintf("r%03d", i)
		}
		return http.StatusOK, testutil.ArrayOf(testutil.PageOf(all, page, size))
	}
	text := func(r *testRecord) (int64, int64) { return 1, int64(len(r.Raw)) }
	_, body := list(1, 250)
	const values = 2 * 250
	bytes := int64(len(body)) - 1 - 249 - 1 + values // the records' raw JSON, less brackets and commas, and a byte a value
	for _, tc := range []struct {
		budget Budget[testRecord]
		over   failure.Bound
	}{
		{Budget[testRecord]{MaxValues: 500, Width: 1, Weigh: text}, ""},
		{Budget[testRecord]{MaxValues: 499, Width: 1, Weigh: text}, "values"},
		{Budget[testRecord]{MaxBytes: bytes, Width: 1, Weigh: text}, ""},
		{Budget[testRecord]{MaxBytes: bytes - 1, Width: 1, Weigh: text}, "bytes"},
	} {
		rd := scriptedRead(list, 100, 100, 2)
		rd.Budget = tc.budget
		recs, _, err := ReadCount[testRecord](context.Background(), rd)
		var over *failure.BudgetError
		switch {
		case tc.over == "" && (err != nil || len(recs) != 250):
			t.Errorf("%+v: %d records, %v; want all 250", tc.budget, len(recs), err)
		case tc.over != "" && (!errors.As(err, &over) || over.Over != tc.over || over.Records != 250):
			t.Errorf("%+v: %v; want the %s bound passed at the last record", tc.budget, err, tc.over)
		}
	}
}

// A limit-style read is bounded the same way: totalPages that grows with
// every page is followed until the budget, not to the page cap.
func TestBudgetStopsALimitReadThatNeverEnds(t *testing.T) {
	t.Parallel()
	api := func(page, size int) (int, []byte) {
		recs := make([]string, size)
		for i := range recs {
			recs[i] = fmt.Sprintf("p%d-%d", page, i)
		}
		return http.StatusOK, fmt.Appendf(nil, `{"results":%s,"page":%d,"limit":%d,"totalPages":%d}`, testutil.ArrayOf(recs), page, size, page+1)
	}
	rd := limitRead(api, 10)
	rd.MaxPages = 100_000
	rd.Budget = Budget[testRecord]{MaxValues: 1_000, Width: 1}
	_, _, _, err := ReadLimit[testRecord](context.Background(), rd)
	var over *failure.BudgetError
	if !errors.As(err, &over) || over.Records != 1_001 || over.Pages != 101 {
		t.Fatalf("%v; want the budget passed on page 101", err)
	}
}

// failingGuard finds fault with every pass it sees a record of.
type failingGuard struct{ seen bool }

func (g *failingGuard) See(*testRecord, []byte) { g.seen = true }
func (g *failingGuard) Err() error {
	if g.seen {
		return errWrongOrganization
	}
	return nil
}

var errWrongOrganization = errors.New("a record of another organization")

// A guard's verdict says more than the size the read reached: it wins
// over the budget, count- and limit-style.
func TestGuardErrorWinsOverTheBudget(t *testing.T) {
	t.Parallel()
	var asked atomic.Int64
	rd := scriptedRead(endless(&asked), 100, 100_000, 2)
	rd.Budget = Budget[testRecord]{MaxValues: 1_000, Width: 1}
	rd.NewGuard = func() Guard[testRecord] { return &failingGuard{} }
	if _, _, err := ReadCount[testRecord](context.Background(), rd); !errors.Is(err, errWrongOrganization) {
		t.Fatalf("count-style: %v; want the guard's error", err)
	}
	lr := limitRead(func(page, size int) (int, []byte) {
		return http.StatusOK, metadataPage(500, page, size)
	}, 10)
	lr.Budget = Budget[testRecord]{MaxValues: 100, Width: 1}
	lr.NewGuard = func() Guard[testRecord] { return &failingGuard{} }
	if _, _, _, err := ReadLimit[testRecord](context.Background(), lr); !errors.Is(err, errWrongOrganization) {
		t.Fatalf("limit-style: %v; want the guard's error", err)
	}
}
