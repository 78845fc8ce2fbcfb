package paging

import (
	"slices"
	"testing"
)

func TestSlowStartWindow(t *testing.T) {
	t.Parallel()
	var got []int
	for full := range 8 {
		got = append(got, slowStart(full, 8))
	}
	if want := []int{1, 8, 8, 8, 8, 8, 8, 8}; !slices.Equal(got, want) {
		t.Fatalf("windows %v, want %v", got, want)
	}
	if w := slowStart(1000, 3); w != 3 {
		t.Fatalf("window %d over maxInFlight 3", w)
	}
	if w := slowStart(5, 1); w != 1 {
		t.Fatalf("window %d with maxInFlight 1", w)
	}
}
