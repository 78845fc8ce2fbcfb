package paging

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/client/pagejson"
)

func TestSlowStartWindow(t *testing.T) {
	t.Parallel()
	var got []pagePlan
	for _, full := range []int{0, 1, 2, 8, 9, 100} {
		got = append(got, slowStart(full, 8))
	}
	keep := pagePlan{inFlight: 8, keepPlaces: true}
	want := []pagePlan{{inFlight: 1}, keep, {inFlight: 8}, {inFlight: 8}, {inFlight: 8}, {inFlight: 8}}
	if !slices.Equal(got, want) {
		t.Fatalf("windows %v, want %v", got, want)
	}
	if w := slowStart(1000, 3); w.inFlight != 3 {
		t.Fatalf("window %d over maxInFlight 3", w.inFlight)
	}
	for full := range 3 {
		if w := slowStart(full, 1); w.inFlight != 1 {
			t.Fatalf("window %d with maxInFlight 1 after %d full pages", w.inFlight, full)
		}
	}
}

// A read cancelled while its pages are on the network ends, every time:
// each worker hands its answer (the cancellation) over, and none is left
// waiting. (From a review: workers that chose the read's end over handing
// their answer left readPages waiting for it forever, about half the time.)
func TestACancelledReadEnds(t *testing.T) {
	t.Parallel()
	full := func(page, size int) []byte {
		ids := make([]string, size)
		for i := range ids {
			ids[i] = fmt.Sprintf(`{"_id":"p%d-%d"}`, page, i)
		}
		return []byte("[" + strings.Join(ids, ",") + "]")
	}
	for range 30 {
		rd := scriptedRead(nil, 2, 1000, 4)
		rd.Fetch = func(ctx context.Context, page, size int) (Page[testRecord], error) {
			if page == 1 {
				body := full(page, size)
				recs, err := pagejson.DecodeArray[testRecord](body, true, nil)
				return Page[testRecord]{Records: recs, Body: body}, err
			}
			<-ctx.Done() // a server that never answers
			return Page[testRecord]{}, ctx.Err()
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
		done := make(chan error, 1)
		go func() {
			_, _, err := ReadCount[testRecord](ctx, rd)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("the read ended with %v, want the deadline", err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("a cancelled read did not end")
		}
		cancel()
	}
}
