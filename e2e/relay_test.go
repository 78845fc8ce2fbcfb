//go:build e2e

package e2e

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// relay is a real joinit-relay process with the command backend, on a
// fixed loopback port, so it can be killed and started again where the
// sandbox's webhooks go.
type relay struct {
	t                 testing.TB
	binary, addr, dir string
	secret, command   string
	quietPeriod       time.Duration
	env               []string
	cmd               *exec.Cmd
	exited            chan struct{}
}

// newRelay prepares a relay whose runs are command, started after
// quietPeriod; start starts it.
func newRelay(t testing.TB, binary, dir, command string, quietPeriod time.Duration, env []string) *relay {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	r := &relay{t: t, binary: binary, addr: addr, dir: dir, secret: hex.EncodeToString(b), command: command, quietPeriod: quietPeriod, env: env}
	t.Cleanup(r.stop)
	return r
}

// hookURL is the receiver URL to give the sandbox.
func (r *relay) hookURL() string { return "http://" + r.addr + "/hooks/" + r.secret }

// start runs the relay and waits until it listens. Its log goes on in
// dir/relay.log across restarts.
func (r *relay) start() {
	r.t.Helper()
	log, err := os.OpenFile(filepath.Join(r.dir, "relay.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		r.t.Fatal(err)
	}
	defer log.Close()
	r.cmd = exec.Command(r.binary, "-listen", r.addr, "-state-dir", filepath.Join(r.dir, "relay-state"),
		"-quiet-period", r.quietPeriod.String(), "-run-command", r.command)
	r.cmd.Env = append(append([]string{}, r.env...), "JOINIT_RELAY_SECRET="+r.secret)
	r.cmd.Stdout, r.cmd.Stderr = log, log
	if err := r.cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.exited = make(chan struct{})
	go func(cmd *exec.Cmd, exited chan struct{}) { _ = cmd.Wait(); close(exited) }(r.cmd, r.exited)
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if _, err := r.health(); err == nil {
			return
		}
		select {
		case <-r.exited:
			r.t.Fatalf("joinit-relay exited before listening:\n%s", r.log())
		case <-time.After(50 * time.Millisecond):
		}
	}
	r.t.Fatalf("joinit-relay did not listen on %s in 30 s:\n%s", r.addr, r.log())
}

// kill ends the relay with SIGKILL: no shutdown, as a crash or an OOM
// kill would.
func (r *relay) kill() {
	r.t.Helper()
	_ = r.cmd.Process.Kill()
	<-r.exited
}

// stop ends the relay with SIGTERM, as an operator would.
func (r *relay) stop() {
	if r.cmd == nil || r.cmd.Process == nil {
		return
	}
	select {
	case <-r.exited:
		return
	default:
	}
	_ = r.cmd.Process.Signal(os.Interrupt)
	select {
	case <-r.exited:
	case <-time.After(60 * time.Second):
		_ = r.cmd.Process.Kill()
		<-r.exited
	}
}

// relayHealth is GET /healthz's answer.
type relayHealth struct {
	RunOwed    bool    `json:"run_owed"`
	Starting   bool    `json:"starting"`
	FailingFor *string `json:"failing_for"`
}

func (r *relay) health() (relayHealth, error) {
	var h relayHealth
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+r.addr+"/healthz", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return h, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return h, fmt.Errorf("/healthz: %s", resp.Status)
	}
	return h, json.NewDecoder(resp.Body).Decode(&h)
}

// log is what the relay logged so far.
func (r *relay) log() string {
	b, _ := os.ReadFile(filepath.Join(r.dir, "relay.log"))
	return string(b)
}

// failedStarts counts the relay's logged failed starts.
func (r *relay) failedStarts() int {
	return len(regexp.MustCompile(`(?m)the sync run could not be started`).FindAllString(r.log(), -1))
}

// lastRunOutput is the output of the last run the relay started.
func (r *relay) lastRunOutput() string {
	b, _ := os.ReadFile(filepath.Join(r.dir, "relay-state", "last-run.log"))
	return strings.TrimSpace(string(b))
}
