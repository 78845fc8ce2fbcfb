package main

import (
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

func TestPastEndCountsPagesWhoseFirstRecordIsPastTheActive(t *testing.T) {
	t.Parallel()
	// 199 active in pages of 1,000: page 1 holds them all, page 2 at
	// count 198 starts at record 198 (the last one), page 2 at count 199
	// at 199 (none), page 2 at 1,000 at 1,000 (none).
	log := []sandbox.RequestRecord{ask(1, 1000, 0, 0), ask(2, 198, 0, 1), ask(2, 199, 0, 2), ask(2, 1000, 0, 3)}
	if got := pastEnd(log, 199); got != 2 {
		t.Errorf("past the end %d, want 2", got)
	}
	other := ask(5, 1000, 0, 4)
	other.Endpoint = sandbox.EndpointPayments
	if got := pastEnd(append(log, other), 199); got != 2 {
		t.Errorf("with a payments page: %d, want 2 (only memberships count)", got)
	}
}

func TestLogRoundsGroupsArrivalsByTheFirstOfEachRound(t *testing.T) {
	t.Parallel()
	const gap = 150 * time.Millisecond
	// ms of arrival: a round at 0, one at 300 whose requests straggle up
	// to 140 ms after its first, and one at 600; out of order, as the log
	// is kept by when answers finished.
	log := []sandbox.RequestRecord{ask(2, 1000, 0, 440), ask(1, 1000, 0, 0), ask(3, 1000, 0, 300), ask(4, 1000, 0, 600), ask(5, 1000, 0, 310)}
	if got := logRounds(log, gap); got != 3 {
		t.Errorf("rounds %d, want 3", got)
	}
	if got := logRounds(nil, gap); got != 0 {
		t.Errorf("rounds of an empty log %d, want 0", got)
	}
}

func TestPagesOfTheActive(t *testing.T) {
	t.Parallel()
	for active, want := range map[int]int{0: 0, 199: 1, 1000: 1, 1001: 2, 21104: 22} {
		if got := pages(active); got != want {
			t.Errorf("pages(%d) = %d, want %d", active, got, want)
		}
	}
}
