package sandbox

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// The schedule is a function of the seed, the request and the attempt: the
// same again gives the same; later attempts are clean; a request lies at
// most once; every kind happens; without Lies nothing lies; and about a
// Share of first attempts go wrong.
func TestChaosSchedule(t *testing.T) {
	t.Parallel()
	c := Chaos{Seed: 42, Share: 0.3, Lies: true}
	seen := map[chaosKind]int{}
	wrong := 0
	const keys = 20000
	for i := range keys {
		key := fmt.Sprintf("memberships?count=10&page=%d", i)
		k1, k2 := c.kindOf(key, 1), c.kindOf(key, 2)
		if k1 != c.kindOf(key, 1) || k2 != c.kindOf(key, 2) {
			t.Fatalf("%s: not deterministic", key)
		}
		if k1.lies() && k2.lies() {
			t.Fatalf("%s: both attempts lie (%v, %v)", key, k1, k2)
		}
		for attempt := 3; attempt < 6; attempt++ {
			if k := c.kindOf(key, attempt); k != chaosClean {
				t.Fatalf("%s attempt %d: %v, want clean", key, attempt, k)
			}
		}
		if noLies := (Chaos{Seed: 42, Share: 0.3}).kindOf(key, 1); noLies.lies() {
			t.Fatalf("%s: a lie without Lies: %v", key, noLies)
		}
		seen[k1]++
		seen[k2]++
		if k1 != chaosClean {
			wrong++
		}
	}
	for k := chaosClean; k < numChaosKinds; k++ {
		if seen[k] == 0 {
			t.Errorf("kind %v never drawn", k)
		}
	}
	if share := float64(wrong) / keys; share < 0.27 || share > 0.33 {
		t.Errorf("%.3f of first attempts went wrong, want about 0.3", share)
	}
	if other := (Chaos{Seed: 43, Share: 0.3, Lies: true}); other.kindOf("memberships?count=10&page=1", 1) == c.kindOf("memberships?count=10&page=1", 1) &&
		other.kindOf("memberships?count=10&page=2", 1) == c.kindOf("memberships?count=10&page=2", 1) &&
		other.kindOf("memberships?count=10&page=3", 1) == c.kindOf("memberships?count=10&page=3", 1) &&
		other.kindOf("memberships?count=10&page=4", 1) == c.kindOf("memberships?count=10&page=4", 1) {
		t.Error("seeds 42 and 43 give the same schedule")
	}
}

// What the sandbox answers is what the schedule says: for each kind, a
// request whose first attempt draws it gets it, and its third attempt gets
// the truth.
func TestChaosServesTheSchedule(t *testing.T) {
	t.Parallel()
	const n = 25
	for kind := chaosRateLimited; kind < numChaosKinds; kind++ {
		t.Run(kind.String(), func(t *testing.T) {
			t.Parallel()
			c := Chaos{Share: 0.5, Lies: true}
			// A seed whose first attempt at page 1 draws kind.
			for c.Seed = 1; c.kindOf("memberships?count=10&page=1", 1) != kind; c.Seed++ {
			}
			s, url := StartForTest(t, Options{Seed: 3, Memberships: n, Faults: Faults{Chaos: c}})
			get := func() (int, string, error) {
				req, _ := http.NewRequest(http.MethodGet, url+DefaultPaths()[EndpointMemberships]+"?page=1&count=10", nil)
				req.Header.Set("Authorization", "Bearer "+DefaultToken)
				resp, err := http.DefaultClient.Do(req)
				if err != nil {
					return 0, "", err
				}
				defer resp.Body.Close()
				b, err := io.ReadAll(resp.Body)
				return resp.StatusCode, string(b), err
			}
			status, body, err := get()
			truth := string(appendArray(nil, s.data.records(epMemberships, nil)[:10]))
			switch kind {
			case chaosRateLimited, chaosServerJSON, chaosGatewayHTML, chaosUnavailable:
				if err != nil || status < 429 {
					t.Fatalf("%v: status %d, %v", kind, status, err)
				}
			case chaosReset, chaosCutBody:
				if err == nil {
					t.Fatalf("%v: status %d and a whole body of %d bytes", kind, status, len(body))
				}
			case chaosSlowStart:
				if err != nil || body != truth {
					t.Fatalf("%v: %d %v", kind, status, err)
				}
			case lieEmpty:
				if status != 200 || body != "[]" {
					t.Fatalf("%v: %d %q", kind, status, cut(body))
				}
			case lieShort:
				if status != 200 || !strings.HasPrefix(truth, strings.TrimSuffix(body, "]")) || len(body) >= len(truth) {
					t.Fatalf("%v: %d, %d bytes of the truth's %d", kind, status, len(body), len(truth))
				}
			case lieMaintenance:
				if status != 200 || !strings.Contains(body, "<html>") {
					t.Fatalf("%v: %d %q", kind, status, cut(body))
				}
			case lieErrorObject:
				if status != 200 || !strings.HasPrefix(body, `{"error"`) {
					t.Fatalf("%v: %d %q", kind, status, cut(body))
				}
			case lieCutJSON:
				if status != 200 || !strings.HasPrefix(truth, body) || len(body) >= len(truth) {
					t.Fatalf("%v: %d %q", kind, status, cut(body))
				}
			}
			_, _, _ = get() // the second attempt: whatever it draws
			if status, body, err := get(); err != nil || status != 200 || body != truth {
				t.Fatalf("third attempt: %d, %v, %d bytes; want the truth", status, err, len(body))
			}
		})
	}
}

// cut shortens a body for a failure message.
func cut(body string) string { return body[:min(len(body), 80)] }

// With Tellings, a plausible first lie is told on every attempt up to
// Tellings and the truth after; any other first attempt keeps the rules of
// one-time lies.
func TestChaosTellsAPlausibleLieAgain(t *testing.T) {
	t.Parallel()
	once := Chaos{Seed: 7, Share: 0.3, Lies: true}
	again := once
	again.Tellings = 3
	repeated := 0
	for i := range 5000 {
		key := fmt.Sprintf("payments?limit=10&page=%d", i)
		first := again.kindOf(key, 1)
		if first != once.kindOf(key, 1) {
			t.Fatalf("%s: the first attempt differs with Tellings: %v, %v", key, first, once.kindOf(key, 1))
		}
		if !first.plausible() {
			for attempt := 2; attempt < 6; attempt++ {
				if a, b := again.kindOf(key, attempt), once.kindOf(key, attempt); a != b {
					t.Fatalf("%s attempt %d: %v with Tellings, %v without", key, attempt, a, b)
				}
			}
			continue
		}
		repeated++
		for attempt := 2; attempt <= 3; attempt++ {
			if k := again.kindOf(key, attempt); k != first {
				t.Fatalf("%s attempt %d: %v, want the first lie (%v) again", key, attempt, k, first)
			}
		}
		for attempt := 4; attempt < 7; attempt++ {
			if k := again.kindOf(key, attempt); k != chaosClean {
				t.Fatalf("%s attempt %d: %v, want the truth after the tellings", key, attempt, k)
			}
		}
	}
	if repeated < 150 { // about Share × 2 of the 12 kinds: 250
		t.Errorf("%d of 5000 requests drew a plausible first lie, want hundreds", repeated)
	}
}

// LatencyJitter spreads each answer's latency evenly over the range, from
// the seed: the same seed draws the same latencies.
func TestLatencyJitter(t *testing.T) {
	t.Parallel()
	draws := func(seed uint64) []time.Duration {
		var fs faultState
		fs.set(Faults{Latency: 50 * time.Millisecond, LatencyJitter: 0.2, JitterSeed: seed})
		var out []time.Duration
		for i := range 400 {
			out = append(out, fs.latency(fmt.Sprintf("memberships?count=1000&page=%d", i%40)))
		}
		return out
	}
	a, b := draws(3), draws(3)
	lo, hi := time.Hour, time.Duration(0)
	for i, d := range a {
		if d != b[i] {
			t.Fatalf("draw %d: %v then %v from one seed", i, d, b[i])
		}
		if d < 40*time.Millisecond || d > 60*time.Millisecond {
			t.Fatalf("draw %d: %v, outside 50 ms ± 20%%", i, d)
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo > 42*time.Millisecond || hi < 58*time.Millisecond {
		t.Errorf("latencies from %v to %v: not spread over the range", lo, hi)
	}
	if slices.Equal(a, draws(4)) {
		t.Error("seeds 3 and 4 draw the same latencies")
	}
	var fs faultState
	fs.set(Faults{Latency: 50 * time.Millisecond})
	if d := fs.latency("x"); d != 50*time.Millisecond {
		t.Errorf("without jitter: %v", d)
	}
}
