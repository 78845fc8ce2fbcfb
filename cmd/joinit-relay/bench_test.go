package main

import (
	"bufio"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/testutil"
)

// BenchmarkAcceptWhileARunIsBusy is the relay's load figure: each iteration
// starts a run (the command backend, busy: it waits at a gate until the
// burst is over), sends a burst of 1,000 webhooks from 50 concurrent
// senders while it runs, and waits until the run the burst owes has ended. It reports the accept
// latency (p50, p99) over every request, the runs each burst cost, and the
// relay's peak resident memory.
//
//	go test ./cmd/joinit-relay -run '^$' -bench AcceptWhileARunIsBusy -benchtime 5x
func BenchmarkAcceptWhileARunIsBusy(b *testing.B) {
	g := newGate(b)
	r := startRelay(b, relayOptions{stateDir: b.TempDir(), env: []string{g.env()}}, "-quiet-period", "200ms", "-run-command", atGate+"; "+appendRun)
	var lat []time.Duration
	var bursts, burstRuns int
	for b.Loop() {
		before := r.runCount()
		if status, _ := post(b, r.hookURL, membership("m0", "memberships.inactive")); status != http.StatusAccepted {
			b.Fatalf("answered %d", status)
		}
		testutil.Eventually(b, "the run starts", func() bool { return r.health().Starting })
		for _, h := range burst(b, r.hookURL, 1000, 50) {
			lat = append(lat, h.latency())
		}
		if h := r.health(); !h.Starting {
			b.Fatal("the run ended before the burst did: the figure would not be under load")
		}
		g.open(b) // the run
		g.open(b) // the one the burst owes
		r.waitIdle()
		bursts++
		burstRuns += r.runCount() - before - 1
	}
	slices.Sort(lat)
	b.ReportMetric(ms(lat[len(lat)/2]), "p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "p99-ms")
	b.ReportMetric(float64(burstRuns)/float64(bursts), "runs/burst")
	if kb, ok := peakRSS(r.cmd.Process.Pid); ok {
		b.ReportMetric(float64(kb)/1024, "relay-peak-MB")
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// peakRSS reads VmHWM, the process's peak resident set, on Linux.
func peakRSS(pid int) (int, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return kb, err == nil
		}
	}
	return 0, false
}

// BenchmarkKeyHeavyBodies is the relay's memory under a hostile sender:
// 100 bodies of just under 1 MiB, each about 100,000 small keys, sent at
// once, while a real webhook is sent every 10 ms. It reports the relay's
// peak resident memory and the real webhooks' latency (p50, p99).
//
//	go test ./cmd/joinit-relay -run '^$' -bench KeyHeavyBodies -benchtime 3x
func BenchmarkKeyHeavyBodies(b *testing.B) {
	r := startRelay(b, relayOptions{stateDir: b.TempDir()}, "-quiet-period", "1h", "-max-delay", "1h", "-run-command", appendRun)
	var body strings.Builder
	body.WriteString("{")
	for i := 0; body.Len() < maxBody-16; i++ {
		if i > 0 {
			body.WriteString(",")
		}
		body.WriteString(`"k` + strconv.Itoa(i) + `":0`)
	}
	body.WriteString("}")
	heavy := body.String()
	var lat []time.Duration
	for b.Loop() {
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() {
				if status, _ := post(b, r.hookURL, heavy); status != http.StatusAccepted {
					b.Errorf("a key-heavy body answered %d", status)
				}
			})
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		for waiting := true; waiting; {
			began := time.Now()
			if status, _ := post(b, r.hookURL, membership("m1", "memberships.inactive")); status != http.StatusAccepted {
				b.Fatalf("a real webhook answered %d", status)
			}
			lat = append(lat, time.Since(began))
			select {
			case <-done:
				waiting = false
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	slices.Sort(lat)
	b.ReportMetric(ms(lat[len(lat)/2]), "real-p50-ms")
	b.ReportMetric(ms(lat[len(lat)*99/100]), "real-p99-ms")
	if kb, ok := peakRSS(r.cmd.Process.Pid); ok {
		b.ReportMetric(float64(kb)/1024, "relay-peak-MB")
	}
}
