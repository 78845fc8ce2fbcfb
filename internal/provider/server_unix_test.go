//go:build unix

package provider

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/joinit-community/terraform-provider-joinit/internal/sandbox"
)

// TestAccCtrlCStopsRead presses Ctrl-C, as a terminal does (SIGINT to the
// whole process group: Terraform and the provider it started), during a
// slow read under the real terraform plan and apply, with the built provider
// binary. Terraform sends StopProvider on plan, but none while apply
// computes its plan (1.11): there only the provider's own SIGINT handling
// (main.go) stops the read.
func TestAccCtrlCStopsRead(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	if os.Getenv("TF_ACC_TERRAFORM_PATH") == "" {
		t.Skip("no terraform: set TF_ACC_TERRAFORM_PATH or put terraform on PATH")
	}
	t.Parallel()
	dir := t.TempDir()
	cliConfig := filepath.Join(dir, "dev.tfrc")
	writeFile(t, cliConfig, DevOverridesCLIConfig(builtProviderDir(t)))

	for _, args := range [][]string{{"plan"}, {"apply", "-auto-approve"}} {
		t.Run(args[0], func(t *testing.T) {
			// 40 pages, one at a time, each answered after a second: the
			// read would take 40 s.
			api := startRecordedSandbox(t, sandbox.Options{Seed: 91, Memberships: 395, Faults: sandbox.Faults{Latency: time.Second}})
			work := filepath.Join(dir, args[0])
			writeFile(t, filepath.Join(work, "main.tf"), `
terraform {
  required_providers {
    joinit = { source = "`+RegistryAddress+`" }
  }
}
provider "joinit" {
  base_url                = "`+api.url+`"
  access_token            = "`+sandbox.DefaultToken+`"
  max_concurrent_requests = 1
}
data "joinit_memberships" "all" {
  page_size = 10
}
output "count" { value = length(data.joinit_memberships.all.ids) }
`)
			cmd := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), append(args, "-input=false", "-no-color")...)
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "TF_IN_AUTOMATION=1")
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group, as a terminal's foreground job
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()

			select {
			case <-api.thirdRequest: // two pages read, the third in flight
			case err := <-exited:
				t.Fatalf("terraform %s ended before reading: %v\n%s", args[0], err, out.String())
			case <-time.After(60 * time.Second):
				killGroup(cmd)
				<-exited
				t.Fatalf("terraform %s did not get to page 3 within 60 s\n%s", args[0], out.String())
			}
			signalled := time.Now()
			if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				killGroup(cmd)
				<-exited
				t.Fatalf("terraform %s still running 10 s after Ctrl-C\n%s", args[0], out.String())
			}
			exitedAfter := time.Since(signalled)
			// Any request still to come from a provider left running
			// arrives in this time.
			time.Sleep(time.Until(signalled.Add(3 * time.Second)))
			last := api.lastRequest().Sub(signalled)
			t.Logf("terraform %s: exited %v after Ctrl-C; last request %v after it", args[0], exitedAfter.Round(time.Millisecond), last.Round(time.Millisecond))
			if last > 2*time.Second {
				t.Errorf("the API got a request %v after Ctrl-C: the read went on", last)
			}
			if cmd.ProcessState.Success() {
				t.Errorf("terraform %s succeeded after Ctrl-C\n%s", args[0], out.String())
			}
			if said := strings.Join(strings.Fields(out.String()), " "); !strings.Contains(said, interruptedDetail) {
				t.Errorf("terraform %s does not say the read was interrupted (%q):\n%s", args[0], interruptedDetail, out.String())
			}
		})
	}
}

// recordedSandbox is a sandbox that notes when each request arrives.
type recordedSandbox struct {
	url          string
	thirdRequest chan struct{} // closed when the third request arrives

	mu       sync.Mutex
	requests int
	last     time.Time
}

func startRecordedSandbox(t *testing.T, opts sandbox.Options) *recordedSandbox {
	t.Helper()
	sb := sandbox.New(opts)
	r := &recordedSandbox{thirdRequest: make(chan struct{})}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.last = time.Now()
		if r.requests++; r.requests == 3 {
			close(r.thirdRequest)
		}
		r.mu.Unlock()
		sb.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL
	return r
}

func (r *recordedSandbox) lastRequest() time.Time {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

// killGroup ends Terraform and the provider it started.
func killGroup(cmd *exec.Cmd) {
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}
