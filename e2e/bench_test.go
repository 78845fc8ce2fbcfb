//go:build e2e

package e2e

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkOffboarding (make e2e-bench): about 200 active members with
// Keystone users and a 5 s quiet period; five cancellations one after
// another, each waited for. It reports the seconds from a cancellation to
// the member's removal from the group, median and max, and the median
// seconds of one apply (the relay's run, quiet period excluded).
func BenchmarkOffboarding(b *testing.B) {
	const quiet = 5 * time.Second
	w := newWorld(b, worldOptions{seed: 200, memberships: 385, quietPeriod: quiet, maxRemovals: 10})
	took, err := w.sync.run()
	if err != nil {
		b.Fatalf("the first apply: %v", err)
	}
	active := len(w.activeEmails())
	w.step("first apply: %d active members in the group (apply %.1fs)", active, took.Seconds())
	taken := map[string]bool{}
	var removal, apply []float64
	b.ResetTimer()
	for range b.N {
		for i := range 5 {
			id, email := w.pickActive(taken)
			at := w.cancel(id)
			w.waitUntil("the cancelled member leaves the group", w.notInGroup(email))
			removal = append(removal, time.Since(at).Seconds())
			w.idle()
			apply = append(apply, w.lastApply().Seconds())
			w.step("cancellation %d: gone from the group after %.1fs (apply %.1fs)", i+1, removal[len(removal)-1], apply[len(apply)-1])
		}
	}
	b.StopTimer()
	b.ReportMetric(median(removal), "s-to-removal-median")
	b.ReportMetric(slices.Max(removal), "s-to-removal-max")
	b.ReportMetric(median(apply), "s-apply-median")
	b.ReportMetric(float64(active), "members")
	if m := median(removal); m > (quiet + 30*time.Second).Seconds() {
		b.Errorf("median cancellation-to-removal %.1fs, over the quiet period plus 30 s", m)
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
