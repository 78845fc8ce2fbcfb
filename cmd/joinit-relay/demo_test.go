package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// TestAccRelayDemo runs `make demo-relay`'s script on real Terraform: the
// sandbox cancels a member, the relay's command applies the sync, and the
// member must be gone from the applied state within the quiet period plus
// one apply. An acceptance test: it runs with TF_ACC set (make test).
func TestAccRelayDemo(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("TF_ACC is not set: the demo runs terraform")
	}
	t.Parallel()
	cmd := exec.CommandContext(t.Context(), "bash", "../../scripts/relay-demo.sh")
	cmd.WaitDelay = 10 * time.Second // a process the script left behind must not hold the test
	cmd.Env = append(os.Environ(), "DEMO_DIR="+t.TempDir(), "QUIET_PERIOD=1s")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the demo failed: %v\n%s", err, out)
	}
	gone := regexp.MustCompile(`(?m)^\s*([0-9]+)\.([0-9])s  (\S+) is gone from the applied state \(([0-9]+) members have access\)$`).FindSubmatch(out)
	first := regexp.MustCompile(`([0-9]+) members have access; cancelling (\S+)`).FindSubmatch(out)
	if gone == nil || first == nil {
		t.Fatalf("the demo did not print the member's removal:\n%s", out)
	}
	before, _ := strconv.Atoi(string(first[1]))
	after, _ := strconv.Atoi(string(gone[4]))
	if string(gone[3]) != string(first[2]) || after != before-1 {
		t.Errorf("cancelled %s of %d, then %s gone with %d left\n%s", first[2], before, gone[3], after, out)
	}
	if !regexp.MustCompile(`sent: memberships.inactive -> 202,memberships.updated -> 202,memberships.all -> 202`).Match(out) {
		t.Errorf("the sandbox's webhooks did not all reach the relay:\n%s", out)
	}
	t.Logf("removed after %s.%ss (quiet period 1s plus one apply)\n%s", gone[1], gone[2], out)
}
