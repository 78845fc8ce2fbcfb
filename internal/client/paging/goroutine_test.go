package paging

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/failure"
	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// The goroutine rule (DESIGN.md, "Packages"): no goroutine of a read
// outlives the function that starts it. Here the pages a read sends past
// its end, or past a page that fails it, hold their fetch until the read
// gives them up, and then a while longer, and the closing check takes a
// while too: a read that returned while one of them was still fetching
// left a goroutine behind. The rule holds
// whatever the machine's speed: a read that waits for its fetches returns
// later, never with one running.
func TestNoFetchOutlivesARead(t *testing.T) {
	t.Parallel()
	list := make([]string, 25)
	for i := range list {
		list[i] = fmt.Sprintf("r%02d", i)
	}
	for _, c := range []struct {
		name    string
		failsAt int // the page answered 404 mid-list; 0: none
	}{
		{"a read to its end", 0},
		{"a read that fails", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var fetching, pageOneAsks atomic.Int32
			rd := scriptedRead(nil, 10, 100, 4)
			rd.Fetch = func(ctx context.Context, page, size int) (Page[testRecord], error) {
				fetching.Add(1)
				defer fetching.Add(-1)
				switch {
				case page == c.failsAt:
					return Page[testRecord]{}, &failure.APIError{Endpoint: "memberships", Page: page, Status: 404}
				case page > 4 || c.failsAt > 0 && page > c.failsAt: // past the end (page 4, empty) or the failure
					<-ctx.Done() // given up by the read
					time.Sleep(50 * time.Millisecond)
					return Page[testRecord]{}, ctx.Err()
				}
				if page == 1 && pageOneAsks.Add(1) == 2 {
					time.Sleep(300 * time.Millisecond) // the closing check, beside the end's question: longer than the pages past the end
				}
				body := testutil.ArrayOf(testutil.PageOf(list, page, size))
				recs, err := pagejson.DecodeArray[testRecord](body, true, nil)
				return Page[testRecord]{Records: recs, Body: body}, err
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, _, err := ReadCount[testRecord](ctx, rd)
			if n := fetching.Load(); n != 0 {
				t.Fatalf("the read returned (%v) with %d fetches still running", err, n)
			}
			if ctx.Err() != nil || (c.failsAt > 0) != (err != nil) || err != nil && !errors.As(err, new(*failure.APIError)) {
				t.Fatalf("the read ended with %v", err)
			}
		})
	}
}
