package main

import (
	"slices"
	"testing"
	"time"
)

// pauses counts the places in a stream of webhooks where the relay may
// have gone quiet long enough to start a run. The relay notes each
// webhook's time between its sending and its answer (hookTiming), and
// starts a run once it has noted none for the quiet period. So while every
// stretch of a quarter of it between the first webhook sent and the last
// holds a whole webhook (sent and answered inside it), and no webhook took
// a quarter of it to answer, the relay never goes quiet: a stream without
// a pause starts no run before its end. A quarter, not the whole: under
// load two handlers may note their times out of order, and the relay keeps
// the one noted last (ledger.record), so it may see a longer pause than the
// sender made. Each pause counted may let one run start; a test of how many
// runs a stream starts allows one more per pause, and on an unloaded
// machine, where there is none, the exact count.
func pauses(hooks []hookTiming, quiet time.Duration) int {
	long := quiet / 4
	hooks = slices.SortedFunc(slices.Values(hooks), func(a, b hookTiming) int { return a.sent.Compare(b.sent) })
	n := 0
	for _, h := range hooks {
		if h.latency() >= long {
			n++ // its time may be noted anywhere in it
		}
	}
	// firstAnswer[k] is the first answer among the webhooks sent from the
	// k-th on: after the (k-1)-th was sent, none is both sent and answered
	// before it, so the relay may have noted nothing new until then.
	firstAnswer := make([]time.Time, len(hooks))
	for k := len(hooks) - 1; k >= 0; k-- {
		firstAnswer[k] = hooks[k].answered
		if k+1 < len(hooks) && firstAnswer[k+1].Before(firstAnswer[k]) {
			firstAnswer[k] = firstAnswer[k+1]
		}
	}
	for k := 1; k < len(hooks); k++ {
		if firstAnswer[k].Sub(hooks[k-1].sent) >= long {
			n++
		}
	}
	return n
}

func TestPausesCountsWhereTheRelayMayHaveGoneQuiet(t *testing.T) {
	t.Parallel()
	const quiet = 400 * time.Millisecond // a pause: 100 ms
	t0 := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	// steady is a webhook every 10 ms from from to to, each answered in 2 ms.
	steady := func(from, to int) []hookTiming {
		var hooks []hookTiming
		for at := from; at <= to; at += 10 {
			hooks = append(hooks, hookTiming{ms(at), ms(at + 2)})
		}
		return hooks
	}
	shuffled := steady(0, 1000)
	slices.Reverse(shuffled) // senders' timings come back in any order
	slow := steady(0, 1000)
	slow[30].answered = ms(450) // sent at 300, answered 150 ms later
	for _, c := range []struct {
		name  string
		hooks []hookTiming
		want  int
	}{
		{"a steady stream", steady(0, 1000), 0},
		{"a steady stream, its timings out of order", shuffled, 0},
		{"the sender stopped 200 ms", append(steady(0, 500), steady(700, 1000)...), 1},
		{"the sender stopped 90 ms", append(steady(0, 500), steady(590, 1000)...), 0},
		{"one answer took 150 ms", slow, 1},
	} {
		if got := pauses(c.hooks, quiet); got != c.want {
			t.Errorf("%s: %d pauses, want %d", c.name, got, c.want)
		}
	}
}
