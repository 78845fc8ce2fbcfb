package main

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// ask is one request of a read in a sandbox log: page and count, the
// latency drawn for it, and when it arrived (its order).
func ask(page, count int, wait time.Duration, at int) sandbox.RequestRecord {
	return sandbox.RequestRecord{Endpoint: sandbox.EndpointMemberships, Status: 200,
		Query:   url.Values{"page": {strconv.Itoa(page)}, "count": {strconv.Itoa(count)}},
		Arrived: time.Unix(0, 0).Add(time.Duration(at) * time.Millisecond), Latency: wait}
}

func TestRulesFloorInLockstep(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	var log []sandbox.RequestRecord
	for p := 1; p <= 24; p++ { // pages 22-24 went out past the end
		log = append(log, ask(p, 1000, 50*ms, p))
	}
	log = append(log, ask(21, 999, 40*ms, 30), ask(1, 1000, 60*ms, 31))
	got, err := rulesFloor(log, 21, 1000, 4)
	if err != nil {
		t.Fatal(err)
	}
	// page 1; pages 2-21 in five rounds of four; the confirmation, as long
	// as the longer of the other question and the closing check.
	if got != 360*ms {
		t.Errorf("floor %v, want 360ms (seven rounds, the last of 60 ms)", got)
	}
}

func TestRulesFloorGivesEachPageTheFirstPlaceToFree(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	// The sandbox logs a request when its handler ends, not in arrival
	// order; a page asked again (page 3 retried, listed first here) counts
	// at its first ask, by arrival.
	log := []sandbox.RequestRecord{
		ask(3, 10, 99*ms, 4), ask(1, 10, 15*ms, 7),
		ask(1, 10, 10*ms, 0),
		ask(3, 10, 10*ms, 2), ask(2, 10, 30*ms, 1),
		ask(4, 10, 10*ms, 3), ask(5, 10, 25*ms, 5),
		ask(5, 9, 20*ms, 6),
	}
	got, err := rulesFloor(log, 5, 10, 2)
	if err != nil {
		t.Fatal(err)
	}
	// Both places from 10: page 2 to 40, page 3 to 20, page 4 to 30, page
	// 5 to 55; then the other question (20) beside the closing check (15).
	if got != 75*ms {
		t.Errorf("floor %v, want 75ms", got)
	}
}

func TestRulesFloorNamesWhatTheLogLacks(t *testing.T) {
	t.Parallel()
	const ms = time.Millisecond
	full := []sandbox.RequestRecord{ask(1, 10, ms, 0), ask(2, 10, ms, 1), ask(2, 9, ms, 2), ask(1, 10, ms, 3)}
	for _, c := range []struct {
		drop int
		want string
	}{{1, "no page 2"}, {2, "no other question of page 2"}, {3, "no closing check"}} {
		log := append(append([]sandbox.RequestRecord{}, full[:c.drop]...), full[c.drop+1:]...)
		if _, err := rulesFloor(log, 2, 10, 2); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("without record %d: %v, want %q", c.drop, err, c.want)
		}
	}
	if _, err := rulesFloor(full, 2, 10, 2); err != nil {
		t.Errorf("the whole log: %v", err)
	}
}
