package client

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// The client's own chaos campaign: every kind of read of one client (one
// provider's) at once, against sandboxes whose first and second attempts
// go wrong on a seeded schedule (sandbox.Chaos), with list sizes that are
// empty, short of one page, exact multiples of the page size and with a
// short last page. Each run is exact (every list equal to the sandbox's,
// in order), loud (a read failed) or wrong (any other list). `make chaos`
// runs the same through real Terraform (internal/provider).

// chaosOutcome is how one run of every read ended.
type chaosOutcome int

const (
	chaosExact chaosOutcome = iota
	chaosLoud
	chaosWrong
)

// chaosSizes are the list sizes runs cycle through, in pages of 10.
var chaosSizes = []int{0, 7, 10, 30, 37, 41}

// chaosRun reads every list once from a chaos sandbox of seed and judges
// the run; what went wrong is described for the log.
func chaosRun(t *testing.T, seed uint64, share float64, lies bool) (chaosOutcome, string) {
	size := func(k int) int { return chaosSizes[(int(seed)+k)%len(chaosSizes)] }
	sb, base := sandbox.StartForTest(t, sandbox.Options{Seed: int64(seed), Memberships: size(0), Payments: size(1), Groups: size(2), OrgMetrics: size(3),
		Faults: sandbox.Faults{Chaos: sandbox.Chaos{Seed: seed, Share: share, Lies: lies}}})
	c := newClient(t, Config{BaseURL: base, MaxConcurrency: 4})
	ctx := context.Background()
	active := int64(100)
	page := ListOptions{PageSize: 10}
	reads := map[string]func() ([]string, error){
		"memberships": func() ([]string, error) {
			ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: page})
			return membershipIDs(ms), err
		},
		"active memberships": func() ([]string, error) {
			ms, err := c.Memberships(ctx, MembershipQuery{Status: &active, ListOptions: page})
			return membershipIDs(ms), err
		},
		"lean memberships": func() ([]string, error) {
			ms, err := c.MembershipSummaries(ctx, MembershipQuery{ListOptions: page})
			ids := make([]string, len(ms))
			for i := range ms {
				ids[i] = deref(ms[i].ID)
			}
			return ids, err
		},
		"memberships, fields": func() ([]string, error) {
			ms, err := c.Memberships(ctx, MembershipQuery{ListOptions: ListOptions{PageSize: 10, Fields: []string{"email"}}})
			return membershipIDs(ms), err
		},
		"payments": func() ([]string, error) {
			ps, err := c.Payments(ctx, page)
			return paymentIDs(ps), err
		},
		"groups": func() ([]string, error) {
			gs, err := c.Groups(ctx, page)
			return groupIDs(gs), err
		},
		"org metrics": func() ([]string, error) {
			om, err := c.OrgMetrics(ctx, page)
			if err != nil {
				return nil, err
			}
			return metricKeys(om.Results), nil
		},
	}
	status := 100
	want := map[string][]string{
		"memberships":         rawIDs(t, sb.MembershipsJSON(nil)),
		"active memberships":  rawIDs(t, sb.MembershipsJSON(&status)),
		"lean memberships":    rawIDs(t, sb.MembershipsJSON(nil)),
		"memberships, fields": rawIDs(t, sb.MembershipsJSON(nil)),
		"payments":            rawIDs(t, sb.PaymentsJSON()),
		"groups":              rawIDs(t, sb.GroupsJSON()),
		"org metrics":         rawMetricKeys(t, sb.OrgMetricsJSON()),
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	outcome, why := chaosExact, ""
	for name, read := range reads {
		wg.Go(func() {
			got, err := read()
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				if outcome == chaosExact {
					outcome, why = chaosLoud, fmt.Sprintf("%s: %v", name, err)
				}
			case strings.Join(got, ",") != strings.Join(want[name], ","):
				outcome, why = chaosWrong, fmt.Sprintf("%s: %d records, want %d", name, len(got), len(want[name]))
			}
		})
	}
	wg.Wait()
	return outcome, why
}

// TestChaosReadsAreExactOrLoud: with transient faults alone every run is
// exact; with lies too, none is wrong and at least 90% are exact.
func TestChaosReadsAreExactOrLoud(t *testing.T) {
	t.Parallel()
	const runs = 40
	for _, lies := range []bool{false, true} {
		t.Run(fmt.Sprintf("lies=%v", lies), func(t *testing.T) {
			t.Parallel()
			var counts [3]int
			for seed := uint64(1); seed <= runs; seed++ {
				outcome, why := chaosRun(t, seed, 0.15, lies)
				counts[outcome]++
				if outcome != chaosExact {
					t.Logf("seed %d: %s", seed, why)
				}
				if outcome == chaosWrong {
					t.Errorf("seed %d: a wrong list: %s", seed, why)
				}
			}
			t.Logf("%d runs: %d exact, %d loud, %d wrong", runs, counts[chaosExact], counts[chaosLoud], counts[chaosWrong])
			if !lies && counts[chaosExact] != runs {
				t.Errorf("transient faults alone: %d of %d runs exact, want all", counts[chaosExact], runs)
			}
			if lies && counts[chaosExact]*10 < runs*9 {
				t.Errorf("with lies: %d of %d runs exact, want at least 90%%", counts[chaosExact], runs)
			}
		})
	}
}
