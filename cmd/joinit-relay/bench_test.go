package main

import (
	"bufio"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkAcceptWhileARunIsBusy is the relay's load figure: each iteration
// starts a run that takes a second (the command backend, busy), sends a
// burst of 1,000 webhooks from 50 concurrent senders while it runs, and
// waits until the run the burst owes has started. It reports the accept
// latency (p50, p99) over every request, the runs each burst cost, and the
// relay's peak resident memory.
//
//	go test ./cmd/joinit-relay -run '^$' -bench AcceptWhileARunIsBusy -benchtime 5x
func BenchmarkAcceptWhileARunIsBusy(b *testing.B) {
	r := startRelay(b, relayOptions{stateDir: b.TempDir()}, "-quiet-period", "200ms", "-run-command", "sleep 1; "+appendRun)
	var lat []time.Duration
	var bursts, burstRuns int
	for b.Loop() {
		before := r.runCount()
		if status, _ := post(b, r.hookURL, membership("m0", "memberships.inactive")); status != http.StatusAccepted {
			b.Fatalf("answered %d", status)
		}
		waitFor(b, "the run starts", func() bool { return r.health().Starting })
		lat = append(lat, burst(b, r.hookURL, 1000, 50)...)
		if h := r.health(); !h.Starting {
			b.Fatal("the run ended before the burst did: the figure would not be under load")
		}
		r.waitIdle(200 * time.Millisecond)
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
