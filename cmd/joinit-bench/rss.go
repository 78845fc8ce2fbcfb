package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// peakWatcher polls /proc for the peak RSS (VmHWM, which only grows) of
// terraform and of the provider process it starts. getrusage cannot tell
// the two apart: a waited-for child's maxrss covers its descendants too.
type peakWatcher struct {
	stopOnce sync.Once
	done     chan struct{}
	finished chan struct{}
	tfKB     int64
	provKB   int64
}

func watchPeaks(terraformPID int) *peakWatcher {
	w := &peakWatcher{done: make(chan struct{}), finished: make(chan struct{})}
	go func() {
		defer close(w.finished)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if kb := vmHWM(terraformPID); kb > w.tfKB {
				w.tfKB = kb
			}
			for _, pid := range childrenNamed(terraformPID, "terraform-provi") {
				if kb := vmHWM(pid); kb > w.provKB {
					w.provKB = kb
				}
			}
			select {
			case <-w.done:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *peakWatcher) stop() (tfKB, provKB int64) {
	w.stopOnce.Do(func() { close(w.done) })
	<-w.finished
	return w.tfKB, w.provKB
}

// vmHWM reads a process's peak resident set size in kB (0 if gone).
func vmHWM(pid int) int64 {
	f, err := os.Open(filepath.Join("/proc", strconv.Itoa(pid), "status"))
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if rest, ok := strings.CutPrefix(s.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}

// childrenNamed lists the direct children of ppid whose command starts with
// prefix (/proc's comm is cut at 15 bytes).
func childrenNamed(ppid int, prefix string) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// stat: pid (comm) state ppid ...; comm may contain spaces.
		lparen, rparen := strings.IndexByte(string(stat), '('), strings.LastIndexByte(string(stat), ')')
		if lparen < 0 || rparen < lparen {
			continue
		}
		comm := string(stat[lparen+1 : rparen])
		fields := strings.Fields(string(stat[rparen+1:]))
		if len(fields) < 2 {
			continue
		}
		if parent, _ := strconv.Atoi(fields[1]); parent == ppid && strings.HasPrefix(comm, prefix) {
			out = append(out, pid)
		}
	}
	return out
}
