package paging

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// A page whose body has arrived gives its place in flight to the next
// page while it is decoded (Arrived), once a page past page 1 came back
// full (slowStart): with 2 places, pages 4 and 5 decode until page 6 has
// been asked for, which only a freed place can send. A pool that held
// places through decoding never sends page 6 (each decode then gives up
// after a second and the test fails); the records still come in page
// order.
func TestDecodingGivesItsPlaceToTheNextPage(t *testing.T) {
	t.Parallel()
	// On synctest's clock: a decode gives up only when nothing else can move.
	synctest.Test(t, func(t *testing.T) {
		list := make([]string, 60)
		for i := range list {
			list[i] = fmt.Sprintf("r%02d", i)
		}
		var mu sync.Mutex
		asked := map[int]bool{}
		sixAsked := make(chan struct{})
		var waitedInVain []int
		rd := scriptedRead(nil, 10, 100, 2)
		rd.Fetch = func(ctx context.Context, page, size int) (Page[testRecord], error) {
			mu.Lock()
			if page == 6 && !asked[6] {
				close(sixAsked)
			}
			asked[page] = true
			mu.Unlock()
			body := testutil.ArrayOf(testutil.PageOf(list, page, size))
			Arrived(ctx)
			if page == 4 || page == 5 {
				select { // decoding, until the pool has sent page 6
				case <-sixAsked:
				case <-time.After(time.Second):
					mu.Lock()
					waitedInVain = append(waitedInVain, page)
					mu.Unlock()
				}
			}
			recs, err := pagejson.DecodeArray[testRecord](body, true, nil)
			return Page[testRecord]{Records: recs, Body: body}, err
		}
		recs, _, err := ReadCount[testRecord](context.Background(), rd)
		if err != nil {
			t.Fatal(err)
		}
		if len(waitedInVain) > 0 {
			t.Errorf("pages %v decoded while page 6 was not sent: decoding held their places", waitedInVain)
		}
		if len(recs) != len(list) {
			t.Fatalf("%d records, want %d", len(recs), len(list))
		}
		for i, r := range recs {
			if *r.ID != list[i] {
				t.Fatalf("record %d is %s, want %s: not in page order", i, *r.ID, list[i])
			}
		}
	})
}
